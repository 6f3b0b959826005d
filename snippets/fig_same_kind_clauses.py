"""Two drinks in one sentence: where each object looks, without and with position.

"The black cat drank the milk and sipped the water": the rows are the queries
of "milk" and "water", the columns the keys of the ten words. Both models were
trained on the same sentences, in which both objects may be drinks. Without
position (left) a sentence is a bag of words: milk and water cannot tell which
drink verb is theirs, and both rows split between "drank" and "sipped". With a
learned number per distance added to each score (right), each object looks two
words back, at its own verb (outlined), and at the animal.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap, softmax_rows, use_language
from relevance_training import attention_row, attention_scores, train_same_kind

WORDS = "The black cat drank the milk and sipped the water".split()
OBJECTS = {5: 3, 9: 7}  # position of each object: position of its own verb

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {False: "bag of words (no position)", True: "with a relative position bias"},
    "zh": {False: "词袋（没有位置信息）", True: "加上相对位置偏置"},
}


def draw(lang="en"):
    use_language(lang)
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 2.4), layout="constrained")
    own_verbs = [(row, verb) for row, verb in enumerate(OBJECTS.values())]
    for ax, position in zip(axes, (False, True)):
        params = train_same_kind(position).params  # trained once per process, then cached
        rows = np.array([attention_row(params, WORDS, WORDS[at], at=at) for at in OBJECTS])  # (2, 10)
        heatmap(ax, rows, [WORDS[at] for at in OBJECTS], WORDS, "weight", highlight_cells=own_verbs,
                title=LABELS[lang][position],
                computed_as=softmax_rows(np.array([attention_scores(params, WORDS, WORDS[at], at) for at in OBJECTS])))
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_same_kind_clauses.py zh
    draw(lang).savefig(f"fig_same_kind_clauses.{lang}.svg")

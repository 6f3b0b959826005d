"""Each object finds its own verb: milk's and fish's queries over one sentence.

"The black cat drank the milk and ate the fish" has two verbs. The rows are
the queries of "milk" and "fish", the columns the keys of the nine words.
Before training (left) both queries spread their attention evenly. After
training (right) milk's query goes to "drank" and fish's to "ate", each
with a share for "cat"; the cells of each object's own verb are outlined.
The model sees no word order, so this is what the words are, not where.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap, softmax_rows, use_language
from relevance_training import D_K, attention_row, query_and_key, train

WORDS = "The black cat drank the milk and ate the fish".split()
QUERIES = {"milk": "drank", "fish": "ate"}  # each object and its own verb

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"before": "before training", "after": "after training"},
    "zh": {"before": "训练前", "after": "训练后"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    run = train()  # trained once per process, then cached
    own_verbs = [(i, WORDS.index(verb)) for i, verb in enumerate(QUERIES.values())]
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 2.4), layout="constrained")
    for ax, (params, title) in zip(axes, [(run.params_before, text["before"]),
                                          (run.params, text["after"])]):
        rows = np.array([attention_row(params, WORDS, query) for query in QUERIES])  # (2, 9)
        scores = np.array([[q @ k for q, k in (query_and_key(params, query, word) for word in WORDS)]
                           for query in QUERIES])  # (2, 9): q · k, before ÷√d_k and softmax
        heatmap(ax, rows, list(QUERIES), WORDS, "weight", highlight_cells=own_verbs, title=title,
                computed_as=softmax_rows(scores, d_k=D_K))
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_each_object_finds_its_verb.py zh
    draw(lang).savefig(f"fig_each_object_finds_its_verb.{lang}.svg")

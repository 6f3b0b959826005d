"""Where "milk" looks in "The black cat drank the milk": its attention weights before training (top)
and after (bottom).
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap, softmax_rows, use_language
from relevance_training import D_K, SENTENCE, attention_row, query_and_key, train

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"before": "before training", "after": "after training"},
    "zh": {"before": "训练前", "after": "训练后"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    run = train()  # trained once per process, then cached
    fig, axes = plt.subplots(2, 1, figsize=(6.0, 2.9), layout="constrained")
    panels = [(run.params_before, text["before"]), (run.params, text["after"])]
    for ax, (params, title) in zip(axes, panels):
        weights = attention_row(params)[None, :]  # (1 query, 6 keys)
        scores = np.array([[q @ k for q, k in (query_and_key(params, "milk", word) for word in SENTENCE)]])
        heatmap(ax, weights, ["milk"], SENTENCE, "weight", highlight_rows=[0], title=title,
                computed_as=softmax_rows(scores, d_k=D_K))  # scores (1, 6): q · k before ÷√d_k
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_milk_attention_before_after.py zh
    draw(lang).savefig(f"fig_milk_attention_before_after.{lang}.svg")

"""Where "milk" looks in each layer of all-MiniLM-L6-v2, averaged over the layer's 12 heads.

Row l is the mean of the 12 rows of "milk" in layer l (one per head), in
"The black cat drank the milk": a weighted sum of those rows, each with
weight 1/12, so each row still sums to 1. Columns are the key tokens. From
layer 1 on, most of the weight goes to [CLS] and [SEP]; the layer whose
row gives them the most is outlined.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

import minilm
from minilm_heads import MILK, SENTENCE
from plotting import heatmap, use_language, weighted_sums

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"layer": "layer {}", "title": "the row of milk, mean of 12 heads",
           "query": "milk, in layer", "key": "key token", "head": "L{layer} H{head}"},
    "zh": {"layer": "第 {} 层", "title": "milk 那一行：12 个头的平均",
           "query": "milk 那一行（按层）", "key": "键词元", "head": "第 {layer} 层，头 {head}"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    tokens, weights = minilm.attention_weights(SENTENCE)  # (layers, heads, n, n)
    n_layers, n_heads = weights.shape[:2]
    rows = weights[:, :, MILK].reshape(n_layers * n_heads, -1)  # (72, n): milk's row in every head
    averaging = np.kron(np.eye(n_layers), np.full((1, n_heads), 1 / n_heads))  # (6, 72)
    mean_rows = averaging @ rows  # (layers, n)
    special = mean_rows[:, 0] + mean_rows[:, -1]
    heads = [text["head"].format(layer=l, head=h) for l in range(n_layers) for h in range(n_heads)]
    fig, ax = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
    heatmap(ax, mean_rows, [text["layer"].format(l) for l in range(n_layers)], tokens, "weight",
            highlight_rows=[int(np.argmax(special))], title=text["title"],
            row_title=text["query"], col_title=text["key"],
            computed_as=weighted_sums(averaging, rows, heads, names=("1/12", "w_milk")))
    ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_milk_by_layer.py zh
    draw(lang).savefig(f"fig_minilm_milk_by_layer.{lang}.svg")

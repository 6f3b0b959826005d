"""All 72 heads of all-MiniLM-L6-v2 on "The black cat drank the milk", at a glance.

One small grid per head: 6 layers (rows of the figure) × 12 heads (its
columns). In each grid, rows are query tokens and columns key tokens,
[CLS] first and [SEP] last, as in every heatmap of the site; the darker a
cell, the more weight. Many grids have dark first and last columns: their
rows go to [CLS] and [SEP]. The four heads that do a pattern we can name
(`minilm_heads.named_heads`) are outlined; the next figure shows them with
their numbers.
"""

import sys

import matplotlib.pyplot as plt

import minilm
from minilm_heads import SENTENCE, named_heads
from plotting import HIGHLIGHT, heatmap, use_language

# The figure's text in each language.
LABELS = {
    "en": {"layer": "layer {}", "head": "head {}"},
    "zh": {"layer": "第 {} 层", "head": "头 {}"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    tokens, weights = minilm.attention_weights(SENTENCE)  # (layers, heads, n, n)
    n_layers, n_heads, n, _ = weights.shape
    outlined = {(layer, head) for layer, head, _ in named_heads().values()}
    fig, axes = plt.subplots(n_layers, n_heads, figsize=(8.6, 4.9), layout="constrained")
    for (layer, head), ax in zip([(l, h) for l in range(n_layers) for h in range(n_heads)], axes.flat):
        heatmap(ax, weights[layer, head], [""] * n, [""] * n, "weight", fmt="")  # a glance: no numbers
        if (layer, head) in outlined:
            for spine in ax.spines.values():
                spine.set(visible=True, edgecolor=HIGHLIGHT, linewidth=3)
        if head == 0:
            ax.set_ylabel(text["layer"].format(layer), fontsize=9)
        if layer == 0:
            ax.set_title(text["head"].format(head), fontsize=9)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_all_heads.py zh
    draw(lang).savefig(f"fig_minilm_all_heads.{lang}.svg")

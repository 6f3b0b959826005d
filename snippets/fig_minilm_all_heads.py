"""All 72 heads of all-MiniLM-L6-v2 on "The black cat drank the milk", at a glance.

One small grid per head: 6 layers (rows of the figure) × 12 heads (its
columns). In each grid, rows are query tokens and columns key tokens,
[CLS] first and [SEP] last, as in every heatmap of the site; the darker a
cell, the more weight (in 16 shades). Many grids have dark first and last columns: their
rows go to [CLS] and [SEP]. The four heads that do a pattern we can name
(`minilm_heads.named_heads`) are outlined; the next figure shows them with
their numbers.
"""

import sys

import matplotlib.patches as mpatches
import matplotlib.pyplot as plt
import numpy as np

import minilm
from minilm_heads import SENTENCE, named_heads
from plotting import HIGHLIGHT, heatmap, use_language

# The figure's text in each language.
LABELS = {
    "en": {"layer": "layer {}", "head": "head {}"},
    "zh": {"layer": "第 {} 层", "head": "头 {}"},
}


def mosaic(weights, gap=1):
    """Every head's grid in one matrix, layers down and heads across, gaps of NaN between.

    (layers, heads, n, n) -> (layers * (n + gap) - gap, heads * (n + gap) - gap): one
    image instead of 72 keeps the figure light.
    """
    n_layers, n_heads, n, _ = weights.shape
    tiles = np.full((n_layers, n_heads, n + gap, n + gap), np.nan)
    tiles[:, :, :n, :n] = weights
    grid = tiles.transpose(0, 2, 1, 3).reshape(n_layers * (n + gap), n_heads * (n + gap))
    return grid[:-gap, :-gap]


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    tokens, weights = minilm.attention_weights(SENTENCE)  # (layers, heads, n, n)
    n_layers, n_heads, n, _ = weights.shape
    step = n + 1  # a grid and its gap
    fig, ax = plt.subplots(figsize=(8.6, 4.6), layout="constrained")
    grid = mosaic(weights)  # (6 * 9 - 1, 12 * 9 - 1)
    image = heatmap(ax, grid, [""] * grid.shape[0], [""] * grid.shape[1], "weight", fmt="")  # a glance: no numbers
    image.set_interpolation("none")  # the SVG holds one pixel per cell, drawn sharp
    image.set_cmap(image.get_cmap().resampled(16))  # 16 shades, enough for a glance: the image is 40% the bytes
    ax.set_xticks([h * step + (n - 1) / 2 for h in range(n_heads)],
                  labels=[text["head"].format(h) for h in range(n_heads)], fontsize=9)
    ax.set_yticks([l * step + (n - 1) / 2 for l in range(n_layers)],
                  labels=[text["layer"].format(l) for l in range(n_layers)], fontsize=9)
    for layer, head, _ in named_heads().values():
        ax.add_patch(mpatches.Rectangle((head * step - 0.65, layer * step - 0.65), n + 0.3, n + 0.3,
                                        fill=False, edgecolor=HIGHLIGHT, linewidth=2.5, clip_on=False))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_all_heads.py zh
    draw(lang).savefig(f"fig_minilm_all_heads.{lang}.svg")

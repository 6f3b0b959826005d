"""The whole of attention for "The ball is blue", in one picture.

Top row: the input X and the three linear layers that turn it into Q, K and
V. Bottom row: the scaled scores Q·Kᵀ/√d_k, the softmax weights, and the
output Z = weights · V. The row of "blue" is outlined in every matrix: it is
the same word from the first step to the last.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import ConnectionPatch
from matplotlib.text import Annotation
from matplotlib.transforms import offset_copy

from attention import scaled_dot_product_attention
from plotting import dot_products, heatmap, ink, softmax_rows, use_language, weighted_sums
from running_example import (D_K, DIMENSIONS, FEATURES, POSITION, SOURCE_WORDS, VALUES,
                             encoder_input, project)

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"scores": "scores = Q·Kᵀ/√{d_k}", "weights": "weights = softmax(scores)",
           "output": "Z = weights·V",
           "dimensions": DIMENSIONS, "features": FEATURES, "values": VALUES},
    "zh": {"scores": "分数 = Q·Kᵀ/√{d_k}", "weights": "权重 = softmax(分数)",
           "output": "Z = 权重·V",
           "dimensions": ["事物", "颜色", "冠词", "动词"] + POSITION,
           "features": ["事物", "颜色", "冠词", "动词"], "values": ["事物", "颜色", "功能词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    x = encoder_input(SOURCE_WORDS)  # (n, d_model) = (4, 6)
    q, k, v = project(x)  # (n, d_k), (n, d_k), (n, d_v) = (4, 4), (4, 4), (4, 3)
    z, weights = scaled_dot_product_attention(q, k, v)  # (4, 3) and (4, 4)
    scores = q @ k.T / np.sqrt(D_K)  # (n, n): what softmax is applied to
    blue = SOURCE_WORDS.index("blue")

    fig = plt.figure(figsize=(9.5, 6.8), layout="constrained")
    top, bottom = fig.subfigures(2, 1, hspace=0.12)
    axes = top.subplot_mosaic([["x", "q", "k", "v"]], width_ratios=[6, 4, 4, 3],
                              gridspec_kw={"wspace": 0.2})
    axes |= bottom.subplot_mosaic([["s", "w", "z"]], width_ratios=[4, 4, 3],
                                  gridspec_kw={"wspace": 0.3})
    panels = [  # name, matrix, columns, kind, format, title, what its cells are computed from
        ("x", x, text["dimensions"], "vector", "{:.1f}", "X", None),
        ("q", q, text["features"], "vector", "{:.0f}", "Q = X·W_Q", None),
        ("k", k, text["features"], "vector", "{:.0f}", "K = X·W_K", None),
        ("v", v, text["values"], "vector", "{:.0f}", "V = X·W_V", None),
        ("s", scores, SOURCE_WORDS, "score", "{:.2f}", text["scores"].format(d_k=D_K),
         dot_products(q, k, d_k=D_K)),
        ("w", weights, SOURCE_WORDS, "weight", "{:.2f}", text["weights"], softmax_rows(scores)),
        ("z", z, text["values"], "vector", "{:.2f}", text["output"],
         weighted_sums(weights, v, SOURCE_WORDS)),
    ]
    for name, matrix, col_labels, kind, fmt, title, computed in panels:
        heatmap(axes[name], matrix, SOURCE_WORDS, col_labels, kind, fmt=fmt,
                highlight_rows=[blue], title=title, computed_as=computed)
        if col_labels is not SOURCE_WORDS:
            axes[name].tick_params(axis="x", labelrotation=90)

    # Arrows from each step to the next: sideways within a row (stopping
    # before the next panel's row labels), down from Q, K and V to the top of
    # the next panel's title (wherever its column labels put it).
    style = dict(arrowstyle="-|>", mutation_scale=14, color=ink(), linewidth=1.4, shrinkA=4)
    for a, b in [("x", "q"), ("s", "w"), ("w", "z")]:
        end_transform = offset_copy(axes[b].transAxes, fig=fig, x=-36, y=0, units="points")
        fig.add_artist(ConnectionPatch(xyA=(1, 0.5), coordsA="axes fraction", axesA=axes[a],
                                       xyB=(0, 0.5), coordsB=end_transform, **style))
    for a, b in [("q", "s"), ("k", "s"), ("v", "z")]:
        fig.add_artist(Annotation("", xy=(0.5, 1), xycoords=axes[b].title, xytext=(0.5, 0),
                                  textcoords=axes[a].transAxes,
                                  arrowprops=dict(style, shrinkB=4)))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_attention_pipeline.py zh
    draw(lang).savefig(f"fig_attention_pipeline.{lang}.svg")

"""The whole of attention for "The ball is blue", in one picture.

Top row: the input X and the three linear layers that turn it into Q, K and
V. Bottom row: the scaled scores Q·Kᵀ/√d_k, the softmax weights, and the
output Z = weights · V. The row of "blue" is outlined in every matrix: it is
the same word from the first step to the last.
"""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import ConnectionPatch
from matplotlib.transforms import offset_copy

from attention import scaled_dot_product_attention
from plotting import heatmap, ink
from running_example import D_K, DIMENSIONS, FEATURES, SOURCE_WORDS, VALUES, encoder_input, project


def draw():
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
    panels = [
        ("x", x, DIMENSIONS, "vector", "{:.1f}", "X"),
        ("q", q, FEATURES, "vector", "{:.0f}", "Q = X·W_Q"),
        ("k", k, FEATURES, "vector", "{:.0f}", "K = X·W_K"),
        ("v", v, VALUES, "vector", "{:.0f}", "V = X·W_V"),
        ("s", scores, SOURCE_WORDS, "score", "{:.2f}", f"scores = Q·Kᵀ/√{D_K}"),
        ("w", weights, SOURCE_WORDS, "weight", "{:.2f}", "weights = softmax"),
        ("z", z, VALUES, "vector", "{:.2f}", "Z = weights·V"),
    ]
    for name, matrix, col_labels, kind, fmt, title in panels:
        heatmap(axes[name], matrix, SOURCE_WORDS, col_labels, kind, fmt=fmt,
                highlight_rows=[blue], title=title)
        if col_labels is not SOURCE_WORDS:
            axes[name].tick_params(axis="x", labelrotation=90)

    # Arrows from each step to the next: sideways within a row (stopping
    # before the next panel's row labels), down from Q, K and V.
    def arrow(a, b, start, end, end_offset):
        end_transform = offset_copy(axes[b].transAxes, fig=fig, x=end_offset[0],
                                    y=end_offset[1], units="points")
        fig.add_artist(ConnectionPatch(
            xyA=start, coordsA="axes fraction", axesA=axes[a], xyB=end, coordsB=end_transform,
            arrowstyle="-|>", mutation_scale=14, color=ink(), linewidth=1.4, shrinkA=4))

    for a, b in [("x", "q"), ("s", "w"), ("w", "z")]:
        arrow(a, b, (1, 0.5), (0, 0.5), end_offset=(-36, 0))
    for a, b in [("q", "s"), ("k", "s"), ("v", "z")]:
        arrow(a, b, (0.5, 0), (0.5, 1), end_offset=(0, 40))
    return fig


if __name__ == "__main__":
    draw().savefig("fig_attention_pipeline.svg")

"""Encoder-decoder attention between sentences of different lengths.

"The ball is blue" (4 source words) translated as "La bola es de color azul"
(6 target words). Q has one row per target word, K one row per source word,
so the attention weights form a 6 x 4 matrix: target rows, source columns.
The row of "azul" is outlined.
"""

import matplotlib.pyplot as plt

from attention import scaled_dot_product_attention
from plotting import heatmap
from running_example import FEATURES, LONG_TARGET_WORDS, SOURCE_WORDS, cross_qkv


def draw():
    q, k, v = cross_qkv(LONG_TARGET_WORDS, SOURCE_WORDS)  # q (6, 4); k (4, 4); v (4, 3)
    _, weights = scaled_dot_product_attention(q, k, v)  # (6, 4)
    azul = LONG_TARGET_WORDS.index("azul")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.6), width_ratios=[3, 3, 4],
                             layout="constrained")
    heatmap(axes[0], q, LONG_TARGET_WORDS, FEATURES, "vector", fmt="{:.0f}", highlight_rows=[azul],
            title=f"Q, target {q.shape[0]}×{q.shape[1]}")
    heatmap(axes[1], k, SOURCE_WORDS, FEATURES, "vector", fmt="{:.0f}",
            title=f"K, source {k.shape[0]}×{k.shape[1]}")
    axes[1].set_ylim(len(LONG_TARGET_WORDS) - 0.5, -0.5)  # same cell size as the other panels
    heatmap(axes[2], weights, LONG_TARGET_WORDS, SOURCE_WORDS, "weight", highlight_rows=[azul],
            title=f"weights {weights.shape[0]}×{weights.shape[1]}")
    for ax in axes[:2]:
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_cross_attention_shapes.svg")

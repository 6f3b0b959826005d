"""Scaling and softmax work row by row: factors, then scores, then weights.

QKᵀ (the factor matrix) is divided by √d_k to give the attention scores,
and softmax turns each row of scores into attention weights that add up to
1. Every number stays in its row and column; the row of "blue" is outlined
at all three stages.
"""

import matplotlib.pyplot as plt
import numpy as np

from attention import softmax
from plotting import heatmap
from running_example import D_K, SOURCE_WORDS, source_qkv


def draw():
    q, k, _ = source_qkv()  # (n, d_k) each
    factors = q @ k.T  # (n, n)
    scores = factors / np.sqrt(D_K)  # (n, n)
    weights = softmax(scores, axis=-1)  # (n, n), each row sums to 1
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.1), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1, w_pad=0.2)
    stages = [(factors, "score", "factors: QKᵀ"), (scores, "score", f"scores: QKᵀ / √{D_K}"),
              (weights, "weight", "weights: softmax")]
    for ax, (matrix, kind, title) in zip(axes, stages):
        heatmap(ax, matrix, SOURCE_WORDS, SOURCE_WORDS, kind, highlight_rows=[blue],
                title=title)
    for left in axes[:2]:
        left.annotate("→", xy=(1.0, 0.5), xycoords="axes fraction", xytext=(14, 0),
                      textcoords="offset points", ha="center", va="center", fontsize=16)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_scale_softmax_stages.svg")

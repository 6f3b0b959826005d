"""Scaling and softmax work row by row: factors, then scores, then weights.

QKᵀ (the factor matrix) is divided by √d_k to give the attention scores,
and softmax turns each row of scores into attention weights that add up to
1. Every number stays in its row and column; the row of "blue" is outlined
at all three stages.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import softmax
from plotting import dot_products, heatmap, softmax_rows, use_language
from running_example import D_K, SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"factors": "factors: QKᵀ", "scores": "scores: QKᵀ / √{d_k}",
           "weights": "weights: softmax(scores)"},
    "zh": {"factors": "因子：QKᵀ", "scores": "分数：QKᵀ / √{d_k}",
           "weights": "权重：softmax(分数)"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, _ = source_qkv()  # (n, d_k) each
    factors = q @ k.T  # (n, n)
    scores = factors / np.sqrt(D_K)  # (n, n)
    weights = softmax(scores, axis=-1)  # (n, n), each row sums to 1
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.1), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1, w_pad=0.2)
    stages = [(factors, "score", text["factors"], dot_products(q, k)),
              (scores, "score", text["scores"].format(d_k=D_K), dot_products(q, k, d_k=D_K)),
              (weights, "weight", text["weights"], softmax_rows(scores))]
    for ax, (matrix, kind, title, computed) in zip(axes, stages):
        heatmap(ax, matrix, SOURCE_WORDS, SOURCE_WORDS, kind, highlight_rows=[blue],
                title=title, computed_as=computed)
    for left in axes[:2]:
        left.annotate("→", xy=(1.0, 0.5), xycoords="axes fraction", xytext=(14, 0),
                      textcoords="offset points", ha="center", va="center", fontsize=16)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_scale_softmax_stages.py zh
    draw(lang).savefig(f"fig_scale_softmax_stages.{lang}.svg")

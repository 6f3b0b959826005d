"""Encoder self-attention: every source word against every source word.

"The ball is blue" attends to itself. Left: the attention scores
QKᵀ/√d_k, one row per query word and one column per key word, both from the
source. Right: the attention weights after softmax; each row sums to 1. The
row of "blue" is outlined.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import scaled_dot_product_attention
from plotting import dot_products, heatmap, softmax_rows, use_language
from running_example import D_K, SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"scores": "scores QKᵀ/√d_k", "weights": "weights (softmax)",
           "query": "query (source)", "key": "key (source)"},
    "zh": {"scores": "分数 QKᵀ/√d_k", "weights": "权重（softmax）",
           "query": "查询词（源句）", "key": "键词（源句）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = source_qkv()  # (4, 4), (4, 4), (4, 3): all from the source
    scores = q @ k.T / np.sqrt(D_K)  # (n_source, n_source) = (4, 4)
    _, weights = scaled_dot_product_attention(q, k, v)  # (4, 4)
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.4), layout="constrained")
    heatmap(axes[0], scores, SOURCE_WORDS, SOURCE_WORDS, "score", highlight_rows=[blue],
            title=text["scores"], row_title=text["query"], col_title=text["key"],
            computed_as=dot_products(q, k, d_k=D_K))
    heatmap(axes[1], weights, SOURCE_WORDS, SOURCE_WORDS, "weight", highlight_rows=[blue],
            title=text["weights"], col_title=text["key"], computed_as=softmax_rows(scores))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_encoder_self_attention_scores.py zh
    draw(lang).savefig(f"fig_encoder_self_attention_scores.{lang}.svg")

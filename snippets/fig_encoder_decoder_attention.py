"""Encoder-decoder attention: target words ask, source words answer.

Queries come from the target "La bola es azul", keys from the source "The
ball is blue". Left: the attention scores QKᵀ/√d_k, one row per target word
and one column per source word. Right: the attention weights after softmax.
The row of "azul" is outlined; its largest weight falls on "blue".
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import scaled_dot_product_attention
from plotting import dot_products, heatmap, softmax_rows, use_language
from running_example import D_K, SOURCE_WORDS, TARGET_WORDS, cross_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"scores": "scores QKᵀ/√d_k", "weights": "weights (softmax)",
           "query": "query (target)", "key": "key (source)"},
    "zh": {"scores": "分数 QKᵀ/√d_k", "weights": "权重（softmax）",
           "query": "查询词（目标句）", "key": "键词（源句）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = cross_qkv(TARGET_WORDS, SOURCE_WORDS)  # q (4, 4) from the target; k (4, 4), v (4, 3) from the source
    scores = q @ k.T / np.sqrt(D_K)  # (n_target, n_source)
    _, weights = scaled_dot_product_attention(q, k, v)  # (n_target, n_source)
    azul = TARGET_WORDS.index("azul")

    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.4), layout="constrained")
    heatmap(axes[0], scores, TARGET_WORDS, SOURCE_WORDS, "score", highlight_rows=[azul],
            title=text["scores"], row_title=text["query"], col_title=text["key"],
            computed_as=dot_products(q, k, d_k=D_K))
    heatmap(axes[1], weights, TARGET_WORDS, SOURCE_WORDS, "weight", highlight_rows=[azul],
            title=text["weights"], col_title=text["key"], computed_as=softmax_rows(scores))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_encoder_decoder_attention.py zh
    draw(lang).savefig(f"fig_encoder_decoder_attention.{lang}.svg")

"""The look-ahead mask in decoder self-attention, before and after softmax.

"La bola es azul": each target word may attend to itself and to the words
before it. Left: the scores QKᵀ/√d_k with the look-ahead mask applied; the
cells above the diagonal (a key after its query) are set to -inf, drawn grey
and hatched. Right: the attention weights after softmax; the masked cells are
exactly 0 and each row still sums to 1. The row of "bola" is outlined.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import scaled_dot_product_attention
from plotting import dot_products, heatmap, softmax_rows, use_language
from running_example import D_K, TARGET_WORDS, target_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"scores": "masked scores", "weights": "weights (softmax)",
           "query": "query (target)", "key": "key (target)"},
    "zh": {"scores": "掩蔽后的分数", "weights": "权重（softmax）",
           "query": "查询词（目标句）", "key": "键词（目标句）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = target_qkv()  # (4, 4), (4, 4), (4, 3)
    n = len(TARGET_WORDS)
    mask = np.tril(np.ones((n, n), dtype=bool))  # True = may attend: key j <= query i
    scores = q @ k.T / np.sqrt(D_K)  # (4, 4), before masking
    _, weights = scaled_dot_product_attention(q, k, v, mask=mask)  # (4, 4), 0 above the diagonal
    bola = TARGET_WORDS.index("bola")

    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.4), layout="constrained")
    heatmap(axes[0], scores, TARGET_WORDS, TARGET_WORDS, "score", highlight_rows=[bola],
            title=text["scores"], row_title=text["query"], col_title=text["key"],
            mask=mask, masked_label="−∞", computed_as=dot_products(q, k, d_k=D_K))
    heatmap(axes[1], weights, TARGET_WORDS, TARGET_WORDS, "weight", highlight_rows=[bola],
            title=text["weights"], col_title=text["key"], mask=mask, masked_label="0",
            computed_as=softmax_rows(scores))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_look_ahead_mask.py zh
    draw(lang).savefig(f"fig_look_ahead_mask.{lang}.svg")

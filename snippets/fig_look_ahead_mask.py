"""The look-ahead mask in decoder self-attention, before and after softmax.

"La bola es azul": each target word may attend to itself and to the words
before it. Left: the scores QKᵀ/√d_k with the look-ahead mask applied; the
cells above the diagonal (a key after its query) are set to -inf, drawn grey
and hatched. Right: the attention weights after softmax; the masked cells are
exactly 0 and each row still sums to 1. The row of "bola" is outlined.
"""

import matplotlib.pyplot as plt
import numpy as np

from attention import scaled_dot_product_attention
from plotting import heatmap
from running_example import D_K, TARGET_WORDS, target_qkv


def draw():
    q, k, v = target_qkv()  # (4, 4), (4, 4), (4, 3)
    n = len(TARGET_WORDS)
    mask = np.tril(np.ones((n, n), dtype=bool))  # True = may attend: key j <= query i
    scores = q @ k.T / np.sqrt(D_K)  # (4, 4), before masking
    _, weights = scaled_dot_product_attention(q, k, v, mask=mask)  # (4, 4), 0 above the diagonal
    bola = TARGET_WORDS.index("bola")

    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.4), layout="constrained")
    heatmap(axes[0], scores, TARGET_WORDS, TARGET_WORDS, "score", highlight_rows=[bola],
            title="masked scores", row_title="query (target)", col_title="key (target)",
            mask=mask, masked_label="−∞")
    heatmap(axes[1], weights, TARGET_WORDS, TARGET_WORDS, "weight", highlight_rows=[bola],
            title="weights (softmax)", col_title="key (target)", mask=mask, masked_label="0")
    return fig


if __name__ == "__main__":
    draw().savefig("fig_look_ahead_mask.svg")

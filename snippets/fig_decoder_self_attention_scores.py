"""Decoder self-attention: every target word against every target word.

"La bola es azul" attends to itself: the attention scores QKᵀ/√d_k, one
row per query word and one column per key word, both from the target. The
cells above the diagonal are outlined: there a word is scored against a word
that comes after it in the sentence.
"""

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap
from running_example import D_K, TARGET_WORDS, target_qkv


def draw():
    q, k, _ = target_qkv()  # each (4, 4): queries and keys both from the target
    scores = q @ k.T / np.sqrt(D_K)  # (n_target, n_target) = (4, 4)
    n = len(TARGET_WORDS)
    later = [(i, j) for i in range(n) for j in range(n) if j > i]  # key after query

    fig, ax = plt.subplots(figsize=(4.2, 3.6), layout="constrained")
    heatmap(ax, scores, TARGET_WORDS, TARGET_WORDS, "score", highlight_cells=later,
            title="scores QKᵀ/√d_k", row_title="query (target)", col_title="key (target)")
    return fig


if __name__ == "__main__":
    draw().savefig("fig_decoder_self_attention_scores.svg")

"""Decoder self-attention: every target word against every target word.

"La bola es azul" attends to itself: the attention scores QKᵀ/√d_k, one
row per query word and one column per key word, both from the target. The
cells above the diagonal are outlined: there a word is scored against a word
that comes after it in the sentence.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import dot_products, heatmap, use_language
from running_example import D_K, TARGET_WORDS, target_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"scores": "scores QKᵀ/√d_k", "query": "query (target)", "key": "key (target)"},
    "zh": {"scores": "分数 QKᵀ/√d_k", "query": "查询词（目标句）", "key": "键词（目标句）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, _ = target_qkv()  # each (4, 4): queries and keys both from the target
    scores = q @ k.T / np.sqrt(D_K)  # (n_target, n_target) = (4, 4)
    n = len(TARGET_WORDS)
    later = [(i, j) for i in range(n) for j in range(n) if j > i]  # key after query

    fig, ax = plt.subplots(figsize=(4.2, 3.6), layout="constrained")
    heatmap(ax, scores, TARGET_WORDS, TARGET_WORDS, "score", highlight_cells=later,
            title=text["scores"], row_title=text["query"], col_title=text["key"],
            computed_as=dot_products(q, k, d_k=D_K))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_decoder_self_attention_scores.py zh
    draw(lang).savefig(f"fig_decoder_self_attention_scores.{lang}.svg")

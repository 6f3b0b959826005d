"""The roles on the row of "blue": one query word, four key/value words.

Left: "blue" is the query, the word attention is computed for; every word of
the sentence, "blue" included, is a key and value, a word it attends to. Each
line is as thick as blue's attention weight for that word. Right: the same
four weights are row "blue" of the attention-weight matrix; rows are queries, columns
are keys.
"""

import sys

import matplotlib.pyplot as plt

from attention import scaled_dot_product_attention
from plotting import HIGHLIGHT, heatmap, ink, softmax_rows, use_language
from running_example import SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"query": "query: the word attention is computed for",
           "keys": "keys and values: the words it attends to (weight below)",
           "rows": "query word", "columns": "key / value word", "matrix": "attention weights"},
    "zh": {"query": "查询词：注意力是为它计算的",
           "keys": "键词（也提供值）：它关注的词（下方是权重）",
           "rows": "查询词", "columns": "键词（也提供值）", "matrix": "注意力权重"},
}


LINE_WIDTH = 10  # points for a weight of 1: a line's width is proportional to its weight


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = source_qkv()  # (n, d_k), (n, d_k), (n, d_v)
    _, weights = scaled_dot_product_attention(q, k, v)  # (n, n)
    blue = SOURCE_WORDS.index("blue")
    n = len(SOURCE_WORDS)

    fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 3.6), width_ratios=[1.25, 1],
                                      layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1, w_pad=0.2)

    # Left: the query word above, the key/value words below, one line per pair.
    left.set_xlim(-0.6, n - 0.4)
    left.set_ylim(-0.55, 1.45)
    left.set_axis_off()
    box = dict(boxstyle="round,pad=0.35", facecolor="none", edgecolor=ink())
    top = (n - 1) / 2, 1.0
    for j, (word, weight) in enumerate(zip(SOURCE_WORDS, weights[blue])):
        left.plot([top[0], j], [top[1] - 0.1, 0.1], color=ink(),
                  linewidth=LINE_WIDTH * weight, solid_capstyle="round")  # 0 draws nothing
        left.text(j, 0.0, word, ha="center", va="center", fontsize=11, bbox=box)
        left.text(j, -0.32, f"{weight:.2f}", ha="center", va="center", fontsize=10)
    left.text(*top, "blue", ha="center", va="center", fontsize=12, weight="bold",
              bbox=dict(box, edgecolor=HIGHLIGHT, linewidth=2.5))
    left.text(top[0], 1.33, text["query"],
              ha="center", va="center", fontsize=10)
    left.text(top[0], -0.52, text["keys"],
              ha="center", va="center", fontsize=10)

    # Right: the same weights as row "blue" of the weight matrix.
    heatmap(right, weights, SOURCE_WORDS, SOURCE_WORDS, "weight", highlight_rows=[blue],
            row_title=text["rows"], col_title=text["columns"], name=text["matrix"],
            computed_as=softmax_rows(q @ k.T, d_k=k.shape[1]))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_query_row_roles.py zh
    draw(lang).savefig(f"fig_query_row_roles.{lang}.svg")

"""The output row of "blue" is a weighted sum of the Value rows of all words.

Left, as the article computes it at this step: each Value row v_j is scaled
by blue's factor q_blue · k_j (a cell of QKᵀ) and the scaled rows are added.
Right, as attention really does it: the same sum with blue's attention
weights, softmax(q_blue · k_j / √d_k), which are positive and add up to 1.
Numbers are rounded to two decimals, so a column of scaled rows may add up
to the sum below it only within 0.01 or 0.02.

The figure fits a page's text column (about 690 CSS px on a desktop) with its
smallest text 9 px tall: the row names, which carry subscripts, are set at
13 pt, since matplotlib draws a subscript at 70 % of its text.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import scaled_dot_product_attention
from plotting import dot_products, heatmap, products, softmax_rows, use_language, weighted_sums
from running_example import D_K, SOURCE_WORDS, VALUES, source_qkv

SUBSCRIPTED = 13  # pt: text with subscripts (drawn at 70 %, 9.1 pt)

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"factors": "blue's factors", "weights": "blue's weights",
           "factors_sum": "= blue's row of (QKᵀ)V", "weights_sum": "= blue's attention output",
           "scaled": "each Value row, scaled", "scaled_by": "{}: each Value row, scaled", "sum": "sum",
           "values": VALUES},
    "zh": {"factors": "blue 的因子", "weights": "blue 的注意力权重",
           "factors_sum": "= (QKᵀ)V 中 blue 那一行", "weights_sum": "= blue 的注意力输出",
           "scaled": "各个值向量乘上各自的系数", "scaled_by": "{}：各个值向量乘上各自的系数", "sum": "和",
           "values": ["事物", "颜色", "功能词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = source_qkv()  # (n, d_k), (n, d_k), (n, d_v)
    _, weights = scaled_dot_product_attention(q, k, v)  # weights (n, n)
    blue = SOURCE_WORDS.index("blue")
    cases = [((q @ k.T)[blue], "score", text["factors"], text["factors_sum"],
              dot_products(q[[blue]], k), "f"),
             (weights[blue], "weight", text["weights"], text["weights_sum"],
              softmax_rows((q @ k.T)[[blue]], d_k=D_K), "w")]

    fig, axes = plt.subplots(3, 2, figsize=(8.0, 5.6), height_ratios=[1, 4, 1],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.12, w_pad=0.3)
    for col, (row, kind, title, result, computed, name) in enumerate(cases):
        scaled = row[:, None] * v  # (n, d_v): row j is v_j times blue's factor for j
        heatmap(axes[0, col], row[None], ["blue"], SOURCE_WORDS, kind,
                highlight_rows=[0], title=title, computed_as=computed)
        labels = [f"${f:.2f} \\times v_\\mathrm{{{word}}}$" for f, word in zip(row, SOURCE_WORDS)]
        heatmap(axes[1, col], scaled, labels, text["values"], "vector", name=text["scaled_by"].format(title),
                computed_as=products(np.broadcast_to(row[:, None], v.shape), v, names=(name, "v")))
        axes[1, col].tick_params(axis="y", labelsize=SUBSCRIPTED)
        heatmap(axes[2, col], scaled.sum(axis=0)[None], [text["sum"]], [], "vector",
                highlight_rows=[0], title=result,
                computed_as=weighted_sums(row[None], v, SOURCE_WORDS, names=(name, "v")))
        axes[1, col].set_title(text["scaled"], pad=22)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_weighted_sum_blue.py zh
    draw(lang).savefig(f"fig_weighted_sum_blue.{lang}.svg")

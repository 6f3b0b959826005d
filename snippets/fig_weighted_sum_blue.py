"""The output row of "blue" is a weighted sum of the Value rows of all words.

Left, as the article computes it at this step: each Value row v_j is scaled
by blue's factor q_blue · k_j (a cell of QKᵀ) and the scaled rows are added.
Right, as attention really does it: the same sum with blue's attention
weights, softmax(q_blue · k_j / √d_k), which are positive and add up to 1.
Numbers are rounded to two decimals, so a column of scaled rows may add up
to the sum below it only within 0.01 or 0.02.
"""

import matplotlib.pyplot as plt

from attention import scaled_dot_product_attention
from plotting import heatmap
from running_example import SOURCE_WORDS, VALUES, source_qkv


def draw():
    q, k, v = source_qkv()  # (n, d_k), (n, d_k), (n, d_v)
    _, weights = scaled_dot_product_attention(q, k, v)  # weights (n, n)
    blue = SOURCE_WORDS.index("blue")
    cases = [("factors", (q @ k.T)[blue], "score", "blue's row of (QKᵀ)V"),
             ("weights", weights[blue], "weight", "blue's attention output")]

    fig, axes = plt.subplots(3, 2, figsize=(8.5, 5.6), height_ratios=[1, 4, 1],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.12, w_pad=0.3)
    for col, (name, row, kind, result) in enumerate(cases):
        scaled = row[:, None] * v  # (n, d_v): row j is v_j times blue's factor for j
        heatmap(axes[0, col], row[None], ["blue"], SOURCE_WORDS, kind,
                highlight_rows=[0], title=f"blue's {name}")
        labels = [f"${f:.2f} \\times v_\\mathrm{{{word}}}$" for f, word in zip(row, SOURCE_WORDS)]
        heatmap(axes[1, col], scaled.round(2) + 0.0, labels, VALUES, "vector")  # + 0.0: no "-0.00"
        heatmap(axes[2, col], scaled.sum(axis=0)[None], ["sum"], [], "vector",
                highlight_rows=[0], title=f"= {result}")
        axes[1, col].set_title("each Value row, scaled", pad=22)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_weighted_sum_blue.svg")

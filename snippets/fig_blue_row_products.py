"""Why each key gets the factor it gets: the row of "blue", product by product.

Top: Kᵀ, one column per key word. Left: the query of "blue", one number per
component. Middle: every component of q_blue times the same component of
each key; a column's products add up to that key's factor, shown below as
the row of "blue" in Q·Kᵀ. "The" and "is" are nonzero only where the query
is negative, "ball" agrees where the query is largest.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import dot_products, heatmap, products as cell_products, use_language
from running_example import FEATURES, SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"kt": "Kᵀ: one column per key (is a …)", "wants": "wants a …",
           "products": "q_blue × k, component by component",
           "row": "column sums = row of blue in Q·Kᵀ", "features": FEATURES},
    "zh": {"kt": "Kᵀ：每个键词一列（是……）", "wants": "想要……",
           "products": "q_blue × k，逐个分量相乘",
           "row": "各列之和 = Q·Kᵀ 中 blue 那一行", "features": ["事物", "颜色", "冠词", "动词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, _ = source_qkv()  # each (n, d_k) = (4, 4)
    blue, ball = SOURCE_WORDS.index("blue"), SOURCE_WORDS.index("ball")
    products = q[blue][:, None] * k.T  # (d_k, n): component m of q_blue times k_j
    row = products.sum(axis=0)  # (n,) = (q @ k.T)[blue]

    fig, axes = plt.subplot_mosaic([[".", "kt"], ["q", "products"], [".", "row"]],
                                   figsize=(6, 6.4), width_ratios=[1, 4],
                                   height_ratios=[4, 4, 1], layout="constrained")
    dims = text["features"]
    heatmap(axes["kt"], k.T, dims, SOURCE_WORDS, "vector", fmt="{:.0f}",
            title=text["kt"])
    heatmap(axes["q"], q[blue][:, None], dims, ["q_blue"], "vector", fmt="{:.0f}",
            row_title=text["wants"])
    heatmap(axes["products"], products, dims, [""] * len(SOURCE_WORDS), "score", fmt="{:.0f}",
            title=text["products"],
            highlight_cells=[(m, ball) for m in range(len(FEATURES))],
            computed_as=cell_products(np.broadcast_to(q[blue][:, None], k.T.shape), k.T,
                                      names=("q_blue", "k")))
    heatmap(axes["row"], row[None], ["blue"], [""] * len(SOURCE_WORDS), "score", fmt="{:.0f}",
            highlight_cells=[(0, ball)], title=text["row"], computed_as=dot_products(q[[blue]], k))
    axes["q"].set_anchor("E")  # next to the products it multiplies

    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_blue_row_products.py zh
    draw(lang).savefig(f"fig_blue_row_products.{lang}.svg")

"""One cell of QKᵀ worked out by hand: q_blue · k_ball.

Multiply the query row of "blue" and the key row of "ball" component by
component, then add the four products: the sum is cell (blue, ball) of the
factor matrix, outlined in blue's row on the right.
"""

import sys

import matplotlib.pyplot as plt

from plotting import dot_products, heatmap, products as cell_products, use_language
from running_example import FEATURES, SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"product": "product", "sum": "sum", "row": "row of blue in QKᵀ",
           "by_component": "component by component", "add": "→ add →", "features": FEATURES},
    "zh": {"product": "乘积", "sum": "和", "row": "QKᵀ 中 blue 那一行",
           "by_component": "逐个分量相乘", "add": "→ 相加 →",
           "features": ["事物", "颜色", "冠词", "动词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, _ = source_qkv()  # (n, d_k) each
    blue, ball = SOURCE_WORDS.index("blue"), SOURCE_WORDS.index("ball")
    products = q[blue] * k[ball]  # (d_k,): one term of the dot product per dimension
    total = products.sum()  # = (q @ k.T)[blue, ball]
    blue_row = (q @ k.T)[blue]  # (n,): blue's query against every key
    dims = text["features"]

    fig, axes = plt.subplots(3, 3, figsize=(8.5, 3.5), width_ratios=[3, 1, 4],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.08, w_pad=0.2)
    for ax in axes[:2, 1:].flat:
        ax.set_axis_off()
    heatmap(axes[0, 0], q[[blue]], ["$q_\\mathrm{blue}$"], dims, "vector", fmt="{:.0f}")
    heatmap(axes[1, 0], k[[ball]], ["$k_\\mathrm{ball}$"], [], "vector", fmt="{:.0f}")
    heatmap(axes[2, 0], products[None], [text["product"]], [], "score", fmt="{:.0f}",
            computed_as=cell_products(q[[blue]], k[[ball]], names=("q_blue", "k_ball")))
    heatmap(axes[2, 1], [[total]], [""], [text["sum"]], "score", fmt="{:.0f}",
            highlight_cells=[(0, 0)], computed_as=dot_products(q[[blue]], k[[ball]]))
    heatmap(axes[2, 2], blue_row[None], ["blue"], SOURCE_WORDS, "score", fmt="{:.0f}",
            highlight_cells=[(0, ball)], title=text["row"], computed_as=dot_products(q[[blue]], k))
    axes[0, 0].tick_params(axis="x", labelrotation=90)
    axes[0, 0].set_title(text["by_component"])

    ink_text = dict(ha="center", va="center", fontsize=15, xycoords="axes fraction",
                    textcoords="offset points")
    axes[1, 0].annotate("×", xy=(0.5, 1.0), xytext=(0, 9), **ink_text)
    axes[2, 0].annotate("=", xy=(0.5, 1.0), xytext=(0, 9), **ink_text)
    axes[2, 0].annotate(text["add"], xy=(1.0, 0.5), xytext=(26, 0), **dict(ink_text, fontsize=10))
    axes[2, 1].annotate("→", xy=(1.0, 0.5), xytext=(16, 0), **ink_text)

    terms = " + ".join(f"({a:g})({b:g})" for a, b in zip(q[blue], k[ball])).replace("-", "−")
    sums = " + ".join(f"{p + 0:g}" for p in products).replace("+ -", "− ").replace("-", "−")
    total_text = f"{total + 0:g}".replace("-", "−")
    axes[1, 2].text(0.5, 0.6, f"$q_\\mathrm{{blue}} \\cdot k_\\mathrm{{ball}}$ = {terms}\n"
                    f"= {sums}\n= {total_text}", ha="center", va="center", fontsize=11,
                    linespacing=1.6, transform=axes[1, 2].transAxes)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_score_cell_by_hand.py zh
    draw(lang).savefig(f"fig_score_cell_by_hand.{lang}.svg")

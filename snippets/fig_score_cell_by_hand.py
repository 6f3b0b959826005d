"""One cell of QKᵀ worked out by hand: q_blue · k_ball.

Multiply the query row of "blue" and the key row of "ball" component by
component, then add the four products: the sum is cell (blue, ball) of the
factor matrix, outlined in blue's row on the right.

The figure fits a page's text column (about 690 CSS px on a desktop) with its
smallest text 9 px tall: the names with subscripts are set at 13 pt, since
matplotlib draws a subscript at 70 % of its text.
"""

import sys

import matplotlib.pyplot as plt

from plotting import dot_products, heatmap, products as cell_products, use_language
from running_example import FEATURES, SOURCE_WORDS, source_qkv

SUBSCRIPTED = 13  # pt: text with subscripts (drawn at 70 %, 9.1 pt)

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"product": "product", "sum": "sum", "row": "row of blue in QKᵀ",
           "by_component": "component by component", "add": "→ add →", "features": FEATURES,
           "products": "q_blue × k_ball, component by component", "dot": "q_blue · k_ball"},
    "zh": {"product": "乘积", "sum": "和", "row": "QKᵀ 中 blue 那一行",
           "by_component": "逐个分量相乘", "add": "→ 相加 →",
           "features": ["事物", "颜色", "冠词", "动词"],
           "products": "q_blue 与 k_ball 逐个分量的乘积", "dot": "q_blue · k_ball"},
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

    # Left, top to bottom: q_blue × k_ball = the products; then their sum, then blue's row.
    # Below: the same sum written out.
    fig, axes = plt.subplot_mosaic([["q", ".", "."], ["k", ".", "."], ["p", "sum", "row"],
                                    ["terms", "terms", "terms"]], figsize=(7.5, 3.9),
                                   width_ratios=[4, 1, 4], height_ratios=[1, 1, 1, 0.5],
                                   layout="constrained")
    fig.get_layout_engine().set(h_pad=0.06, w_pad=0.2)
    # Each grid is named for the tables of its numbers; the columns under q_blue's are its components too.
    heatmap(axes["q"], q[[blue]], ["$q_\\mathrm{blue}$"], dims, "vector", fmt="{:.0f}", name="q_blue")
    heatmap(axes["k"], k[[ball]], ["$k_\\mathrm{ball}$"], dims, "vector", fmt="{:.0f}", name="k_ball")
    for ax in (axes["q"], axes["k"]):
        ax.tick_params(axis="y", labelsize=SUBSCRIPTED)
    heatmap(axes["p"], products[None], [text["product"]], dims, "score", fmt="{:.0f}", name=text["products"],
            computed_as=cell_products(q[[blue]], k[[ball]], names=("q_blue", "k_ball")))
    for ax in (axes["k"], axes["p"]):
        ax.tick_params(axis="x", labeltop=False)  # drawn once, above q_blue
    heatmap(axes["sum"], [[total]], [""], [text["sum"]], "score", fmt="{:.0f}", name=text["dot"],
            highlight_cells=[(0, 0)], computed_as=dot_products(q[[blue]], k[[ball]]))
    heatmap(axes["row"], blue_row[None], ["blue"], SOURCE_WORDS, "score", fmt="{:.0f}",
            highlight_cells=[(0, ball)], title=text["row"], computed_as=dot_products(q[[blue]], k))
    if lang == "en":  # "article" is wider than a cell; two Chinese characters are not
        axes["q"].tick_params(axis="x", labelrotation=90)
    axes["q"].set_title(text["by_component"])

    ink_text = dict(ha="center", va="center", fontsize=15, xycoords="axes fraction",
                    textcoords="offset points")
    axes["k"].annotate("×", xy=(0.5, 1.0), xytext=(0, 9), **ink_text)
    axes["p"].annotate("=", xy=(0.5, 1.0), xytext=(0, 9), **ink_text)
    axes["p"].annotate(text["add"], xy=(1.0, 0.5), xytext=(26, 0), **dict(ink_text, fontsize=10))
    axes["sum"].annotate("→", xy=(1.0, 0.5), xytext=(16, 0), **ink_text)

    terms = " + ".join(f"({a:g})({b:g})" for a, b in zip(q[blue], k[ball])).replace("-", "−")
    sums = " + ".join(f"{p + 0:g}" for p in products).replace("+ -", "− ").replace("-", "−")
    total_text = f"{total + 0:g}".replace("-", "−")
    axes["terms"].set_axis_off()
    axes["terms"].text(0.5, 0.5, f"$q_\\mathrm{{blue}} \\cdot k_\\mathrm{{ball}}$ = {terms} = {sums} = {total_text}",
                       ha="center", va="center", fontsize=SUBSCRIPTED, transform=axes["terms"].transAxes)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_score_cell_by_hand.py zh
    draw(lang).savefig(f"fig_score_cell_by_hand.{lang}.svg")

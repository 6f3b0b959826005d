"""One real score, explained: q·k of "milk" and "drank" in one head of all-MiniLM-L6-v2.

The head is the one whose row of "milk" puts the most weight on "drank"
(`minilm_heads.strongest_head`). Top: the row of "milk" in that head as
scaled scores q_milk·k / √32, one per key token, the cell of "drank"
outlined. Bottom: the 32 products q_milk[m]·k_drank[m] whose sum is that
score before the division, largest first (numbered by rank, not by component:
a rotation of the head changes which component is which and no score); the
line is their running sum, which ends at the score. No few products carry it:
the largest gives about a quarter, and it takes ten to reach the score. Every
label is at least 10 pt, so the figure fits a desktop's text column.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

import minilm
from minilm_heads import DRANK, MILK, SENTENCE, score_products, strongest_head
from plotting import HIGHLIGHT, SCALES, dot_products, heatmap, ink, use_language

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"title": "layer {layer}, head {head}: scores in the row of milk", "key": "key token",
           "products": "product q_milk[m] × k_drank[m]", "running": "running sum",
           "rank": "rank of the product, largest first (of 32)", "score": "sum = q_milk · k_drank = {total:.2f}"},
    "zh": {"title": "第 {layer} 层，头 {head}：milk 那一行的分数", "key": "键词元",
           "products": "乘积 q_milk[m] × k_drank[m]", "running": "累加和",
           "rank": "乘积的名次，从大到小（共 32 个）", "score": "总和 = q_milk · k_drank = {total:.2f}"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    layer, head = strongest_head(MILK, DRANK)
    tokens, inputs, _, _ = minilm.run(SENTENCE)
    q, k = minilm.queries_and_keys(inputs[layer], layer)  # (heads, n, d_head) each
    q_milk, keys = q[head, MILK][None], k[head]  # (1, d_head), (n, d_head)
    products = score_products(layer, head, MILK, DRANK)  # (d_head,)
    order = np.argsort(-products)  # largest first
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.6, 5.2), height_ratios=[1, 3.2],
                                      layout="constrained")
    heatmap(top, q_milk @ keys.T / np.sqrt(minilm.D_HEAD), ["milk"], tokens, "score",
            highlight_cells=[(0, DRANK)], title=text["title"].format(layer=layer, head=head),
            col_title=text["key"], computed_as=dot_products(q_milk, keys, d_k=minilm.D_HEAD))
    cmap, scale = plt.get_cmap(SCALES["score"]["cmap"]), SCALES["score"]["vmax"]
    x = np.arange(len(products))
    bottom.bar(x, products[order], color=[cmap(0.5 + 0.5 * np.clip(p / scale, -1, 1)) for p in products[order]],
               edgecolor=ink(), linewidth=0.5)
    bottom.plot(x, np.cumsum(products[order]), color=HIGHLIGHT, linewidth=2, marker="o", markersize=3)
    bottom.text(x[-1], products.sum(), text["score"].format(total=products.sum()) + "  ",
                ha="right", va="bottom")
    bottom.text(x[1] + 0.6, np.cumsum(products[order])[1], text["running"], color=ink(), va="bottom")
    bottom.axhline(0, color=ink(), linewidth=0.8)
    ranks = [1, 10, 20, len(products)]  # which component is which does not matter: they have no names
    bottom.set_xticks([r - 1 for r in ranks], labels=[str(r) for r in ranks])
    bottom.set_xlabel(text["rank"])
    bottom.set_ylabel(text["products"])
    bottom.spines[["top", "right"]].set_visible(False)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_score_products.py zh
    draw(lang).savefig(f"fig_minilm_score_products.{lang}.svg")

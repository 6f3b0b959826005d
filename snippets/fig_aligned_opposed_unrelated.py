"""Aligned, opposed and unrelated vectors: where a dot product gets its sign.

One query q against three keys. For each pair, the bars are the products of
matching components and the outlined bar is their sum (the dot product).
Signs that agree give positive products, signs that disagree negative ones,
and the biggest components give the biggest bars. The bottom row puts the
three sums side by side as the query's row of scores.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Normalize

from plotting import SCALES, dot_products, explorable, heatmap, ink, use_language

Q = np.array([2.0, -1.0, 1.0])
KEYS = {
    "aligned": np.array([1.5, -1.0, 0.5]),  # same signs as q
    "opposed": np.array([-1.5, 1.0, -0.5]),  # every sign flipped
    "unrelated": np.array([1.0, 1.0, -1.0]),  # signs agree only once
}

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"aligned": "aligned", "opposed": "opposed", "unrelated": "unrelated",
           "sum": "sum", "product": "product", "sums": "the sums: q · k"},
    "zh": {"aligned": "对齐", "opposed": "相反", "unrelated": "无关",
           "sum": "和", "product": "乘积", "sums": "三个和：q · k"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    names = list(KEYS)
    products = {name: Q * k for name, k in KEYS.items()}  # each (d_k,) = (3,)
    sums = np.array([[Q @ KEYS[name] for name in names]])  # (1 query, 3 keys)
    dims = [str(i + 1) for i in range(len(Q))]
    scale = SCALES["score"]
    colour = plt.get_cmap(scale["cmap"])
    norm = Normalize(scale["vmin"], scale["vmax"])

    fig, axes = plt.subplot_mosaic([names, [f"{n} bars" for n in names], ["scores"] * 3],
                                   figsize=(8.5, 6.2), height_ratios=[2, 3.2, 1.4],
                                   layout="constrained")
    for name in names:
        heatmap(axes[name], np.stack([Q, KEYS[name]]), ["q", "k"], dims, "vector",
                fmt="{:.1f}", title=text[name])

        ax = axes[f"{name} bars"]
        values = [*products[name], products[name].sum()]
        bars = ax.bar(range(4), values, color=colour(norm(np.array(values))),
                      edgecolor=ink(), linewidth=[0.6, 0.6, 0.6, 2])
        ax.bar_label(bars, fmt=lambda value: f"{value + 0.0:.1f}".replace("-", "−"), padding=2)
        ax.axhline(0, color=ink(), linewidth=0.8)
        ax.axvline(2.5, color=ink(), linewidth=0.8, linestyle=":")
        ax.set_xticks(range(4), labels=["q₁k₁", "q₂k₂", "q₃k₃", text["sum"]])
        ax.set_ylim(-6, 6)
        ax.spines[["top", "right", "bottom"]].set_visible(False)
        ax.tick_params(axis="x", length=0)
    axes[f"{names[0]} bars"].set_ylabel(text["product"])

    heatmap(axes["scores"], sums, ["q"], [text[name] for name in names], "score",
            title=text["sums"], highlight_cells=[(0, 0)],
            computed_as=dot_products(Q[None], np.stack([KEYS[name] for name in names])))
    # On the page, under the figure: turn the aligned key against q, to explore.
    explorable(fig, "turn-key", query=Q, key=KEYS["aligned"])
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_aligned_opposed_unrelated.py zh
    draw(lang).savefig(f"fig_aligned_opposed_unrelated.{lang}.svg")

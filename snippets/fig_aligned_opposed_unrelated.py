"""Aligned, opposed and unrelated vectors: where a dot product gets its sign.

One query q against three keys. For each pair, the bars are the products of
matching components and the outlined bar is their sum (the dot product).
Signs that agree give positive products, signs that disagree negative ones,
and the biggest components give the biggest bars. The bottom row puts the
three sums side by side as the query's row of scores.
"""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Normalize

from plotting import SCALES, heatmap, ink

Q = np.array([2.0, -1.0, 1.0])
KEYS = {
    "aligned": np.array([1.5, -1.0, 0.5]),  # same signs as q
    "opposed": np.array([-1.5, 1.0, -0.5]),  # every sign flipped
    "unrelated": np.array([1.0, 1.0, -1.0]),  # signs agree only once
}


def draw():
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
                fmt="{:.1f}", title=name)

        ax = axes[f"{name} bars"]
        values = [*products[name], products[name].sum()]
        bars = ax.bar(range(4), values, color=colour(norm(np.array(values))),
                      edgecolor=ink(), linewidth=[0.6, 0.6, 0.6, 2])
        ax.bar_label(bars, fmt="{:.1f}", padding=2)
        ax.axhline(0, color=ink(), linewidth=0.8)
        ax.axvline(2.5, color=ink(), linewidth=0.8, linestyle=":")
        ax.set_xticks(range(4), labels=["q₁k₁", "q₂k₂", "q₃k₃", "sum"])
        ax.set_ylim(-6, 6)
        ax.spines[["top", "right", "bottom"]].set_visible(False)
        ax.tick_params(axis="x", length=0)
    axes[f"{names[0]} bars"].set_ylabel("product")

    heatmap(axes["scores"], sums, ["q"], names, "score", title="the sums: q · k",
            highlight_cells=[(0, 0)])
    return fig


if __name__ == "__main__":
    draw().savefig("fig_aligned_opposed_unrelated.svg")

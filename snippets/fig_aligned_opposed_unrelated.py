"""Aligned, opposed and unrelated vectors: arrows, and where a dot product gets its sign.

One query q against three keys, one key per row. Left: the query and the key as
arrows, drawn in the flat plane the two vectors span (any two vectors lie in one),
so their lengths and the angle between them are true. Right: the products of
matching components as bars, and their sum (the outlined bar), which is the dot
product. Signs that agree give positive products, signs that disagree negative
ones, and the biggest components give the biggest bars. The bottom row puts the
three sums side by side as the query's row of dot products.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Normalize
from matplotlib.patches import Arc, FancyArrowPatch, Rectangle

from plotting import HIGHLIGHT, SCALES, dot_products, explorable, heatmap, ink, use_language

Q = np.array([2.0, -1.0, 1.0])
KEYS = {
    "aligned": np.array([1.5, -1.0, 0.5]),  # same signs as q
    "opposed": np.array([-1.5, 1.0, -0.5]),  # every sign flipped
    "unrelated": np.array([1.0, 1.0, -1.0]),  # signs agree only once
}

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"aligned": "aligned", "opposed": "opposed", "unrelated": "unrelated",
           "sum": "sum", "sums": "the sums: q · k"},
    "zh": {"aligned": "对齐", "opposed": "相反", "unrelated": "无关",
           "sum": "和", "sums": "三个和：q · k"},
}


def angle_degrees(q, k):
    """The angle between two vectors, in degrees, from their dot product: cos θ = q·k / (|q| |k|)."""
    cosine = q @ k / (np.linalg.norm(q) * np.linalg.norm(k))
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))


def in_their_plane(q, k):
    """q and k as 2-D arrows in the plane they span: q along the x-axis, k at its true angle above it."""
    theta = np.radians(angle_degrees(q, k))
    return (np.array([np.linalg.norm(q), 0.0]),
            np.linalg.norm(k) * np.array([np.cos(theta), np.sin(theta)]))


def fmt(x):
    """A number as the page prints it, with the minus sign "−"."""
    return f"{x + 0.0:g}".replace("-", "−")


def draw_arrows(ax, q, k, title):
    q2, k2 = in_their_plane(q, k)
    degrees = angle_degrees(q, k)
    for tip, colour in [(q2, ink()), (k2, HIGHLIGHT)]:
        ax.add_patch(FancyArrowPatch((0, 0), tuple(tip), arrowstyle="-|>", mutation_scale=14,
                                     color=colour, linewidth=2.2, shrinkA=0, shrinkB=0))
    ax.text(q2[0] + 0.12, q2[1], "q", va="center", ha="left", style="italic")
    k_unit = k2 / np.linalg.norm(k2)
    ax.text(*(k2 + 0.22 * k_unit), "k", va="center", ha="center", style="italic")
    if abs(degrees - 90) < 1e-9:  # a right angle: the usual little square
        ax.add_patch(Rectangle((0, 0), 0.28, 0.28, fill=False, edgecolor=ink(), linewidth=0.8))
    else:
        ax.add_patch(Arc((0, 0), 1.1, 1.1, theta1=0, theta2=degrees, color=ink(), linewidth=0.8))
    # The angle's label: inside the wedge, or just above the key where the wedge is too thin.
    at = np.radians(degrees / 2 if degrees > 45 else degrees + 30)
    ax.text(0.85 * np.cos(at), 0.85 * np.sin(at), f"{degrees:.0f}°", ha="left", va="bottom")
    ax.set_title(title, loc="left")
    ax.set_xlim(-2.3, 3.0)
    ax.set_ylim(-0.35, 2.1)
    ax.set_aspect("equal")
    ax.axis("off")


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    names = list(KEYS)
    products = {name: Q * k for name, k in KEYS.items()}  # each (d_k,) = (3,)
    sums = np.array([[Q @ KEYS[name] for name in names]])  # (1 query, 3 keys)
    scale = SCALES["score"]
    colour = plt.get_cmap(scale["cmap"])
    norm = Normalize(scale["vmin"], scale["vmax"])

    mosaic = [[f"{n} arrows", f"{n} bars"] for n in names] + [["scores", "scores"]]
    fig, axes = plt.subplot_mosaic(mosaic, figsize=(4.9, 6.6), height_ratios=[1, 1, 1, 0.55],
                                   width_ratios=[1.2, 1], layout="constrained")
    fig.suptitle(f"q = ({', '.join(fmt(x) for x in Q)})")
    for name in names:
        draw_arrows(axes[f"{name} arrows"], Q, KEYS[name], text[name])

        ax = axes[f"{name} bars"]
        values = [*products[name], products[name].sum()]
        bars = ax.bar(range(4), values, color=colour(norm(np.array(values))),
                      edgecolor=ink(), linewidth=[0.6, 0.6, 0.6, 2])
        ax.bar_label(bars, fmt=lambda value: f"{value + 0.0:.1f}".replace("-", "−"), padding=2)
        ax.axhline(0, color=ink(), linewidth=0.8)
        ax.axvline(2.5, color=ink(), linewidth=0.8, linestyle=":")
        ax.set_xticks(range(4), labels=["q₁k₁", "q₂k₂", "q₃k₃", text["sum"]])
        ax.set_yticks([])
        ax.set_ylim(-7, 7)
        ax.set_title(f"k = ({', '.join(fmt(x) for x in KEYS[name])})", loc="left")
        ax.spines[["top", "right", "bottom", "left"]].set_visible(False)
        ax.tick_params(axis="x", length=0)

    heatmap(axes["scores"], sums, ["q"], [text[name] for name in names], "score",
            title=text["sums"], highlight_cells=[(0, 0)],
            computed_as=dot_products(Q[None], np.stack([KEYS[name] for name in names])))
    # On the page, under the figure: turn the aligned key against q, to explore.
    explorable(fig, "turn-key", query=Q, key=KEYS["aligned"])
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_aligned_opposed_unrelated.py zh
    draw(lang).savefig(f"fig_aligned_opposed_unrelated.{lang}.svg")

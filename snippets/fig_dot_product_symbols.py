"""One cell of QKᵀ in symbols: the query of word 4 times the key of word 2.

As in the article, the rows are three numbers wide: the query of "blue"
(word 4) is (a, b, c) and the key of "ball" (word 2) is (d, e, f). Cell
(blue, ball) of QKᵀ multiplies them place by place and adds the products:
a·d + b·e + c·f. Every other cell is made the same way from its own row of
Q and its own column of Kᵀ.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.offsetbox import AnnotationBbox, HPacker, TextArea

from plotting import HIGHLIGHT, heatmap, use_language
from running_example import SOURCE_WORDS

QUERY, KEY = "abc", "def"  # the article's letters

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"cell": "cell (blue, ball)"},
    "zh": {"cell": "(blue, ball) 这一格"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    n, width = len(SOURCE_WORDS), len(QUERY)
    blue, ball = SOURCE_WORDS.index("blue"), SOURCE_WORDS.index("ball")
    places = [str(m + 1) for m in range(width)]

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.4), width_ratios=[3, 4, 4],
                             layout="constrained")
    fig.get_layout_engine().set(w_pad=0.2)
    # Neutral cells (all-zero "score" data); the letters are the content.
    heatmap(axes[0], np.zeros((n, width)), SOURCE_WORDS, places, "score", fmt="",
            highlight_rows=[blue], title="Q")
    heatmap(axes[1], np.zeros((width, n)), places, SOURCE_WORDS, "score", fmt="",
            title="Kᵀ")
    axes[1].add_patch(plt.Rectangle((ball - 0.5, -0.5), 1, width, fill=False,
                                    edgecolor=HIGHLIGHT,
                                    linewidth=3, clip_on=False))
    heatmap(axes[2], np.zeros((n, n)), SOURCE_WORDS, SOURCE_WORDS, "score", fmt="",
            highlight_cells=[(blue, ball)], title="QKᵀ")
    for m, (q, k) in enumerate(zip(QUERY, KEY)):
        axes[0].text(m, blue, f"${q}$", ha="center", va="center", fontsize=14, color="black")
        axes[1].text(ball, m, f"${k}$", ha="center", va="center", fontsize=14, color="black")
    cell = " + ".join(f"{q} \\cdot {k}" for q, k in zip(QUERY, KEY))
    # The words and the mathtext sum as two texts side by side: mathtext has no Chinese glyphs.
    parts = [TextArea(part, textprops=dict(fontsize=12)) for part in (text["cell"], f"$= {cell}$")]
    axes[2].add_artist(AnnotationBbox(HPacker(children=parts, sep=4, align="baseline"),
                                      (0.5, -0.12), xycoords="axes fraction",
                                      box_alignment=(0.5, 1), frameon=False, pad=0))
    for left, sign in [(axes[0], "×"), (axes[1], "=")]:
        left.annotate(sign, xy=(1.0, 0.5), xycoords="axes fraction", xytext=(14, 0),
                      textcoords="offset points", ha="center", va="center", fontsize=16)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_dot_product_symbols.py zh
    draw(lang).savefig(f"fig_dot_product_symbols.{lang}.svg")

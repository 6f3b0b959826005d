"""QKᵀ as a grid of word pairs: the "factor matrix" before any number is in it.

Row i belongs to query word i, column j to key word j, and cell (i, j) holds
the dot product q_i · k_j. The row of "blue" (blue's query against every key)
is outlined.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap, use_language
from running_example import SOURCE_WORDS

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"rows": "query word (row of Q)", "columns": "key word (column of Kᵀ)"},
    "zh": {"rows": "查询词（Q 的行）", "columns": "键词（Kᵀ 的列）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    n = len(SOURCE_WORDS)
    blue = SOURCE_WORDS.index("blue")

    fig, ax = plt.subplots(figsize=(6.4, 4.3), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1)  # room for the outline of the last row
    # An all-zero "score" matrix gives neutral cells; the labels are the content.
    heatmap(ax, np.zeros((n, n)), SOURCE_WORDS, SOURCE_WORDS, "score", fmt="",
            highlight_rows=[blue], row_title=text["rows"],
            col_title=text["columns"])
    for i, query in enumerate(SOURCE_WORDS):
        for j, key in enumerate(SOURCE_WORDS):
            ax.text(j, i - 0.14, f"{query}·{key}", ha="center", va="center",
                    fontsize=10, color="black", weight="bold" if i == blue else "normal")
            ax.text(j, i + 0.2, f"$q_{{\\mathrm{{{query}}}}} \\cdot k_{{\\mathrm{{{key}}}}}$",
                    ha="center", va="center", fontsize=9, color="black")
    ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="0.6", linewidth=0.8)
    ax.tick_params(which="minor", length=0)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_factor_matrix_word_pairs.py zh
    draw(lang).savefig(f"fig_factor_matrix_word_pairs.{lang}.svg")

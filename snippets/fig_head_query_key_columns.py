"""Each head's slice of Q and K, with the name of every column.

Q = X·W_Q and K = X·W_K are (4, 6) for "The ball is blue"; head 0 takes
columns 0-2 and head 1 columns 3-5 (d_head = 3). A column of a query says
what the word wants, the same column of a key what a word is. The row of
"blue" is outlined in each query slice, and in each key slice the cell that
its largest entry meets: in head 0, "wants a thing" (4) meets the key of
"ball", "is a thing" (1); in head 1, "wants a verb" (4) meets the key of
"is", "is a verb" (1).
"""

import sys

import matplotlib.pyplot as plt

from attention import split_heads
from multi_head_example import N_HEADS, Q_COLUMNS, W_K_HEADS, W_Q_HEADS
from plotting import heatmap, use_language
from running_example import SOURCE_WORDS, encoder_input

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"q": "Q, head {h}\nwants a …", "k": "K, head {h}\nis a …",
           "columns": Q_COLUMNS},
    "zh": {"q": "Q，头 {h}\n想要……", "k": "K，头 {h}\n是……",
           "columns": [["事物", "颜色", "功能词"], ["动词", "事物", "未用"]]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    x = encoder_input(SOURCE_WORDS)  # (n, d_model) = (4, 6)
    q = split_heads(x @ W_Q_HEADS, N_HEADS)  # (n_heads, n, d_head) = (2, 4, 3)
    k = split_heads(x @ W_K_HEADS, N_HEADS)  # (2, 4, 3)
    blue = SOURCE_WORDS.index("blue")
    found = [SOURCE_WORDS.index("ball"), SOURCE_WORDS.index("is")]  # the key each head finds

    fig, axes = plt.subplots(1, 2 * N_HEADS, figsize=(8.5, 3.4), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.2)  # room above the titles
    for h in range(N_HEADS):
        column = q[h, blue].argmax()  # blue's strongest wish in this head
        columns = text["columns"][h]
        heatmap(axes[2 * h], q[h], SOURCE_WORDS, columns, "vector", fmt="{:.0f}",
                highlight_rows=[blue], title=text["q"].format(h=h))
        heatmap(axes[2 * h + 1], k[h], SOURCE_WORDS, columns, "vector", fmt="{:.0f}",
                highlight_cells=[(found[h], column)], title=text["k"].format(h=h))
    for ax in axes:
        ax.tick_params(axis="x", labelrotation=90)
    fig.align_titles()  # one line of titles, however long the column labels below them
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_head_query_key_columns.py zh
    draw(lang).savefig(f"fig_head_query_key_columns.{lang}.svg")

"""From words to rows: X, then Q, K and V for "The ball is blue".

X is each word's embedding plus its position encoding: four named features
(thing, colour, article, verb) and two columns of position. The three linear
layers turn X into a query (how much the word wants a word of each kind), a
key (how much it is of each kind) and a value (what it hands over). Each row
belongs to one word; the row of "blue" is outlined throughout.
"""

import matplotlib.pyplot as plt

from plotting import heatmap
from running_example import DIMENSIONS, FEATURES, SOURCE_WORDS, VALUES, encoder_input, project


def draw():
    x = encoder_input(SOURCE_WORDS)  # (n, d_model) = (4, 6)
    q, k, v = project(x)  # (4, 4), (4, 4), (4, 3)
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 4, figsize=(9.5, 3.4), width_ratios=[6, 4, 4, 3],
                             layout="constrained")
    panels = [(x, DIMENSIONS, "X\nembedding + position"), (q, FEATURES, "Q = X·W_Q\nwants a …"),
              (k, FEATURES, "K = X·W_K\nis a …"), (v, VALUES, "V = X·W_V\nhands over")]
    for ax, (matrix, columns, title) in zip(axes, panels):
        heatmap(ax, matrix, SOURCE_WORDS, columns, "vector", fmt="{:.1f}",
                highlight_rows=[blue], title=title)
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_words_to_qkv.svg")

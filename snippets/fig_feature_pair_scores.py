"""What separate query and key weights buy: the table of scores between kinds of word.

A score is x_i W_Q W_Kᵀ x_jᵀ, so the matrix A = W_Q W_Kᵀ says how much a word
with feature r (row) scores a word with feature c (column). Left: A for the
running example's separate W_Q and W_K; a colour wants a thing (4), but a
thing wants a colour only 3, and the table is not symmetric. Right: the
table if the keys reused the query weights, A = W_Q W_Qᵀ: symmetric, with
nothing negative on its diagonal, so every relation runs both ways and every
word is drawn to its own kind. Only the four named features are shown; the
position rows and columns are zero in both.
"""

import matplotlib.pyplot as plt

from plotting import heatmap
from running_example import FEATURES, W_K, W_Q


def draw():
    n = len(FEATURES)
    separate = (W_Q @ W_K.T)[:n, :n]  # (features, features): query feature × key feature
    shared = (W_Q @ W_Q.T)[:n, :n]  # what A would be with W_K = W_Q
    colour, thing = FEATURES.index("colour"), FEATURES.index("thing")

    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.6), layout="constrained")
    heatmap(axes[0], separate, FEATURES, FEATURES, "score", fmt="{:.0f}",
            highlight_cells=[(colour, thing), (thing, colour)], title="separate: W_Q W_Kᵀ",
            row_title="query word is a …", col_title="key word is a …")
    heatmap(axes[1], shared, FEATURES, FEATURES, "score", fmt="{:.0f}",
            highlight_cells=[(colour, thing), (thing, colour)], title="shared: W_Q W_Qᵀ",
            col_title="key word is a …")
    return fig


if __name__ == "__main__":
    draw().savefig("fig_feature_pair_scores.svg")

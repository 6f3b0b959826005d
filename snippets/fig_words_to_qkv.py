"""Each word becomes one row of X, and one row of Q, K and V.

"The ball is blue": embedding plus position encoding gives X (one row per
word); the three linear layers turn X into Q, K and V. The row of "blue" is
outlined in every matrix: it stays the same word all the way through.
"""

import matplotlib.pyplot as plt

from plotting import heatmap
from running_example import SOURCE_WORDS, encoder_input, project


def draw():
    x = encoder_input(SOURCE_WORDS)  # (n, d_model) = (4, 4)
    q, k, v = project(x)  # each (n, d_k) = (4, 3)
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 4, figsize=(8.5, 2.8), width_ratios=[4, 3, 3, 3],
                             layout="constrained")
    panels = [(x, "X = embedding + position"), (q, "Q = X · W_Q"),
              (k, "K = X · W_K"), (v, "V = X · W_V")]
    for ax, (matrix, title) in zip(axes, panels):
        dims = [str(i + 1) for i in range(matrix.shape[1])]
        heatmap(ax, matrix, SOURCE_WORDS, dims, "vector", fmt="{:.1f}",
                highlight_rows=[blue], title=title)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_words_to_qkv.svg")

"""The parameters that training adjusts: W_e, W_Q, W_K and W_V, written by hand here.

W_e holds one embedding row per vocabulary word, English and Spanish in one
table. W_Q turns a word's features into what it wants (rows: its features;
columns: the kinds of word it looks for); W_K turns them into what it is;
W_V into what it hands over. The two position rows are all zero: in this
toy, attention looks at what the words are, not where they stand.
"""

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap
from running_example import DIMENSIONS, EMBEDDINGS, FEATURES, VALUES, W_K, W_Q, W_V


def draw():
    vocab = list(EMBEDDINGS)
    w_e = np.array([EMBEDDINGS[word] for word in vocab])  # (vocab, d_model)

    fig, axes = plt.subplots(1, 4, figsize=(9.5, 4.4), width_ratios=[6, 4, 4, 3],
                             layout="constrained")
    heatmap(axes[0], w_e, vocab, DIMENSIONS, "vector", fmt="{:.0f}", title="W_e\nembedding")
    panels = [(W_Q, FEATURES, "W_Q\nwants a …"), (W_K, FEATURES, "W_K\nis a …"),
              (W_V, VALUES, "W_V\nhands over")]
    for ax, (w, columns, title) in zip(axes[1:], panels):
        heatmap(ax, w, DIMENSIONS, columns, "vector", fmt="{:.0f}", title=title)
    for ax in axes:
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_learnable_weights.svg")

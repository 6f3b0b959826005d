"""The parameters that training adjusts: W_e, W_Q, W_K and W_V.

W_e holds one embedding row per vocabulary word; W_Q, W_K and W_V are the
weights of the three linear layers (d_model rows, d_k or d_v columns). The
values are the toy numbers of the running example.
"""

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap
from running_example import D_MODEL, EMBEDDINGS, W_K, W_Q, W_V


def draw():
    vocab = list(EMBEDDINGS)
    w_e = np.array([EMBEDDINGS[word] for word in vocab])  # (vocab, d_model)
    model_dims = [str(i + 1) for i in range(D_MODEL)]

    fig, axes = plt.subplots(1, 4, figsize=(8.5, 2.8), width_ratios=[4, 3, 3, 3],
                             layout="constrained")
    heatmap(axes[0], w_e, vocab, model_dims, "vector", fmt="{:.1f}",
            title="W_e (embedding)")
    for ax, (w, name) in zip(axes[1:], [(W_Q, "W_Q"), (W_K, "W_K"), (W_V, "W_V")]):
        out_dims = [str(i + 1) for i in range(w.shape[1])]
        heatmap(ax, w, model_dims, out_dims, "vector", fmt="{:.0f}", title=name)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_learnable_weights.svg")

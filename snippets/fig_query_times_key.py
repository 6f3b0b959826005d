"""Q times Kᵀ, with the numbers of the running example.

Q has one row per query word, Kᵀ one column per key word, so their product
QKᵀ has one row per query word and one column per key word. The row of
"blue" is outlined in Q and in QKᵀ: it is made from blue's query row and
every column of Kᵀ.
"""

import matplotlib.pyplot as plt

from plotting import heatmap
from running_example import FEATURES, SOURCE_WORDS, source_qkv


def draw():
    q, k, _ = source_qkv()  # (n, d_k) each
    factors = q @ k.T  # (n, n): rows = queries, columns = keys
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.3), width_ratios=[3, 4, 4],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1, w_pad=0.15)
    heatmap(axes[0], q, SOURCE_WORDS, FEATURES, "vector", fmt="{:.0f}",
            highlight_rows=[blue], title="Q: wants a …")
    axes[0].tick_params(axis="x", labelrotation=90)
    heatmap(axes[1], k.T, FEATURES, SOURCE_WORDS, "vector", fmt="{:.0f}", title="Kᵀ: is a …")
    heatmap(axes[2], factors, SOURCE_WORDS, SOURCE_WORDS, "score",
            highlight_rows=[blue], fmt="{:.0f}", title="QKᵀ (factor matrix)")
    for left, sign in [(axes[0], "×"), (axes[1], "=")]:
        left.annotate(sign, xy=(1.0, 0.5), xycoords="axes fraction", xytext=(14, 0),
                      textcoords="offset points", ha="center", va="center", fontsize=16)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_query_times_key.svg")

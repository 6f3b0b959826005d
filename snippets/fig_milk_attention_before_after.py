"""Where "milk" looks in "The black cat drank the milk", before and after training.

The attention weights of the query "milk" over the six words of the
sentence: with the toy model's random starting parameters (top) and after
training (bottom). One row: the query "milk"; one column per key word.
"""

import matplotlib.pyplot as plt

from plotting import heatmap
from relevance_training import SENTENCE, attention_row, train


def draw():
    run = train()  # trained once per process, then cached
    fig, axes = plt.subplots(2, 1, figsize=(6.0, 2.9), layout="constrained")
    panels = [(run.params_before, "before training"), (run.params, "after training")]
    for ax, (params, title) in zip(axes, panels):
        weights = attention_row(params)[None, :]  # (1 query, 6 keys)
        heatmap(ax, weights, ["milk"], SENTENCE, "weight", highlight_rows=[0], title=title)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_milk_attention_before_after.svg")

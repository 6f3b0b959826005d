"""Why the weights come out as they do: the trained Values are votes.

After training, on "The black cat drank the milk": the attention weights of
the query "milk" (left), the Value row of every word, one vote in [-1, 1]
per amount left (second), their weighted sum z (third) and the model's
prediction p = softmax(3z) (right). "drank" votes for "none" and "a little"
against "most" and "all"; "cat" votes for the larger amount of each pair;
those two rows are outlined.
"""

import matplotlib.pyplot as plt

from plotting import heatmap
from relevance_training import AMOUNTS, SCALE, SENTENCE, encode, forward, train


def draw():
    run = train()  # trained once per process, then cached
    f = forward(run.params, encode(SENTENCE), [SENTENCE.index("milk")])
    voters = [SENTENCE.index("cat"), SENTENCE.index("drank")]

    fig, axes = plt.subplots(1, 4, figsize=(8.5, 3.0), width_ratios=[6, 4, 4, 4],
                             layout="constrained")
    heatmap(axes[0], f["a"], ["milk"], SENTENCE, "weight", highlight_rows=[0],
            title="weights of milk")
    heatmap(axes[1], f["v"][0], SENTENCE, AMOUNTS, "vector", fmt="{:.1f}",
            highlight_rows=voters, title="V = tanh(X·W_V)")
    heatmap(axes[2], f["z"], ["milk"], AMOUNTS, "vector", fmt="{:.1f}", title="z = weights · V")
    heatmap(axes[3], f["p"], ["milk"], AMOUNTS, "weight", title=f"p = softmax({SCALE:g}z)")
    for ax in axes:
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    draw().savefig("fig_milk_weighted_votes.svg")

"""Why the weights come out as they do: the trained Values are votes.

On "The black cat drank the milk": milk's weights, every word's vote (Value row), their weighted sum z and
the prediction p = softmax(3z). The votes of "drank" and "cat" are outlined.
"""

import sys

import matplotlib.pyplot as plt

from plotting import heatmap, softmax_rows, use_language, weighted_sums
from relevance_training import AMOUNTS, D_K, SCALE, SENTENCE, encode, forward, train

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"amounts": AMOUNTS, "weights": "weights of milk", "z": "z = weights · V"},
    "zh": {"amounts": ["一点不剩", "剩一点", "剩大半", "原封未动"],
           "weights": "milk 的权重", "z": "z = 权重 · V"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    amounts = text["amounts"]  # the columns of V, z and p: how much of the milk is left
    run = train()  # trained once per process, then cached
    f = forward(run.params, encode(SENTENCE), [SENTENCE.index("milk")])
    voters = [SENTENCE.index("cat"), SENTENCE.index("drank")]

    fig, axes = plt.subplots(1, 4, figsize=(9.0, 3.8), width_ratios=[6, 4, 4, 4],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1)  # room above the titles
    scores = f["q"] @ f["k"][0].T  # (1, n): milk's q · k, before ÷√d_k and softmax
    heatmap(axes[0], f["a"], ["milk"], SENTENCE, "weight", highlight_rows=[0],
            title=text["weights"], computed_as=softmax_rows(scores, d_k=D_K))
    heatmap(axes[1], f["v"][0], SENTENCE, amounts, "vector", fmt="{:.1f}",
            highlight_rows=voters, title="V = tanh(X·W_V)")
    heatmap(axes[2], f["z"], ["milk"], amounts, "vector", fmt="{:.1f}", title=text["z"],
            computed_as=weighted_sums(f["a"], f["v"][0], SENTENCE, names=("a", "v")))
    heatmap(axes[3], f["p"], ["milk"], amounts, "weight", title=f"p = softmax({SCALE:g}z)",
            computed_as=softmax_rows(f["z"], factor=SCALE, names=("z",)))
    for ax in axes:  # column names: Latin turned, the Chinese answers upright on two lines
        if lang == "zh" and ax is not axes[0]:
            ax.set_xticks(range(len(amounts)), labels=[a[:len(a) // 2] + "\n" + a[len(a) // 2:] for a in amounts])
        else:
            ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_milk_weighted_votes.py zh
    draw(lang).savefig(f"fig_milk_weighted_votes.{lang}.svg")

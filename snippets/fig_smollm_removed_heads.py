"""What SmolLM2-135M-Instruct loses when heads are removed (`smollm_heads.removals`).

Left: the probability of " milk" after "The black cat drank the milk. The
black cat drank the". Right: the mean loss, in nats, on the second half of
two held-out texts of 12 random words said twice (lower: the model copies
better); the dashed line is the loss on their first half, where nothing can
be copied. Rows: nothing removed; the four strongest induction heads, zeroed
or replaced by their mean output over other texts; every head with an
induction score above 0.3; the two strongest previous-token heads, both
ways; the next two; four heads drawn at random, four times (one dot each).
"""

import sys

import matplotlib.pyplot as plt

from plotting import HIGHLIGHT, ink, use_language
from smollm_heads import held_out_texts, losses, removals

# The figure's text in each language.
LABELS = {
    "en": {"nothing": "nothing removed", "induction": "4 induction heads", "all induction": "{n} induction heads",
           "previous": "previous-token\nheads {heads}", "random": "{n} random heads", "zero": "zeroed",
           "mean": "mean", "p": "p(“ milk”)", "loss": "copying loss\n(nats)", "and": ", ", "then": ",\n"},
    "zh": {"nothing": "不去掉任何头", "induction": "4 个归纳头", "all induction": "{n} 个归纳头",
           "previous": "前一词元头\n{heads}", "random": "随机 {n} 个头", "zero": "置零", "mean": "换成均值",
           "p": "p(“ milk”)", "loss": "复制损失\n（nat）", "and": "、", "then": "，\n"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    rows, labels = {}, []
    for name, how, heads, p, _, loss, _, _ in removals():
        label = text[name].format(heads=text["and"].join(f"{layer}.{head}" for layer, head in heads), n=len(heads))
        if name not in ("nothing", "random"):
            label = f"{label}{text['then']}{text[how]}"
        if label not in rows:
            rows[label] = []
            labels.append(label)
        rows[label].append((p, loss))
    nothing_to_copy, _ = losses(held_out_texts())
    fig, axes = plt.subplots(1, 2, figsize=(4.9, 5.0), sharey=True, layout="constrained")
    for column, ax in enumerate(axes):
        for i, label in enumerate(labels):
            values = [pair[column] for pair in rows[label]]
            ax.scatter(values, [i] * len(values), s=28, color=ink() if i == 0 else HIGHLIGHT, linewidths=0)
        ax.axvline(rows[labels[0]][0][column], color=ink(), linewidth=0.5, linestyle=":")
        ax.set_xlabel(text["loss" if column else "p"])
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(axis="y", length=0)
    axes[1].axvline(nothing_to_copy, color=ink(), linewidth=1, linestyle="--")
    axes[0].set_yticks(range(len(labels)), labels=labels)
    axes[0].invert_yaxis()
    axes[0].set_xlim(0, 1)
    axes[1].set_xlim(0, 15)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_removed_heads.py zh
    draw(lang).savefig(f"fig_smollm_removed_heads.{lang}.svg")

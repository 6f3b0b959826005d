"""What SmolLM2-135M-Instruct loses when heads are removed (`smollm_heads.removals`, `sentence_removals`).

Top: the mean loss, in nats, on the second half of two held-out texts of 12
random words said twice (lower: the model copies better), with nothing
removed; the four strongest induction heads, zeroed or replaced by their mean
output over other texts; all fourteen induction heads (score above 0.3); the
two strongest previous-token heads, both ways; the next two; four heads drawn
at random, four times, and fourteen, twice (one dot each). The dashed line is
the loss on the first half, where nothing can be copied.

Bottom: how much zeroing heads changes the probability of the word to copy,
in five sentences said twice and cut before that word ("The black cat drank
the car. The black cat drank the", ...; filled dots) and in the article's
sentence ("... drank the milk. ...", a ring).
"""

import sys

import matplotlib.pyplot as plt

from plotting import HIGHLIGHT, ink, use_language
from smollm_heads import held_out_texts, losses, removals, sentence_removals

# The figure's text in each language.
LABELS = {
    "en": {"nothing": "nothing removed", "induction": "4 induction heads,\n{how}",
           "all induction": "all {n} induction heads,\n{how}", "previous": "2 previous-token heads,\n{how}",
           "previous 2": "2 weaker previous-token\nheads, {how}", "random": "{n} random heads",
           "zero": "zeroed", "mean": "by their mean",
           "loss": "copying loss on random words (nats)",
           "change": "change in p(word to copy), in sentences",
           "five": "five sentences", "milk": "“… milk”"},
    "zh": {"nothing": "不去掉任何头", "induction": "4 个归纳头，{how}", "all induction": "全部 {n} 个归纳头，{how}",
           "previous": "2 个前一词元头，{how}", "previous 2": "较弱的 2 个前一词元头，\n{how}",
           "random": "随机 {n} 个头", "zero": "置零", "mean": "换成均值",
           "loss": "随机词上的复制损失（纳特）", "change": "句子里被复制词的概率变化",
           "five": "五个句子", "milk": "“… milk”"},
}


def row_label(text, name, how, heads, first_previous):
    """The label of one way of removing heads: "4 induction heads,\nzeroed", "4 random heads", ..."""
    key = "previous 2" if name == "previous" and heads != first_previous else name
    return text[key].format(n=len(heads), how=text[how])


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    found = removals()
    first_previous = next(r.heads for r in found if r.name == "previous")
    losses_by_row = {}
    for r in found:
        losses_by_row.setdefault(row_label(text, r.name, r.how, r.heads, first_previous), []).append(r.copying)
    rows = sentence_removals()
    intact = next(p for name, _, p in rows if name == "nothing")
    changes = {}
    for name, heads, p in rows:
        if name not in ("alone", "mention", "nothing"):
            changes.setdefault(row_label(text, name, "zero", heads, first_previous), []).append(
                [x - x0 for x, x0 in zip(p, intact)])
    nothing_to_copy, _ = losses(held_out_texts())

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.9, 7.4), layout="constrained",
                                      height_ratios=[len(losses_by_row), len(changes) + 1.5])
    for i, values in enumerate(losses_by_row.values()):
        top.scatter(values, [i] * len(values), s=28, color=ink() if i == 0 else HIGHLIGHT, linewidths=0)
    top.axvline(losses_by_row[text["nothing"]][0], color=ink(), linewidth=0.5, linestyle=":")
    top.axvline(nothing_to_copy, color=ink(), linewidth=1, linestyle="--")
    top.set_yticks(range(len(losses_by_row)), labels=list(losses_by_row))
    top.set_xlim(0, 15)
    top.set_xlabel(text["loss"])

    for i, draws in enumerate(changes.values()):
        for k, change in enumerate(draws):  # the article's sentence, the five, the mention (not drawn)
            y = i + 0.2 * (k - (len(draws) - 1) / 2)  # each random draw on a line of its own
            bottom.scatter(change[1:6], [y] * 5, s=28, color=HIGHLIGHT, linewidths=0,
                           label=text["five"] if i == k == 0 else None)
            bottom.scatter([change[0]], [y], s=40, facecolors="none", edgecolors=ink(), linewidths=1.2,
                           label=text["milk"] if i == k == 0 else None)
    bottom.axvline(0, color=ink(), linewidth=0.5, linestyle=":")
    bottom.set_yticks(range(len(changes)), labels=list(changes))
    bottom.set_xlim(-0.5, 0.5)
    bottom.set_ylim(len(changes) - 0.5, -1.6)  # room for the legend above the first row
    bottom.set_xlabel(text["change"])
    bottom.legend(frameon=False, loc="upper center", ncols=2, handletextpad=0.2, borderaxespad=0.1)

    top.invert_yaxis()
    for ax in (top, bottom):
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(axis="y", length=0)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_removed_heads.py zh
    draw(lang).savefig(f"fig_smollm_removed_heads.{lang}.svg")

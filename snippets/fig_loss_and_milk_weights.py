"""The loss falls as the attention of "milk" moves to "drank", then to "cat".

Top: the training loss, from a blind guess (ln 4) towards the lowest loss possible on these sentences (dashed).
Bottom: milk's weights on "drank", "cat" and "black" over the same steps.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import HIGHLIGHT, ink, use_language
from relevance_training import SENTENCE, generate, loss_floor, train

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"floor": "lowest possible on these sentences: {floor:.2f}",
           "guess": "blind guess: ln 4 = {guess:.2f}", "loss": "loss",
           "weight": "weight of milk on", "step": "training step"},
    "zh": {"floor": "这些句子上所能达到的最低损失：{floor:.2f}",
           "guess": "盲猜：ln 4 = {guess:.2f}", "loss": "损失",
           "weight": "milk 分给各词的权重", "step": "训练步数"},
}

# One colour and line style per key word, the same in every figure of the page.
STYLES = {"drank": (HIGHLIGHT, "-"), "cat": ("#1c7ed6", "--"), "black": (None, ":")}
EVERY = 10  # plot every 10th step: smooth enough, and a small SVG (matplotlib merges what is nearly straight)


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    run = train()  # trained once per process, then cached
    floor = loss_floor(generate())  # the best any model could do on the training sentences
    steps = np.arange(len(run.losses))[::EVERY]
    last = steps[-1]

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.5, 4.6), sharex=True,
                                      layout="constrained")
    top.plot(steps, run.losses[::EVERY], color=ink(), linewidth=2)
    top.axhline(floor, color=ink(), linestyle="--", linewidth=1)
    top.text(last, floor - 0.06, text["floor"].format(floor=floor),
             ha="right", va="top")
    top.axhline(np.log(4), color=ink(), linestyle=":", linewidth=1)
    top.text(last, np.log(4) + 0.05, text["guess"].format(guess=np.log(4)), ha="right", va="bottom")
    top.set_ylim(0, 1.6)
    top.set_ylabel(text["loss"])

    for word, (colour, style) in STYLES.items():
        line = run.weights[::EVERY, SENTENCE.index(word)]
        bottom.plot(steps, line, color=colour or ink(), linestyle=style, linewidth=2)
        bottom.text(last * 1.01, line[-1], word, va="center")
    bottom.set_ylim(0, 1)
    bottom.set_ylabel(text["weight"])
    bottom.set_xlabel(text["step"])
    bottom.set_xlim(0, last)
    for ax in (top, bottom):
        ax.spines[["top", "right"]].set_visible(False)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_loss_and_milk_weights.py zh
    draw(lang).savefig(f"fig_loss_and_milk_weights.{lang}.svg")

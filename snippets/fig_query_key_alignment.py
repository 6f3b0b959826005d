"""How the query of "milk" turns towards the keys of "drank" and "cat".

Left: the cosine similarity of milk's query with the keys of "drank", "cat"
and "black" at every training step: direction only, from -1 (opposed) to 1
(aligned). Right: the scaled scores q·k/√d_k of the same pairs, which also
count the lengths of the vectors; softmax turns them into the weights.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import HIGHLIGHT, ink, use_language
from relevance_training import WATCHED_KEYS, train

# One colour and line style per key word, the same in every figure of the page.
STYLES = {"drank": (HIGHLIGHT, "-"), "cat": ("#1c7ed6", "--"), "black": (None, ":")}
EVERY = 10  # plot every 10th step: smooth enough, and a small SVG

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"cosine": "cosine of q_milk and k", "score": "score q_milk · k / √d_k",
           "step": "training step"},
    "zh": {"cosine": "q_milk 与 k 的余弦相似度", "score": "分数 q_milk · k / √d_k",
           "step": "训练步数"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    run = train()  # trained once per process, then cached
    steps = np.arange(len(run.losses))[::EVERY]
    last = steps[-1]

    fig, axes = plt.subplots(1, 2, figsize=(8.5, 3.2), layout="constrained")
    panels = [(run.cosines, text["cosine"], 0.15),
              (run.scores, text["score"], 0.5)]
    for ax, (history, title, gap) in zip(axes, panels):
        ends = []
        for word, (colour, style) in STYLES.items():
            line = history[::EVERY, WATCHED_KEYS.index(word)]
            ax.plot(steps, line, color=colour or ink(), linestyle=style, linewidth=2)
            ends.append([line[-1], word])
        # Label each line at its end, nudged apart where the ends are close.
        y_prev = -np.inf
        for y, word in sorted(ends):
            y_prev = max(y, y_prev + gap)
            ax.text(last * 1.02, y_prev, word, va="center")
        ax.axhline(0, color=ink(), linewidth=0.6)
        ax.set_title(title)
        ax.set_xlabel(text["step"])
        ax.set_xlim(0, last)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylim(-1.05, 1.05)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_query_key_alignment.py zh
    draw(lang).savefig(f"fig_query_key_alignment.{lang}.svg")

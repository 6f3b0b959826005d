"""All 270 heads of SmolLM2-135M-Instruct, placed by what they do on texts of random words.

Across: each head's previous-token score, its mean weight on the token before,
on texts of 24 different random words. Up: its induction score, its mean weight,
in texts of 12 random words said twice, from a word of the second half to the
word that followed it the first time. A dot is a head; the four best of each
kind are named. Few heads do either, and the heads that do one do not do the other.
"""

import sys

import matplotlib.pyplot as plt

from plotting import HIGHLIGHT, ink, use_language
from smollm_heads import (induction_scores, previous_token_scores, repeated_texts, top_heads,
                          unrepeated_texts)

# The figure's text in each language.
LABELS = {
    "en": {"x": "previous-token score", "y": "induction score", "head": "L{layer} H{head}",
           "title": "270 heads, on texts of random words"},
    "zh": {"x": "前一词元分数", "y": "归纳分数", "head": "第 {layer} 层，头 {head}",
           "title": "随机词文本上的 270 个头"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    induction = induction_scores(repeated_texts())  # (30, 9)
    previous = previous_token_scores(unrepeated_texts())  # (30, 9)
    fig, ax = plt.subplots(figsize=(4.8, 4.4), layout="constrained")
    ax.scatter(previous.ravel(), induction.ravel(), s=14, color="#868e96", linewidths=0)
    # Each named head's label in a column of its own, with a line to its dot: the dots lie close together.
    for heads, (x_text, y_text, step) in ((top_heads(induction), (0.3, 0.95, -0.08)),
                                          (top_heads(previous), (0.62, 0.5, -0.08))):
        for rank, (layer, head) in enumerate(heads):
            x, y = previous[layer, head], induction[layer, head]
            ax.scatter([x], [y], s=30, color=HIGHLIGHT, linewidths=0)
            ax.annotate(text["head"].format(layer=layer, head=head), (x, y), xytext=(x_text, y_text + rank * step),
                        ha="left", va="center", arrowprops={"arrowstyle": "-", "color": ink(), "linewidth": 0.5})
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel(text["x"])
    ax.set_ylabel(text["y"])
    ax.set_title(text["title"])
    ax.spines[["top", "right"]].set_visible(False)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_head_scores.py zh
    draw(lang).savefig(f"fig_smollm_head_scores.{lang}.svg")

"""Why a previous-token head of SmolLM2-135M-Instruct looks one token back: its scores by offset.

For the head that looks most at the token before (`smollm_heads.previous_token_heads`),
on texts of random words: the mean scaled score q·k / √64 of all pairs that
lie a given number of tokens apart (0: a token with itself, 1: with the token
before it), and the part of it that every token shares, the mean query with
the mean key, turned by RoPE for that offset. The two lines nearly coincide:
the head's queries and keys hardly depend on the tokens, and the rotation by
the offset makes the score highest one token back.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import HIGHLIGHT, ink, use_language
from smollm_heads import previous_token_heads, scores_by_offset, unrepeated_texts

# The figure's text in each language.
LABELS = {
    "en": {"title": "layer {layer}, head {head}: score by offset", "mean": "mean score of the pairs",
           "shared": "shared part: mean query · mean key", "x": "offset: how many tokens back the key is",
           "y": "scaled score q · k / √64"},
    "zh": {"title": "第 {layer} 层，头 {head}：按距离看分数", "mean": "这些词元对的平均分数",
           "shared": "共有部分：平均查询 · 平均键", "x": "距离：键在查询之前几个词元",
           "y": "缩放后的分数 q · k / √64"},
}
OFFSETS = np.arange(11)


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    layer, head = previous_token_heads()[0]
    mean, shared = scores_by_offset(unrepeated_texts(), layer, head, OFFSETS)
    fig, ax = plt.subplots(figsize=(4.8, 3.6), layout="constrained")
    ax.plot(OFFSETS, mean, color=HIGHLIGHT, linewidth=2.5, marker="o", label=text["mean"])
    ax.plot(OFFSETS, shared, color=ink(), linewidth=1.5, linestyle="--", marker="x", label=text["shared"])
    ax.axhline(0, color=ink(), linewidth=0.5)
    ax.set_xticks(OFFSETS)
    ax.set_xlabel(text["x"])
    ax.set_ylabel(text["y"])
    ax.set_title(text["title"].format(layer=layer, head=head))
    ax.legend(frameon=False, loc="lower left")
    ax.spines[["top", "right"]].set_visible(False)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_rope_offsets.py zh
    draw(lang).savefig(f"fig_smollm_rope_offsets.{lang}.svg")

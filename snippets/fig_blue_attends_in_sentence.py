"""Where "blue" looks, drawn on the sentence itself: the idea of attention at a glance.

"The ball is blue" is written once, left to right, one box per word. "blue",
the query (outlined), sends an arc to every word of the sentence, a loop back
to itself included; each arc is as thick as blue's attention weight for that
word, and the weight is written below the word. Most of it goes to "ball".
"""

import sys

import matplotlib.pyplot as plt
from matplotlib.patches import Arc

from attention import scaled_dot_product_attention
from plotting import HIGHLIGHT, ink, use_language
from running_example import SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"title": "where “blue” looks: its attention weights"},
    "zh": {"title": "“blue”关注哪里：它的注意力权重"},
}


LINE_WIDTH = 10  # points for a weight of 1: an arc's width is proportional to its weight
BOX_TOP = 0.12  # where the arcs meet the word boxes (data units, words on y = 0)


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = source_qkv()  # (n, d_k), (n, d_k), (n, d_v)
    _, weights = scaled_dot_product_attention(q, k, v)  # (n, n)
    blue = SOURCE_WORDS.index("blue")
    n = len(SOURCE_WORDS)

    width, height = 7.0, 2.2
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.55, n - 0.45)
    bottom = -0.38
    ax.set_ylim(bottom, bottom + (n - 0.45 + 0.55) * height / width)  # one unit as long across as up
    ax.set_axis_off()

    # One arc from "blue" to each word, as thick as the weight (0 would draw nothing).
    for j, weight in enumerate(weights[blue]):
        if j == blue:  # a small loop on top of its own box, to the right of the arriving arcs
            arc = Arc((blue + 0.13, BOX_TOP + 0.09), 0.2, 0.2, theta1=-60, theta2=240)
        else:  # a half ellipse over the words between, higher the farther it reaches
            start = blue - 0.08  # all three leave blue's box at one point, just left of its centre
            span = abs(start - j)
            arc = Arc(((start + j) / 2, BOX_TOP), span, 0.34 * span, theta1=0, theta2=180)
        arc.set(color=ink(), linewidth=LINE_WIDTH * weight, capstyle="butt")
        ax.add_patch(arc)

    # The sentence, once, and the weight below each word.
    box = dict(boxstyle="round,pad=0.35", facecolor="none", edgecolor=ink())
    for j, (word, weight) in enumerate(zip(SOURCE_WORDS, weights[blue])):
        query = j == blue
        ax.text(j, 0.0, word, ha="center", va="center", fontsize=17,
                weight="bold" if query else "normal",
                bbox=dict(box, edgecolor=HIGHLIGHT, linewidth=2.5) if query else box)
        ax.text(j, -0.27, f"{weight:.2f}", ha="center", va="center", fontsize=15)

    ax.text((n - 1) / 2, 0.80, text["title"], ha="center", va="center", fontsize=15)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_blue_attends_in_sentence.py zh
    draw(lang).savefig(f"fig_blue_attends_in_sentence.{lang}.svg")

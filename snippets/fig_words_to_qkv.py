"""From words to rows: X, then Q, K and V for "The ball is blue".

X is each word's embedding plus its position encoding: four named features
(thing, colour, article, verb) and two columns of position. The three linear
layers turn X into a query (how much the word wants a word of each kind), a
key (how much it is of each kind) and a value (what it hands over). Each row
belongs to one word; the row of "blue" is outlined throughout.
"""

import sys

import matplotlib.pyplot as plt

from plotting import heatmap, use_language
from running_example import (DIMENSIONS, FEATURES, POSITION, SOURCE_WORDS, VALUES, encoder_input,
                             project)

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"x": "X\nembedding + position", "q": "Q = X·W_Q\nwants a …",
           "k": "K = X·W_K\nis a …", "v": "V = X·W_V\nhands over",
           "dimensions": DIMENSIONS, "features": FEATURES, "values": VALUES},
    "zh": {"x": "X\n嵌入 + 位置编码", "q": "Q = X·W_Q\n想要……",
           "k": "K = X·W_K\n是……", "v": "V = X·W_V\n交出……",
           "dimensions": ["事物", "颜色", "冠词", "动词"] + POSITION,
           "features": ["事物", "颜色", "冠词", "动词"], "values": ["事物", "颜色", "功能词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    x = encoder_input(SOURCE_WORDS)  # (n, d_model) = (4, 6)
    q, k, v = project(x)  # (4, 4), (4, 4), (4, 3)
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 4, figsize=(9.5, 3.4), width_ratios=[6, 4, 4, 3],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.2)  # room above the titles
    panels = [(x, text["dimensions"], text["x"]), (q, text["features"], text["q"]),
              (k, text["features"], text["k"]), (v, text["values"], text["v"])]
    for ax, (matrix, columns, title) in zip(axes, panels):
        heatmap(ax, matrix, SOURCE_WORDS, columns, "vector", fmt="{:.1f}",
                highlight_rows=[blue], title=title)
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_words_to_qkv.py zh
    draw(lang).savefig(f"fig_words_to_qkv.{lang}.svg")

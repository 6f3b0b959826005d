"""Attention adds to the row of "blue"; it does not replace it.

Four rows of the six columns of X, top to bottom: blue's row x as it enters
attention; Z·W_O, blue's attention output brought to the width of x by W_O
(mostly the Value of "ball", written into "thing"); their sum x + Z·W_O, the
residual connection; and that sum after layer normalisation (no learned scale
or shift), the row the next sub-layer reads. "blue" keeps its colour and
gains "a thing".
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import add_and_norm, scaled_dot_product_attention
from plotting import heatmap, use_language, weighted_sums
from running_example import DIMENSIONS, POSITION, SOURCE_WORDS, VALUES, W_O, encoder_input, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"x": "x: the row of blue as it enters attention",
           "added": "Z·W_O: what attention adds (mostly the Value of ball)",
           "summed": "x + Z·W_O: the residual connection adds the two",
           "normed": "LayerNorm(x + Z·W_O): the row the next sub-layer reads",
           "dimensions": DIMENSIONS},
    "zh": {"x": "x：blue 进入注意力时的那一行",
           "added": "Z·W_O：注意力加上的东西（主要是 ball 的值）",
           "summed": "x + Z·W_O：残差连接把两者相加",
           "normed": "层规范化后的 x + Z·W_O：下一个子层读到的行",
           "dimensions": ["事物", "颜色", "冠词", "动词"] + POSITION},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    x = encoder_input(SOURCE_WORDS)  # (n, d_model)
    z, _ = scaled_dot_product_attention(*source_qkv())  # (n, d_v)
    blue = SOURCE_WORDS.index("blue")
    x_blue, z_blue = x[[blue]], z[[blue]]  # (1, d_model), (1, d_v)
    added = z_blue @ W_O  # (1, d_model)
    rows = [
        (x_blue, text["x"], None),
        (added, text["added"], weighted_sums(z_blue, W_O, VALUES, names=("z", "W_O"))),
        (x_blue + added, text["summed"],  # 1·x + 1·(Z·W_O), cell by cell
         weighted_sums(np.ones((1, 2)), np.vstack([x_blue, added]), ["x", "Z·W_O"], names=("1", "row"))),
        (add_and_norm(x_blue, added), text["normed"], None),
    ]

    fig, axes = plt.subplots(len(rows), 1, figsize=(6.4, 5.4), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1)
    for ax, (row, title, computed) in zip(axes, rows):
        heatmap(ax, row, ["blue"], text["dimensions"], "vector", highlight_cells=[(0, 0), (0, 1)],
                title=title, computed_as=computed)  # outlined: thing and colour
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_blue_residual_stream.py zh
    draw(lang).savefig(f"fig_blue_residual_stream.{lang}.svg")

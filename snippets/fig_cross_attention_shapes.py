"""Encoder-decoder attention between sentences of different lengths.

"The ball is blue" (4 source words) translated as "La bola es de color azul"
(6 target words). Q has one row per target word, K one row per source word,
so the attention weights form a 6 x 4 matrix: target rows, source columns.
The row of "azul" is outlined.
"""

import sys

import matplotlib.pyplot as plt

from attention import scaled_dot_product_attention
from plotting import heatmap, softmax_rows, use_language
from running_example import FEATURES, LONG_TARGET_WORDS, SOURCE_WORDS, cross_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"q": "Q, target {rows}×{cols}", "k": "K, source {rows}×{cols}",
           "weights": "weights {rows}×{cols}", "features": FEATURES},
    "zh": {"q": "Q，目标句 {rows}×{cols}", "k": "K，源句 {rows}×{cols}",
           "weights": "权重 {rows}×{cols}", "features": ["事物", "颜色", "冠词", "动词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = cross_qkv(LONG_TARGET_WORDS, SOURCE_WORDS)  # q (6, 4); k (4, 4); v (4, 3)
    _, weights = scaled_dot_product_attention(q, k, v)  # (6, 4)
    azul = LONG_TARGET_WORDS.index("azul")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.6), width_ratios=[3, 3, 4],
                             layout="constrained")
    heatmap(axes[0], q, LONG_TARGET_WORDS, text["features"], "vector", fmt="{:.0f}",
            highlight_rows=[azul], title=text["q"].format(rows=q.shape[0], cols=q.shape[1]))
    heatmap(axes[1], k, SOURCE_WORDS, text["features"], "vector", fmt="{:.0f}",
            title=text["k"].format(rows=k.shape[0], cols=k.shape[1]))
    axes[1].set_ylim(len(LONG_TARGET_WORDS) - 0.5, -0.5)  # same cell size as the other panels
    heatmap(axes[2], weights, LONG_TARGET_WORDS, SOURCE_WORDS, "weight", highlight_rows=[azul],
            title=text["weights"].format(rows=weights.shape[0], cols=weights.shape[1]),
            computed_as=softmax_rows(q @ k.T, d_k=q.shape[1]))
    for ax in axes[:2]:  # upright Chinese feature names fit the cells; English ones need turning
        ax.tick_params(axis="x", labelrotation=90 if lang == "en" else 0)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_cross_attention_shapes.py zh
    draw(lang).savefig(f"fig_cross_attention_shapes.{lang}.svg")

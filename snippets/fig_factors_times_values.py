"""The factor matrix times V: each word's output row, as the article computes it.

QKᵀ (rows = query words, columns = key words) times V (one row per word)
gives one output row per query word. The row of "blue" is outlined: it is
blue's row of factors times the whole of V. Scaling and softmax are left
out here, as in the article at this step, so the outputs are large.
"""

import sys

import matplotlib.pyplot as plt

from plotting import dot_products, heatmap, use_language, weighted_sums
from running_example import SOURCE_WORDS, VALUES, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"factors": "QKᵀ (factor matrix)", "values": VALUES},
    "zh": {"factors": "QKᵀ（因子矩阵）", "values": ["事物", "颜色", "功能词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, v = source_qkv()  # (n, d_k), (n, d_k), (n, d_v)
    factors = q @ k.T  # (n, n)
    raw_output = factors @ v  # (n, d_v): one row per query word
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.2), width_ratios=[4, 3, 3],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1, w_pad=0.15)
    heatmap(axes[0], factors, SOURCE_WORDS, SOURCE_WORDS, "score",
            highlight_rows=[blue], fmt="{:.0f}", title=text["factors"],
            computed_as=dot_products(q, k))
    heatmap(axes[1], v, SOURCE_WORDS, text["values"], "vector", fmt="{:.0f}", title="V")
    heatmap(axes[2], raw_output, SOURCE_WORDS, text["values"], "vector", fmt="{:.0f}",
            highlight_rows=[blue], title="(QKᵀ) V",
            computed_as=weighted_sums(factors, v, SOURCE_WORDS, names=("f", "v")))
    for ax in axes[1:]:
        ax.tick_params(axis="x", labelrotation=90)
    for left, sign in [(axes[0], "×"), (axes[1], "=")]:
        left.annotate(sign, xy=(1.0, 0.5), xycoords="axes fraction", xytext=(16, 0),
                      textcoords="offset points", ha="center", va="center", fontsize=16)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_factors_times_values.py zh
    draw(lang).savefig(f"fig_factors_times_values.{lang}.svg")

"""Q times Kᵀ, with the numbers of the running example.

Q has one row per query word, Kᵀ one column per key word, so their product
QKᵀ has one row per query word and one column per key word. The row of
"blue" is outlined in Q and in QKᵀ: it is made from blue's query row and
every column of Kᵀ.
"""

import sys

import matplotlib.pyplot as plt

from plotting import dot_products, heatmap, use_language
from running_example import FEATURES, SOURCE_WORDS, source_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"q": "Q: wants a …", "kt": "Kᵀ: is a …", "factors": "QKᵀ (factor matrix)",
           "features": FEATURES},
    "zh": {"q": "Q：想要……", "kt": "Kᵀ：是……", "factors": "QKᵀ（因子矩阵）",
           "features": ["事物", "颜色", "冠词", "动词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    q, k, _ = source_qkv()  # (n, d_k) each
    factors = q @ k.T  # (n, n): rows = queries, columns = keys
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.3), width_ratios=[3, 4, 4],
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.1, w_pad=0.15)
    heatmap(axes[0], q, SOURCE_WORDS, text["features"], "vector", fmt="{:.0f}",
            highlight_rows=[blue], title=text["q"])
    axes[0].tick_params(axis="x", labelrotation=90)
    heatmap(axes[1], k.T, text["features"], SOURCE_WORDS, "vector", fmt="{:.0f}", title=text["kt"])
    heatmap(axes[2], factors, SOURCE_WORDS, SOURCE_WORDS, "score",
            highlight_rows=[blue], fmt="{:.0f}", title=text["factors"], computed_as=dot_products(q, k))
    for left, sign in [(axes[0], "×"), (axes[1], "=")]:
        left.annotate(sign, xy=(1.0, 0.5), xycoords="axes fraction", xytext=(14, 0),
                      textcoords="offset points", ha="center", va="center", fontsize=16)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_query_times_key.py zh
    draw(lang).savefig(f"fig_query_times_key.{lang}.svg")

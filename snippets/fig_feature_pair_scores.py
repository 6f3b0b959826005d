"""What separate query and key weights buy: the table of scores between kinds of word.

A score is x_i W_Q W_Kᵀ x_jᵀ, so the matrix A = W_Q W_Kᵀ says how much a word
with feature r (row) scores a word with feature c (column). Left: A for the
running example's separate W_Q and W_K; a colour wants a thing (4), but a
thing wants a colour only 3, and the table is not symmetric. Right: the
table if the keys reused the query weights, A = W_Q W_Qᵀ: symmetric, with
nothing negative on its diagonal, so every relation runs both ways and every
word is drawn to its own kind. Only the four named features are shown; the
position rows and columns are zero in both.
"""

import sys

import matplotlib.pyplot as plt

from plotting import dot_products, heatmap, use_language
from running_example import FEATURES, W_K, W_Q

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"features": FEATURES, "separate": "separate: W_Q W_Kᵀ",
           "shared": "shared: W_Q W_Qᵀ",
           "query": "query word is a …", "key": "key word is a …"},
    "zh": {"features": ["事物", "颜色", "冠词", "动词"], "separate": "权重各自独立：W_Q W_Kᵀ",
           "shared": "键沿用查询权重：W_Q W_Qᵀ",
           "query": "查询词是……", "key": "键词是……"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    n = len(FEATURES)
    separate = (W_Q @ W_K.T)[:n, :n]  # (features, features): query feature × key feature
    shared = (W_Q @ W_Q.T)[:n, :n]  # what A would be with W_K = W_Q
    colour, thing = FEATURES.index("colour"), FEATURES.index("thing")

    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.6), layout="constrained")
    features = text["features"]
    heatmap(axes[0], separate, features, features, "score", fmt="{:.0f}",
            highlight_cells=[(colour, thing), (thing, colour)], title=text["separate"],
            row_title=text["query"], col_title=text["key"],
            computed_as=dot_products(W_Q[:n], W_K[:n], names=("W_Q", "W_K")))
    heatmap(axes[1], shared, features, features, "score", fmt="{:.0f}",
            highlight_cells=[(colour, thing), (thing, colour)], title=text["shared"],
            col_title=text["key"], computed_as=dot_products(W_Q[:n], W_Q[:n], names=("W_Q", "W_Q")))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_feature_pair_scores.py zh
    draw(lang).savefig(f"fig_feature_pair_scores.{lang}.svg")

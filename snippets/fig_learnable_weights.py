"""The parameters that training adjusts: W_e, W_Q, W_K and W_V, written by hand here.

W_e holds one embedding row per vocabulary word, English and Spanish in one
table. W_Q turns a word's features into what it wants (rows: its features;
columns: the kinds of word it looks for); W_K turns them into what it is;
W_V into what it hands over. The two position rows are all zero: in this
toy, attention looks at what the words are, not where they stand.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import heatmap, use_language
from running_example import DIMENSIONS, EMBEDDINGS, FEATURES, POSITION, VALUES, W_K, W_Q, W_V

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"w_e": "W_e\nembedding", "w_q": "W_Q\nwants a …", "w_k": "W_K\nis a …",
           "w_v": "W_V\nhands over",
           "dimensions": DIMENSIONS, "features": FEATURES, "values": VALUES},
    "zh": {"w_e": "W_e\n嵌入", "w_q": "W_Q\n想要……", "w_k": "W_K\n是……",
           "w_v": "W_V\n交出……",
           "dimensions": ["事物", "颜色", "冠词", "动词"] + POSITION,
           "features": ["事物", "颜色", "冠词", "动词"], "values": ["事物", "颜色", "功能词"]},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    vocab = list(EMBEDDINGS)
    w_e = np.array([EMBEDDINGS[word] for word in vocab])  # (vocab, d_model)

    fig, axes = plt.subplots(1, 4, figsize=(9.5, 4.4), width_ratios=[6, 4, 4, 3],
                             layout="constrained")
    heatmap(axes[0], w_e, vocab, text["dimensions"], "vector", fmt="{:.0f}", title=text["w_e"])
    panels = [(W_Q, text["features"], text["w_q"]), (W_K, text["features"], text["w_k"]),
              (W_V, text["values"], text["w_v"])]
    for ax, (w, columns, title) in zip(axes[1:], panels):
        heatmap(ax, w, text["dimensions"], columns, "vector", fmt="{:.0f}", title=title)
    for ax in axes:  # column names run top to bottom: Latin turned, Chinese stacked upright
        names = [label.get_text() for label in ax.get_xticklabels()]
        ax.set_xticks(range(len(names)), labels=["\n".join(n) if is_chinese(n) else n for n in names])
        for label, name in zip(ax.get_xticklabels(), names):
            label.set_rotation(0 if is_chinese(name) else 90)
    return fig


def is_chinese(text):
    """True if `text` holds a Chinese character (written upright, one under the other)."""
    return any("\u4e00" <= character <= "\u9fff" for character in text)


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_learnable_weights.py zh
    draw(lang).savefig(f"fig_learnable_weights.{lang}.svg")

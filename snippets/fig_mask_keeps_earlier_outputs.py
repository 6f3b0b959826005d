"""A later word cannot reach an earlier output: with the look-ahead mask, the prefix gives the same rows.

The decoder reads "La bola es azul" during training, but when it writes the
sentence it has only "La bola es" at the moment it chooses the fourth word.
Each panel shows, for the three words they share, how far each row of the
attention output Z moves between the two: the largest change of any entry
of the row. With the look-ahead mask (left) no row moves; without it
(right) the rows change when "azul" is added after them.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import look_ahead_mask, scaled_dot_product_attention
from plotting import heatmap, use_language
from running_example import TARGET_WORDS, target_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"with": "with the mask", "without": "without", "change": "largest change"},
    "zh": {"with": "加前瞻掩码", "without": "不加掩码", "change": "最大变化"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    prefix = TARGET_WORDS[:-1]  # what the decoder has when it chooses "azul"
    n = len(prefix)
    fig, axes = plt.subplots(1, 2, figsize=(5.2, 2.9), layout="constrained")
    for ax, masked, title in [(axes[0], True, text["with"]), (axes[1], False, text["without"])]:
        z_full, _ = scaled_dot_product_attention(
            *target_qkv(TARGET_WORDS), mask=look_ahead_mask(4) if masked else None)  # (4, d_v)
        z_prefix, _ = scaled_dot_product_attention(
            *target_qkv(prefix), mask=look_ahead_mask(n) if masked else None)  # (3, d_v)
        change = np.abs(z_full[:n] - z_prefix).max(axis=1, keepdims=True)  # (3, 1)
        heatmap(ax, change, prefix, [text["change"]], "vector", highlight_rows=range(n),
                title=title)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_mask_keeps_earlier_outputs.py zh
    draw(lang).savefig(f"fig_mask_keeps_earlier_outputs.{lang}.svg")

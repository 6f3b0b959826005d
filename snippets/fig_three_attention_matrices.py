"""The three attention modules of the Transformer, one function, three inputs.

The attention weights of the running example in each module: (1) encoder
self-attention, source rows and columns; (2) decoder self-attention with the
look-ahead mask, target rows and columns, masked cells grey and hatched,
their weights exactly 0; (3) encoder-decoder attention, target rows and
source columns. The row of "blue" or "azul" is outlined.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import scaled_dot_product_attention
from plotting import heatmap, softmax_rows, use_language
from running_example import SOURCE_WORDS, TARGET_WORDS, cross_qkv, source_qkv, target_qkv

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"encoder": "1  source → source", "decoder": "2  target → target",
           "cross": "3  target → source"},
    "zh": {"encoder": "1  源句 → 源句", "decoder": "2  目标句 → 目标句",
           "cross": "3  目标句 → 源句"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    n_t = len(TARGET_WORDS)
    mask = np.tril(np.ones((n_t, n_t), dtype=bool))  # look-ahead mask
    _, w_enc = scaled_dot_product_attention(*source_qkv())  # (n_source, n_source)
    _, w_dec = scaled_dot_product_attention(*target_qkv(), mask=mask)  # (n_target, n_target)
    _, w_cross = scaled_dot_product_attention(*cross_qkv())  # (n_target, n_source)
    blue, azul = SOURCE_WORDS.index("blue"), TARGET_WORDS.index("azul")
    # What each softmax was applied to: q · k / √d_k, queries on rows, keys on columns.
    scores = {name: softmax_rows(q @ k.T, d_k=k.shape[1])
              for name, (q, k, _) in [("enc", source_qkv()), ("dec", target_qkv()), ("cross", cross_qkv())]}

    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.3), layout="constrained")
    heatmap(axes[0], w_enc, SOURCE_WORDS, SOURCE_WORDS, "weight", highlight_rows=[blue],
            title=text["encoder"], computed_as=scores["enc"])
    heatmap(axes[1], w_dec, TARGET_WORDS, TARGET_WORDS, "weight", highlight_rows=[azul],
            title=text["decoder"], mask=mask, masked_label="0", computed_as=scores["dec"])
    heatmap(axes[2], w_cross, TARGET_WORDS, SOURCE_WORDS, "weight", highlight_rows=[azul],
            title=text["cross"], computed_as=scores["cross"])
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_three_attention_matrices.py zh
    draw(lang).savefig(f"fig_three_attention_matrices.{lang}.svg")

"""Weight against what is added, in all-MiniLM-L6-v2 on "The black cat drank the milk".

What key j adds to a row is its weight times its value after W_O, α_j·v_j·W_O;
Kobayashi et al. (2020) weigh attention by the length of that vector, weight ×
value length. Top: the row of "milk" in layer 2, head 0 (where "milk" gives
"drank" the most), each key's share by weight beside its share by weight × value
length (a share of the lengths, not of the vector they add up to). Bottom: the
share of the words' rows that goes to [CLS] and [SEP], by weight and by weight ×
value length, averaged over the 12 heads of each layer.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

import minilm
from minilm_heads import (DRANK, MILK, SENTENCE, TOKENS, shares_of_what_is_added, special_share,
                          special_share_of_what_is_added, strongest_head, value_lengths)
from plotting import HIGHLIGHT, ink, use_language

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"row": "layer {layer}, head {head}: the row of milk", "weight": "by weight",
           "added": "by weight × value length", "special": "[CLS] and [SEP], mean over the heads",
           "layer": "layer", "share": "share of a row"},
    "zh": {"row": "第 {layer} 层，头 {head}：milk 那一行", "weight": "按权重",
           "added": "按权重 × 值向量长度", "special": "[CLS] 和 [SEP]：每层各头的平均",
           "layer": "层", "share": "占一行的份额"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    layer, head = strongest_head(MILK, DRANK)
    _, weights = minilm.attention_weights(SENTENCE)  # (6, 12, 8, 8)
    row = weights[layer, head, MILK]  # (8,)
    added = shares_of_what_is_added(row, value_lengths(layer, head))  # (8,)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.8, 5.6), layout="constrained", height_ratios=[3, 2])
    x = np.arange(len(TOKENS))
    top.bar(x - 0.2, row, width=0.4, color=ink(), label=text["weight"])
    top.bar(x + 0.2, added, width=0.4, color=HIGHLIGHT, label=text["added"])
    top.set_xticks(x, TOKENS, rotation=45, ha="right")
    top.set_title(text["row"].format(layer=layer, head=head))
    top.legend(frameon=False, loc="upper right")
    layers = np.arange(weights.shape[0])
    bottom.plot(layers, special_share(weights).mean(axis=1), color=ink(), linewidth=1.5, marker="o",
                markersize=4, label=text["weight"])
    bottom.plot(layers, special_share_of_what_is_added().mean(axis=1), color=HIGHLIGHT, linewidth=2.5,
                marker="o", markersize=4, label=text["added"])
    bottom.set_title(text["special"])
    bottom.set_xticks(layers)
    bottom.set_xlabel(text["layer"])
    bottom.legend(frameon=False, loc="upper right", ncols=2)
    for ax in (top, bottom):
        ax.set_ylim(0, 1)
        ax.set_yticks([0, 0.5, 1])
        ax.set_ylabel(text["share"])
        ax.spines[["top", "right"]].set_visible(False)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_what_is_added.py zh
    draw(lang).savefig(f"fig_minilm_what_is_added.{lang}.svg")

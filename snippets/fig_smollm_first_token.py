"""Where spare attention goes in a trained decoder and in a trained encoder.

Top: in SmolLM2-135M-Instruct, on "The black cat drank the milk. The black
cat drank the", the share of each row (but the first token's own) that goes
to the first token, averaged over the 9 heads of each layer; and the same
share of what the rows take in, weighing each key by the length of its value
after W_O (Kobayashi et al. 2020). Bottom: in all-MiniLM-L6-v2, on "The black
cat drank the milk", the share of each word's row that goes to [CLS] and [SEP],
averaged over the 12 heads of each layer.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

import minilm
import smollm
from minilm_heads import SENTENCE as ENCODER_SENTENCE
from minilm_heads import special_share
from plotting import HIGHLIGHT, ink, use_language
from smollm_heads import SENTENCE, first_token_share, first_token_share_by_length

# The figure's text in each language.
LABELS = {
    "en": {"decoder": "SmolLM2, a decoder:\nweight on the first token", "weight": "by weight",
           "length": "by weight × value length",
           "encoder": "all-MiniLM-L6-v2, an encoder:\nweight on [CLS] and [SEP]",
           "layer": "layer", "share": "share of a row"},
    "zh": {"decoder": "解码器 SmolLM2：\n第一个词元得到的权重", "weight": "按权重",
           "length": "按权重 × 值向量长度",
           "encoder": "编码器 all-MiniLM-L6-v2：\n[CLS] 和 [SEP] 得到的权重",
           "layer": "层", "share": "占一行的份额"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    _, _, weights, _ = smollm.run(SENTENCE)  # (30, 9, n, n)
    by_weight = first_token_share(weights).mean(axis=1)  # (30,): mean over the heads
    by_length = first_token_share_by_length(SENTENCE).mean(axis=1)
    _, encoder = minilm.attention_weights(ENCODER_SENTENCE)  # (6, 12, n, n)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.8, 6.0), layout="constrained",
                                      height_ratios=[3, 2])
    layers = np.arange(len(by_weight))
    top.plot(layers, by_weight, color=HIGHLIGHT, linewidth=2.5, marker="o", markersize=4, label=text["weight"])
    top.plot(layers, by_length, color=ink(), linewidth=1.5, linestyle="--", label=text["length"])
    top.set_title(text["decoder"])
    top.set_ylim(-0.25, 1)  # room for the legend under the lines
    top.legend(frameon=False, loc="lower right", ncols=2)
    share = special_share(encoder).mean(axis=1)  # (6,)
    bottom.plot(np.arange(len(share)), share, color=HIGHLIGHT, linewidth=2.5, marker="o", markersize=4)
    bottom.set_title(text["encoder"])
    bottom.set_ylim(0, 1)
    for ax, n in ((top, len(layers)), (bottom, len(share))):
        ax.set_yticks([0, 0.5, 1])
        ax.set_xticks(np.arange(0, n, 5 if n > 10 else 1))
        ax.set_xlabel(text["layer"])
        ax.set_ylabel(text["share"])
        ax.spines[["top", "right"]].set_visible(False)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_first_token.py zh
    draw(lang).savefig(f"fig_smollm_first_token.{lang}.svg")

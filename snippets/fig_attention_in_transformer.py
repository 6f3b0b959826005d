"""The three places where a translation Transformer uses attention.

A simplified encoder-decoder Transformer, drawn with boxes and arrows: the
encoder reads "The ball is blue"; the decoder writes "La bola es azul",
reading, in training, the same sentence shifted one place to the right
behind a start token, and predicting each next word. The
three attention modules are filled and numbered: (1) self-attention in every
encoder, source to source; (2) masked self-attention in every decoder,
target to target; (3) encoder-decoder attention in every decoder, target to
source, with its Keys and Values coming from the encoder. Residual
connections and layer normalisation are left out.
"""

import sys

import matplotlib.pyplot as plt
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch

from plotting import ink, use_language
from running_example import SOURCE_WORDS, TARGET_WORDS, shift_right

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"embedding": "embedding + position", "encoder": "encoder × N",
           "self": "self-attention", "feed": "feed-forward", "decoder": "decoder × N",
           "masked": "masked self-attention", "cross": "encoder-decoder attention",
           "linear": "linear + softmax", "next": "(each next word)", "attention": "attention",
           "source_source": "source → source", "target_target": "target → target",
           "target_source": "target → source"},
    "zh": {"embedding": "嵌入 + 位置编码", "encoder": "编码器 × N",
           "self": "自注意力", "feed": "前馈网络", "decoder": "解码器 × N",
           "masked": "掩蔽自注意力", "cross": "编码器-解码器注意力",
           "linear": "线性层 + softmax", "next": "（逐个预测下一个词）", "attention": "注意力",
           "source_source": "源句 → 源句", "target_target": "目标句 → 目标句",
           "target_source": "目标句 → 源句"},
}

# Fills of the three attention modules (light, so black text reads on them
# in the light and the dark colour scheme alike), and the key of their legend label.
MODULES = {
    1: ("#a5d8ff", "source_source"),
    2: ("#b2f2bb", "target_target"),
    3: ("#ffd8a8", "target_source"),
}


def box(ax, x, y, width, height, text, module=None, dashed=False):
    """A rounded box with centred text; attention modules are filled and numbered."""
    fill = MODULES[module][0] if module else "none"
    ax.add_patch(FancyBboxPatch((x, y), width, height, boxstyle="round,pad=0,rounding_size=1.2",
                                facecolor=fill, edgecolor=ink(),
                                linewidth=1.0 if dashed else 1.4,
                                linestyle="--" if dashed else "-"))
    if text:
        ax.text(x + width / 2, y + height / 2, text, ha="center", va="center", fontsize=10,
                color="black" if module else None)
    if module:
        badge(ax, x + width, y + height, module)


def badge(ax, x, y, module):
    """A numbered circle in the colour of an attention module."""
    ax.add_patch(Circle((x, y), 2.3, facecolor=MODULES[module][0], edgecolor=ink(),
                        linewidth=1.2, zorder=3))
    ax.text(x, y, str(module), ha="center", va="center", fontsize=10, fontweight="bold",
            color="black", zorder=4)


def arrow(ax, start, end, **style):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12,
                                 color=ink(), linewidth=1.2, shrinkA=0, shrinkB=0, **style))


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    fig, ax = plt.subplots(figsize=(8.5, 4.6), layout="constrained")
    ax.set_xlim(0, 150)
    ax.set_ylim(0, 80)
    ax.set_aspect("equal")
    ax.axis("off")

    # Encoder: source words -> embedding + position -> N encoder layers.
    ax.text(25, 2, " ".join(SOURCE_WORDS), ha="center", va="center", fontsize=10, style="italic")
    arrow(ax, (25, 4.5), (25, 8))
    box(ax, 8, 8, 34, 7, text["embedding"])
    arrow(ax, (25, 15), (25, 22))
    box(ax, 4, 18, 42, 34, "", dashed=True)
    ax.text(6, 49, text["encoder"], ha="left", va="center", fontsize=10)
    box(ax, 8, 22, 34, 8, text["self"], module=1)
    arrow(ax, (25, 30), (25, 36))
    box(ax, 8, 36, 34, 8, text["feed"])

    # Decoder: target words -> embedding + position -> N decoder layers.
    ax.text(85, 2, " ".join(shift_right(TARGET_WORDS)), ha="center", va="center", fontsize=10, style="italic")
    arrow(ax, (85, 4.5), (85, 8))
    box(ax, 66, 8, 38, 7, text["embedding"])
    arrow(ax, (85, 15), (85, 22))
    box(ax, 62, 18, 46, 48, "", dashed=True)
    ax.text(64, 63, text["decoder"], ha="left", va="center", fontsize=10)
    box(ax, 66, 22, 38, 8, text["masked"], module=2)
    arrow(ax, (85, 30), (85, 36))
    ax.text(86.5, 33, "Q", ha="left", va="center", fontsize=10)
    box(ax, 66, 36, 38, 8, text["cross"], module=3)
    arrow(ax, (85, 44), (85, 50))
    box(ax, 66, 50, 38, 8, text["feed"])
    arrow(ax, (85, 66), (85, 69))
    box(ax, 66, 69, 38, 7, text["linear"])
    ax.text(106, 74.5, "→ La bola es azul", ha="left", va="center", fontsize=10, style="italic")
    ax.text(108, 70.5, text["next"], ha="left", va="center", fontsize=9)

    # The encoder's output feeds every decoder's encoder-decoder attention.
    ax.plot([25, 25, 54, 54], [52, 58, 58, 40], color=ink(), linewidth=1.2,
            solid_joinstyle="round")
    arrow(ax, (54, 40), (66, 40))
    ax.text(56, 42.5, "K, V", ha="left", va="center", fontsize=10)

    # Legend: what each numbered module relates to what.
    ax.text(112, 40, text["attention"], ha="left", va="center", fontsize=10, fontweight="bold")
    for module, (_, label) in MODULES.items():
        y = 40 - 7 * module
        badge(ax, 114.5, y, module)
        ax.text(119, y, text[label], ha="left", va="center", fontsize=10)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_attention_in_transformer.py zh
    draw(lang).savefig(f"fig_attention_in_transformer.{lang}.svg")

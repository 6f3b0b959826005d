"""The same sentence, two trained translators: without and with self-attention in the encoder.

Both translate the held-out "The dog sees the blue ball" into "El perro ve la
bola azul". Top: the encoder-decoder attention of the translator of the
encoder-decoder chapter, whose encoder has no self-attention; its rows look at
the words they translate. Bottom: the same model with a self-attention
sublayer in its encoder (the seed, of ten, whose rows look at their own word
least often: an extreme run, not a typical one; most runs still look at
their words); the row that writes "perro" looks at "ball", and the
translation is just as right. The row of "perro" is outlined in both.
"""

import sys

import matplotlib.pyplot as plt

from plotting import heatmap, softmax_rows, use_language
from tiny_translator import D_MODEL, EXAMPLES, cross_attention, train

MIXED_SEED = 6  # of seeds 0-9, the one whose rows look at their own word least often (tests/test_tiny_translator.py)

# The figure's text in each language (the words of the sentences are data).
LABELS = {
    "en": {"plain": "encoder without self-attention", "mixed": f"encoder with self-attention (seed {MIXED_SEED})",
           "query": "Spanish word written", "key": "English word (key)"},
    "zh": {"plain": "编码器没有自注意力", "mixed": f"编码器有自注意力（种子 {MIXED_SEED}）",
           "query": "写出的西班牙语词", "key": "英语词（键）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    english = EXAMPLES[0]  # "The dog sees the blue ball", held out from training
    models = [(train(), text["plain"]), (train(MIXED_SEED, encoder_self_attention=True), text["mixed"])]

    fig, axes = plt.subplots(2, 1, figsize=(4.8, 7.0), layout="constrained")
    for ax, (params, title) in zip(axes, models):
        spanish, q, k, weights = cross_attention(english, params)  # weights (n_spanish, n_english)
        heatmap(ax, weights, spanish, english.split(), "weight", highlight_rows=[spanish.index("perro")],
                title=title, row_title=text["query"], col_title=text["key"],
                computed_as=softmax_rows(q @ k.T, d_k=D_MODEL))  # scores q · k before ÷√d_k
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_translator_encoder_self_attention.py zh
    draw(lang).savefig(f"fig_translator_encoder_self_attention.{lang}.svg")

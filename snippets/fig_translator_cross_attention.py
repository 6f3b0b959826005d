"""Where a trained translator's cross-attention looks, on a sentence it never saw in training.

The tiny translator of tiny_translator.py, trained while the site builds,
translates "The dog sees the blue ball" into "El perro ve la bola azul". One
row per Spanish word written (the query of the decoder position that wrote
it), one column per English word (the keys); each cell is an attention
weight. The row that writes "la" is outlined: to choose "la" rather than
"el", it needs the gender of "bola", so it looks ahead, at "ball".
"""

import sys

import matplotlib.pyplot as plt

from plotting import heatmap, softmax_rows, use_language
from tiny_translator import D_MODEL, EXAMPLES, cross_attention

# The figure's text in each language (the words of the sentences are data).
LABELS = {
    "en": {"title": "attention weights on a held-out sentence",
           "query": "Spanish word written (query)", "key": "English word (key)"},
    "zh": {"title": "一个留出句子上的注意力权重",
           "query": "写出的西班牙语词（查询）", "key": "英语词（键）"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    english = EXAMPLES[0]  # "The dog sees the blue ball", never trained on
    spanish, q, k, weights = cross_attention(english)  # q (n_spanish, d), k (n_english, d), weights (n_spanish, n_english)
    la = [word.lower() for word in spanish].index("la")

    fig, ax = plt.subplots(figsize=(4.8, 3.9), layout="constrained")
    heatmap(ax, weights, spanish, english.split(), "weight", highlight_rows=[la],
            title=text["title"], row_title=text["query"], col_title=text["key"],
            computed_as=softmax_rows(q @ k.T, d_k=D_MODEL))  # scores q · k before ÷√d_k
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_translator_cross_attention.py zh
    draw(lang).savefig(f"fig_translator_cross_attention.{lang}.svg")

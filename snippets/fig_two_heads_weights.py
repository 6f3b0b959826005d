"""Two heads, two budgets: the attention weights of each head for "The ball is blue".

Multi-head self-attention with the hand-written weights of
`multi_head_example`: two heads of width d_head = 3. Left, head 0 ("what do
I describe"): "blue" and "The" look at "ball", "ball" looks at "blue", and
"is", which has no wish in this head, spreads its weight evenly. Right,
head 1 ("where is the verb"): every word looks at "is", and "is" looks at
"ball". Rows are query words and columns key words; each row of each head
sums to 1. The row of "blue" is outlined in both.
"""

import sys

import matplotlib.pyplot as plt

from attention import split_heads
from multi_head_example import D_HEAD, N_HEADS, W_K_HEADS, W_Q_HEADS, self_attention
from plotting import heatmap, softmax_rows, use_language
from running_example import SOURCE_WORDS, encoder_input

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"heads": ["head 0: what do I describe", "head 1: where is the verb"],
           "query": "query word", "key": "key word"},
    "zh": {"heads": ["头 0：我描述谁", "头 1：动词在哪里"],
           "query": "查询词", "key": "键词"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    _, weights = self_attention()  # (n_heads, n, n) = (2, 4, 4)
    x = encoder_input(SOURCE_WORDS)  # (n, d_model)
    q = split_heads(x @ W_Q_HEADS, N_HEADS)  # (n_heads, n, d_head)
    k = split_heads(x @ W_K_HEADS, N_HEADS)  # (n_heads, n, d_head)
    blue = SOURCE_WORDS.index("blue")

    fig, axes = plt.subplots(1, N_HEADS, figsize=(7.5, 3.4), layout="constrained")
    for h, ax in enumerate(axes):
        heatmap(ax, weights[h], SOURCE_WORDS, SOURCE_WORDS, "weight", highlight_rows=[blue],
                title=text["heads"][h], row_title=text["query"] if h == 0 else None,
                col_title=text["key"], computed_as=softmax_rows(q[h] @ k[h].T, d_k=D_HEAD))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_two_heads_weights.py zh
    draw(lang).savefig(f"fig_two_heads_weights.{lang}.svg")

"""Four heads of all-MiniLM-L6-v2 that do something we can name.

For "The black cat drank the milk", the head that puts the most weight on
each pattern of `minilm_heads.PATTERNS`: the previous token, the next token,
a determiner's noun, a verb's object (found as "drank" -> "milk": a pair of
words this head matches, not a verb and its object). Rows are query tokens
and columns key tokens; each row is softmax(q·k / √32) over the row's keys
and sums to 1.
The row that shows the pattern best is outlined: "cat" (previous token),
"black" (next token), the first "the" (its noun "cat", past "black") and
"drank" (its object "milk").
"""

import sys

import matplotlib.pyplot as plt

import minilm
from minilm_heads import BLACK, CAT, DRANK, SENTENCE, THE, named_heads
from plotting import heatmap, softmax_rows, use_language

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"previous word": "previous token", "next word": "next token",
           "determiner → noun": "determiner → its noun", "verb → object": "drank → milk",
           "title": "layer {layer}, head {head}: {name}", "query": "query token", "key": "key token"},
    "zh": {"previous word": "前一个词元", "next word": "后一个词元",
           "determiner → noun": "限定词 → 它的名词", "verb → object": "drank → milk",
           "title": "第 {layer} 层，头 {head}：{name}", "query": "查询词元", "key": "键词元"},
}
SHOWN_ROW = {"previous word": CAT, "next word": BLACK, "determiner → noun": THE, "verb → object": DRANK}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    tokens, inputs, weights, _ = minilm.run(SENTENCE)  # weights (layers, heads, n, n)
    fig, axes = plt.subplots(2, 2, figsize=(8.4, 8.4), layout="constrained")
    for ax, (name, (layer, head, _)) in zip(axes.flat, named_heads().items()):
        q, k = minilm.queries_and_keys(inputs[layer], layer)  # (heads, n, d_head) each
        heatmap(ax, weights[layer, head], tokens, tokens, "weight", highlight_rows=[SHOWN_ROW[name]],
                title=text["title"].format(layer=layer, head=head, name=text[name]),
                row_title=text["query"], col_title=text["key"],
                computed_as=softmax_rows(q[head] @ k[head].T, d_k=minilm.D_HEAD))
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_named_heads.py zh
    draw(lang).savefig(f"fig_minilm_named_heads.{lang}.svg")

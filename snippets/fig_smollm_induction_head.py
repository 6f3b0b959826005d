"""Two heads of SmolLM2-135M-Instruct on "The black cat drank the milk. The black cat drank the".

Top: the head with the highest induction score (`smollm_heads.induction_heads`).
The row of the last " the" is outlined: it puts most of its weight on the
first " milk", the token that came after " the" the last time, and most of
the rest on the first token. Bottom: the head that looks most at the token
before (`smollm_heads.previous_token_heads`); the row of " milk" is outlined:
its weight goes to " the". Rows are query tokens, columns key tokens; every
row is softmax(q·k / √64) over the keys up to its own token, and the cells
above the diagonal, later tokens, are masked (the look-ahead mask).
"""

import sys

import matplotlib.pyplot as plt

import smollm
from attention import look_ahead_mask
from plotting import heatmap, softmax_rows, use_language
from smollm_heads import LAST, MILK, SENTENCE, induction_heads, previous_token_heads, query_and_keys

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"induction": "layer {layer}, head {head}: induction head",
           "previous": "layer {layer}, head {head}: previous-token head",
           "query": "query token", "key": "key token"},
    "zh": {"induction": "第 {layer} 层，头 {head}：归纳头",
           "previous": "第 {layer} 层，头 {head}：前一词元头",
           "query": "查询词元", "key": "键词元"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    tokens, _, weights, _ = smollm.run(SENTENCE)  # weights (layers, heads, n, n)
    n = len(tokens)
    shown = [("induction", induction_heads()[0], n + LAST), ("previous", previous_token_heads()[0], MILK)]
    fig, axes = plt.subplots(2, 1, figsize=(4.9, 9.6), layout="constrained")
    for ax, (name, (layer, head), row) in zip(axes, shown):
        q, k = query_and_keys(SENTENCE, layer, head)  # (n, 64) each, RoPE applied
        heatmap(ax, weights[layer, head], tokens, tokens, "weight", highlight_rows=[row],
                title=text[name].format(layer=layer, head=head), row_title=text["query"],
                col_title=text["key"], mask=look_ahead_mask(n), masked_label="", fmt="{:.1f}",
                computed_as=softmax_rows(q @ k.T, d_k=smollm.D_HEAD))
        ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_induction_head.py zh
    draw(lang).savefig(f"fig_smollm_induction_head.{lang}.svg")

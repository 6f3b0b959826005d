"""Three query heads of SmolLM2-135M-Instruct that share one key head and one value head.

Grouped-query attention: in each layer, query heads 3g, 3g + 1 and 3g + 2
read the same keys and values, key/value head g. Shown: the row of the last
" the" in "The black cat drank the milk. The black cat drank the" in the three
heads that share the keys of the strongest induction head
(`smollm_heads.induction_heads`). The keys are the same; the queries differ,
and so do the rows: softmax(q·k / √64) of each head's own query against the
shared keys.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

import smollm
from plotting import heatmap, softmax_rows, use_language
from smollm_heads import LAST, SENTENCE, induction_heads, query_and_keys

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"title": "layer {layer}: three query heads, one key head", "row": "head {head}",
           "query": "query: the last “ the”", "key": "key token"},
    "zh": {"title": "第 {layer} 层：三个查询头，共用一个键头", "row": "头 {head}",
           "query": "查询：最后一个“ the”", "key": "键词元"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    tokens, _, weights, _ = smollm.run(SENTENCE)
    layer, head = induction_heads()[0]
    group = range(head - head % smollm.GROUP, head - head % smollm.GROUP + smollm.GROUP)  # share key head g
    queries = [query_and_keys(SENTENCE, layer, h)[0][LAST] for h in group]  # (64,) each
    _, keys = query_and_keys(SENTENCE, layer, head)  # (n, 64): the same for the three
    fig, ax = plt.subplots(figsize=(4.9, 2.9), layout="constrained")
    heatmap(ax, weights[layer, list(group), LAST], [text["row"].format(head=h) for h in group], tokens, "weight",
            highlight_rows=[list(group).index(head)], title=text["title"].format(layer=layer),
            row_title=text["query"], col_title=text["key"], fmt="{:.1f}",
            computed_as=softmax_rows(np.array(queries) @ keys.T, d_k=smollm.D_HEAD))
    ax.tick_params(axis="x", labelrotation=90)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_shared_keys.py zh
    draw(lang).savefig(f"fig_smollm_shared_keys.{lang}.svg")

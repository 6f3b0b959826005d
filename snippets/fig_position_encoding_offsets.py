"""The sinusoidal position encoding, and what it puts into a score.

Left: the encoding of positions 0-7 with d_model = 8, sine in even columns
and cosine in odd ones, each pair slower than the one before (frequencies 1,
0.1, 0.01, 0.001). Right: the dot product of every position's encoding with
every other's, rows = query positions, columns = key positions. Every
diagonal holds one number: the product depends only on how far apart the two
positions are. The row of position 3 is outlined.
"""

import sys

import matplotlib.pyplot as plt

from plotting import dot_products, heatmap, use_language
from position_encoding import sinusoidal_position_encoding

N_POSITIONS = 8
D_MODEL = 8
ROW = 3  # the query position under discussion

# The figure's text in each language.
LABELS = {
    "en": {"pe": "PE (sin in even columns, cos in odd)", "position": "position",
           "column": "column", "products": "PEᵢ · PEⱼ", "query": "query position i",
           "key": "key position j"},
    "zh": {"pe": "PE（偶数列 sin，奇数列 cos）", "position": "位置", "column": "列",
           "products": "PEᵢ · PEⱼ", "query": "查询位置 i", "key": "键位置 j"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    pe = sinusoidal_position_encoding(N_POSITIONS, D_MODEL)  # (8, 8)
    positions = [str(p) for p in range(N_POSITIONS)]
    columns = [str(c) for c in range(D_MODEL)]

    fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 4.6), layout="constrained")
    heatmap(left, pe, positions, columns, "vector", title=text["pe"],
            row_title=text["position"], col_title=text["column"])
    heatmap(right, pe @ pe.T, positions, positions, "score", highlight_rows=[ROW],
            title=text["products"], row_title=text["query"], col_title=text["key"],
            computed_as=dot_products(pe, pe, names=("PE", "PE")))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_position_encoding_offsets.py zh
    draw(lang).savefig(f"fig_position_encoding_offsets.{lang}.svg")

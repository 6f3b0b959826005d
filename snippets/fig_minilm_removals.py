"""Does all-MiniLM-L6-v2 need its named heads? How far its sentence embeddings turn without them.

Each removal replaces what heads compute, before W_O, at every position: by
zeros (left) or by their mean output over the sentences (right), as
`minilm_heads.removals` does. The measure is the turn of the embedding,
1 − cos between it and the intact model's, averaged over the chapter's
sentence and the first 15 labelled sentences of `dependency_heads`. Bars: the
heads the chapters name, one at a time and all five together. Dots: heads
drawn at random, one and five at a time, five draws each. Most draws of five
turn the embeddings further than the five named heads.
"""

import sys

import matplotlib.pyplot as plt

from dependency_heads import SENTENCES
from minilm_heads import CHAPTER_HEADS, SENTENCE, removals
from plotting import HIGHLIGHT, ink, use_language

# The figure's text in each language; a row's key is its label in `removals`.
LABELS = {
    "en": {"previous token": "previous token", "next token": "next token", "determiner → noun": "determiner → noun",
           "drank → milk": "drank → milk", "object → verb": "object → verb", "all five": "all five",
           "1 at random": "1 at random", "5 at random": "5 at random",
           "zeros": "by zeros", "means": "by means", "turn": "turn, 1 − cos"},
    "zh": {"previous token": "前一词元", "next token": "后一词元", "determiner → noun": "限定词 → 名词",
           "drank → milk": "drank → milk", "object → verb": "宾语 → 动词", "all five": "五个一起",
           "1 at random": "随机 1 个", "5 at random": "随机 5 个",
           "zeros": "换成零", "means": "换成平均输出", "turn": "转过多少：1 − cos"},
}


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    found = removals([SENTENCE] + [s["text"] for s in SENTENCES[:15]])  # as on the page
    named = list(CHAPTER_HEADS) + ["all five"]
    rows = named + ["1 at random", "5 at random"]
    fig, axes = plt.subplots(1, 2, figsize=(4.9, 3.6), sharey=True, sharex=True, layout="constrained")
    for column, (ax, how) in enumerate(zip(axes, ("zeros", "means"))):
        turns = [found[label][column][0] for label in named]
        ax.barh(range(len(named)), turns, height=0.6, color=HIGHLIGHT)
        for i, size in enumerate((1, 5), start=len(named)):
            draws = [found[label][column][0] for label in found if label.startswith(f"{size} at random")]
            ax.scatter(draws, [i] * len(draws), s=28, color=ink(), linewidths=0)
        ax.set_title(text[how])
        ax.set_xlabel(text["turn"])
        ax.set_xlim(0, 0.045)
        ax.set_xticks([0, 0.02, 0.04])
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(axis="y", length=0)
    axes[0].set_yticks(range(len(rows)), labels=[text[row] for row in rows])
    axes[0].invert_yaxis()
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_minilm_removals.py zh
    draw(lang).savefig(f"fig_minilm_removals.{lang}.svg")

"""Milk's query turns towards drank's key: the arrows at four steps, on the plane of drank's and cat's
final keys. In the last panel a dotted line drops from each key onto the query: q · k = |q| × that shadow.
Under each panel, the true cosines (flattened, step 0 looks aligned).
The figure also carries the replay under it: the vectors at every tenth step, fetched on first use.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from plotting import HIGHLIGHT, explorable, ink, use_language
from relevance_training import D_K, SENTENCE, key_plane, train

PANELS = (0, 100, 500, 1500)  # the steps drawn
ZOOM = 15  # step 0 is drawn 15 times larger: every vector is short then
QUERY_COLOUR = "#be4bdb"  # 3 : 1 and more on the light and the dark background
# One colour and line style per key word, the same in every figure of the page.
STYLES = {"drank": (HIGHLIGHT, "-"), "cat": ("#1c7ed6", "--"), "black": (None, ":")}

LABELS = {
    "en": {"step": "step {}", 0: f"short and random (drawn {ZOOM}× larger)", 100: "q lines up with drank's key",
           500: "cat's key turns round", 1500: "shadows on q: drank {drank:.2f}, cat {cat:.2f}",
           "cosines": "true cos: drank {:.2f}, cat {:.2f}, black {:.2f}",
           "replay": {"intro": "Replay the training: move the slider, or use the arrow keys. The arrows are drawn "
                               "as in the figure; the bars are milk's attention weights.",
                      "step": "training step", "start": "Step 0: move the slider."}},
    "zh": {"step": "第 {} 步", 0: f"又短又乱（放大 {ZOOM} 倍画出）", 100: "q 与 drank 的键对齐",
           500: "cat 的键转回来", 1500: "在 q 方向上的影长：drank {drank:.2f}，cat {cat:.2f}",
           "cosines": "真实余弦：drank {:.2f}，cat {:.2f}，black {:.2f}",
           "replay": {"intro": "回放训练：拖动滑块，或者按方向键。箭头的画法与上图相同；条形是 milk 的注意力权重。",
                      "step": "训练步数", "start": "第 0 步：拖动滑块开始回放。"}},
}


def arrow(ax, tip, colour, style, width, label, side=0.0):
    """An arrow from the origin to `tip`, labelled just past its tip (`side`: that far to its right)."""
    ax.annotate("", xy=tip, xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": colour, "linestyle": style,
                                                       "linewidth": width, "shrinkA": 0, "shrinkB": 0})
    along = tip / np.linalg.norm(tip)
    ax.text(*(tip + 0.4 * along + side * np.array([along[1], -along[0]])), label, color=colour,
            ha="center", va="center")


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    run = train()  # trained once per process, then cached
    plane = key_plane(run)
    fig, axes = plt.subplots(2, 2, figsize=(6.4, 6.0), layout="constrained")
    for ax, step in zip(axes.flat, PANELS):
        scale = ZOOM if step == 0 else 1
        q = run.queries[step] @ plane * scale
        for word, (colour, style) in STYLES.items():
            arrow(ax, run.keys[step, SENTENCE.index(word)] @ plane * scale, colour or ink(), style, 2, f"k {word}")
        arrow(ax, q, QUERY_COLOUR, "-", 3, "q milk", side=0.6)
        shadows = {}
        if step == PANELS[-1]:  # each key's shadow on the query's direction, its length from four dimensions
            for word in ("drank", "cat"):
                k = run.keys[step, SENTENCE.index(word)]
                shadows[word] = run.queries[step] @ k / np.linalg.norm(run.queries[step])
                foot = shadows[word] * q / np.linalg.norm(q)
                ax.plot(*np.column_stack([k @ plane, foot]), color=STYLES[word][0], linestyle=":", marker="o",
                        markevery=[1], markersize=4)
        ax.set_title(text["step"].format(step) + "\n" + text[step].format(**shadows), fontsize=10)
        cosines = text["cosines"].format(*run.cosines[step])  # drank, cat, black
        ax.set_xlabel(cosines.replace("-", "\u2212"), fontsize=9)
        ax.axhline(0, color=ink(), linewidth=0.4, alpha=0.4)
        ax.axvline(0, color=ink(), linewidth=0.4, alpha=0.4)
        ax.set(xlim=(-3, 5.4), ylim=(-2.4, 3.4), aspect="equal", xticks=[], yticks=[])
        ax.spines[:].set_visible(False)  # no frame or background, but the label under the panel stays
        ax.patch.set_visible(False)

    steps = np.arange(0, len(run.losses), 10)  # the replay moves 10 training steps at a time
    # Six decimals: the weights the replay computes from them are within 1e-5 of the run's.
    explorable(fig, "training-replay", on_first_use=("steps", "queries", "keys"), text=text["replay"],
               last=steps[-1], every=10, words=SENTENCE, d_k=D_K, plane=plane.round(6), steps=steps,
               queries=run.queries[steps].round(6), keys=run.keys[steps].round(6))
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_query_turns_to_key.py zh
    draw(lang).savefig(f"fig_query_turns_to_key.{lang}.svg")

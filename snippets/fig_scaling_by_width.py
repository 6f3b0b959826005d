"""Why attention divides by √d_k: random queries and keys at widths from 3 to 512.

For each width d_k, draw a query and 10 keys whose entries are independent
with mean 0 and variance 1, many times over, and look at one softmax row:

- the spread (standard deviation) of the dot products q · k, which grows like √d_k;
- the largest of the 10 weights, which goes to 1 without scaling;
- how strongly that weight still responds to its own input s, ∂w/∂s = w(1 − w),
  which goes to 0 without scaling: a saturated softmax passes back almost no gradient.

Dividing by √d_k keeps all three where they are at d_k = 1, whatever the width.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np

from attention import softmax
from plotting import explorable, use_language

WIDTHS = [3, 8, 16, 32, 64, 128, 256, 512]
ORIGINAL = 64  # d_k of the original Transformer: d_model / h = 512 / 8
N_KEYS = 10
TRIALS = 1000

# The figure's text in each language (the words of the sentence are data).
LABELS = {
    "en": {"unscaled": "q·k, unscaled", "spread": "spread (standard deviation)",
           "largest": "largest weight in the row", "gradient": "its derivative w(1 − w)",
           "uniform": "1/{n}: all keys equal"},
    "zh": {"unscaled": "q·k（未缩放）", "spread": "离散程度（标准差）",
           "largest": "一行中最大的权重", "gradient": "它的导数 w(1 − w)",
           "uniform": "1/{n}：所有键平分"},
}


def random_dot_products(d_k, n_keys=N_KEYS, trials=TRIALS, seed=0):
    """q · k for random unit-variance queries and keys.  Returns (trials, n_keys)."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((trials, 1, d_k))  # one query per trial
    k = rng.standard_normal((trials, n_keys, d_k))  # n_keys keys per trial
    return np.sum(q * k, axis=-1)


def softmax_row_statistics(d_k, scaled):
    """Spread of what softmax is given (q · k, or the scores q · k / √d_k if `scaled`),
    mean largest weight and mean w(1 − w) of that weight."""
    logits = random_dot_products(d_k)  # (trials, n_keys)
    if scaled:
        logits = logits / np.sqrt(d_k)  # the scores
    top = softmax(logits, axis=-1).max(axis=-1)  # (trials,)
    return logits.std(), top.mean(), np.mean(top * (1 - top))


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    stats = {scaled: np.array([softmax_row_statistics(d, scaled) for d in WIDTHS])
             for scaled in (False, True)}  # (len(WIDTHS), 3) each
    # Three panels stacked on one axis of widths: narrow enough for a phone's column with
    # every label at 10 pt, and the widths labelled once, at the bottom.
    fig, axes = plt.subplots(3, 1, figsize=(5.0, 6.0), sharex=True, layout="constrained")
    styles = {False: dict(color="#d9480f", marker="o", label=text["unscaled"]),
              True: dict(color="#1971c2", marker="s", label="q·k / √d_k")}
    titles = [text["spread"], text["largest"], text["gradient"]]
    for column, (ax, title) in enumerate(zip(axes, titles)):
        for scaled, style in styles.items():
            ax.plot(WIDTHS, stats[scaled][:, column], **style)
        ax.set_xscale("log", base=2)
        ax.set_title(title, loc="left")
        ax.axvline(ORIGINAL, color=plt.rcParams["text.color"], linewidth=0.8, alpha=0.5)  # the original's d_k
    axes[-1].set_xticks(WIDTHS, labels=[str(d) for d in WIDTHS])
    axes[-1].set_xlabel("d_k")
    axes[0].plot(WIDTHS, np.sqrt(WIDTHS), color=plt.rcParams["text.color"],
                 linestyle=":", label="√d_k")
    axes[0].set_yscale("log", base=2)
    axes[0].set_yticks([1, 4, 16], labels=["1", "4", "16"])
    axes[1].set_ylim(0, 1.02)
    axes[1].axhline(1 / N_KEYS, color=plt.rcParams["text.color"], linestyle=":", linewidth=1)
    axes[1].annotate(text["uniform"].format(n=N_KEYS), xy=(WIDTHS[-1], 1 / N_KEYS), xytext=(0, 4),
                     textcoords="offset points", ha="right")
    axes[2].set_ylim(0, 0.26)
    axes[0].legend(frameon=False, loc="upper left")
    # On the page, under the figure: one of these trials at each width, to explore.
    explorable(fig, "softmax-sharpening", widths=WIDTHS,
               dot_products=[random_dot_products(d)[0] for d in WIDTHS])  # (len(WIDTHS), N_KEYS)
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_scaling_by_width.py zh
    draw(lang).savefig(f"fig_scaling_by_width.{lang}.svg")

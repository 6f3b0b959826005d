"""What SmolLM2-135M-Instruct expects after "The capital of France is": its eight likeliest next tokens.

The last row of the residual stream, after RMSNorm, is multiplied by every
token's embedding: one score per token of the vocabulary, 49,152 in all.
Softmax turns the scores into probabilities that sum to 1; the bars are the
eight largest. A token's text starts with its space (" Paris").
"""

import sys

import matplotlib.pyplot as plt

from plotting import HIGHLIGHT, ink, use_language
from smollm import next_tokens
from smollm_heads import PARIS

# The figure's text in each language (the tokens are data).
LABELS = {
    "en": {"title": "after “The capital of France is”", "x": "probability of being the next token",
           "rest": "the other 49,144 tokens: {p:.2f}"},
    "zh": {"title": "在“The capital of France is”之后", "x": "作为下一个词元的概率",
           "rest": "其余 49144 个词元：{p:.2f}"},
}
SHOWN = 8


def draw(lang="en"):
    use_language(lang)
    text = LABELS[lang]
    ranked = next_tokens(PARIS, SHOWN)  # [(token, probability), ...], best first
    fig, ax = plt.subplots(figsize=(4.6, 3.4), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.3)  # room for the browser's font, which may be wider than DejaVu Sans
    probabilities = [p for _, p in ranked]
    ax.barh(range(SHOWN), probabilities, color=[HIGHLIGHT] + ["#868e96"] * (SHOWN - 1))
    ax.set_yticks(range(SHOWN), labels=[f"“{token}”" for token, _ in ranked])
    ax.invert_yaxis()
    for i, p in enumerate(probabilities):
        ax.text(p + 0.015, i, f"{p:.2f}", va="center")
    ax.text(0.98, 0.05, text["rest"].format(p=1 - sum(probabilities)), transform=ax.transAxes,
            ha="right", va="bottom")
    ax.set_xlim(0, 1)
    ax.set_xlabel(text["x"])
    ax.set_title(text["title"])
    ax.tick_params(axis="y", length=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.spines["left"].set_color(ink())
    return fig


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"  # python fig_smollm_next_token.py zh
    draw(lang).savefig(f"fig_smollm_next_token.{lang}.svg")

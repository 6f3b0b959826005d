"""Change the last target word: with the look-ahead mask, earlier outputs stay put.

"La bola es azul" becomes "La bola es roja". Each panel shows how much every
row of the attention output Z of decoder self-attention moves (Z for "roja"
minus Z for "azul"). With the look-ahead mask (left) the rows of "La",
"bola" and "es" do not move at all; without it (right) every row moves. The
earlier words are outlined.
"""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from attention import scaled_dot_product_attention
from plotting import HIGHLIGHT, heatmap
from running_example import D_V, TARGET_WORDS, target_qkv


def draw():
    changed = TARGET_WORDS[:-1] + ["roja"]  # La bola es roja
    n = len(TARGET_WORDS)
    mask = np.tril(np.ones((n, n), dtype=bool))  # look-ahead mask
    rows = TARGET_WORDS[:-1] + ["azul→roja"]
    dims = [str(i + 1) for i in range(D_V)]

    fig, axes = plt.subplots(1, 2, figsize=(6.8, 3.3), layout="constrained")
    for ax, use_mask, title in [(axes[0], mask, "with mask"), (axes[1], None, "without mask")]:
        z, _ = scaled_dot_product_attention(*target_qkv(TARGET_WORDS), mask=use_mask)  # (4, 3)
        z_changed, _ = scaled_dot_product_attention(*target_qkv(changed), mask=use_mask)
        heatmap(ax, z_changed - z, rows, dims, "vector", title=f"{title}: change in Z")
        ax.add_patch(Rectangle((-0.5, -0.5), D_V, n - 1, fill=False, edgecolor=HIGHLIGHT,
                               linewidth=3, clip_on=False))  # the earlier words
    return fig


if __name__ == "__main__":
    draw().savefig("fig_mask_keeps_earlier_outputs.svg")

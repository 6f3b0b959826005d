"""Drawing helpers shared by every figure of the site.

`heatmap` draws every matrix on the site, so they all look alike: words as
row and column labels, queries on rows and keys on columns, the number in
each cell, one colour scale per kind of quantity (see `SCALES`), the row or
cell under discussion outlined in `HIGHLIGHT`, and masked cells grey and
hatched.

`use_language` sets the fonts for figure text in English or Chinese: every
figure snippet has `draw(lang="en")` and its labels in both languages.
"""

import functools
import importlib.util
import logging
from pathlib import Path

import matplotlib.colors as mcolors
import matplotlib.patches as mpatches
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import font_manager

# One colour scale per kind of quantity, the same on every page.
SCALES = {
    # entries of embeddings, Q, K, V rows and weight matrices
    "vector": {"cmap": "RdBu_r", "vmin": -2.5, "vmax": 2.5},
    # query·key dot products, before scaling and softmax
    "score": {"cmap": "PuOr_r", "vmin": -6.0, "vmax": 6.0},
    # attention weights after softmax, from 0 to 1
    "weight": {"cmap": "Greens", "vmin": 0.0, "vmax": 1.0},
}

HIGHLIGHT = "#f76707"  # orange: visible on white and on dark backgrounds
MASKED = "#dee2e6"  # light grey, hatched: pairs a mask forbids


LANGUAGES = ("en", "zh")

# Fonts with Chinese glyphs, best first; the first one installed is used. The site's
# build gets Noto Sans CJK JP from the pinned package notojp-matplotlib: its glyph set
# covers simplified Chinese too, and every CJK glyph is one em wide in each of these
# fonts, so text laid out with one fits when the browser shows it with another.
CJK_FONTS = ["Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans CJK JP", "Noto Sans SC",
             "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei"]


def use_language(lang):
    """Set matplotlib's fonts for figure text in `lang`, "en" or "zh".

    Both use matplotlib's default sans-serif; Chinese adds a CJK font that
    matplotlib falls back to for the characters the default font lacks.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    plt.rcParams["font.family"] = ["sans-serif"] + ([cjk_font()] if lang == "zh" else [])


@functools.cache
def cjk_font():
    """The name of the first installed font of `CJK_FONTS`."""
    spec = importlib.util.find_spec("notojp_matplotlib")  # found, not imported: it restyles on import
    if spec is not None:
        for path in Path(spec.submodule_search_locations[0]).glob("fonts/*.otf"):
            font_manager.fontManager.addfont(str(path))
    installed = {font.name for font in font_manager.fontManager.ttflist}
    for name in CJK_FONTS:
        if name in installed:
            # A CJK font has one weight, so bold text falls back to 400 for its Chinese
            # characters: the same one-em widths, drawn bold by the browser. Not worth a
            # warning on every bold label.
            logging.getLogger("matplotlib.font_manager").addFilter(_not_a_bold_fallback)
            return name
    raise RuntimeError("no font with Chinese characters is installed: "
                       "`pip install notojp-matplotlib`, or install one of " + ", ".join(CJK_FONTS))


def _not_a_bold_fallback(record):
    return "Failed to find font weight" not in record.getMessage()


def ink():
    """The colour of text and lines outside the cells (black unless restyled)."""
    return plt.rcParams["text.color"]


def heatmap(ax, data, row_labels, col_labels, kind, *, fmt="{:.2f}",
            highlight_rows=(), highlight_cells=(), title=None,
            row_title=None, col_title=None, mask=None, masked_label="–"):
    """Draw a matrix as a labelled grid of coloured, numbered cells.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    data : array_like, shape (n_rows, n_cols)
        The values; rows are queries (or words), columns are keys (or dimensions).
    row_labels, col_labels : sequence of str
        One label per row and per column.
    kind : {"vector", "score", "weight"}
        Which colour scale of `SCALES` to use.
    fmt : str, optional
        Format of the number written in each cell ("-" becomes the minus sign "−");
        "" writes none.
    highlight_rows : sequence of int, optional
        Rows to outline.
    highlight_cells : sequence of (int, int), optional
        Cells (row, column) to outline.
    title, row_title, col_title : str, optional
        Text above the grid, beside the rows and above the columns.
    mask : array_like of bool, optional
        Same shape as `data`; True = "may attend". Cells where it is False are
        drawn grey and hatched, showing `masked_label` instead of a number.
    masked_label : str, optional
        What a masked cell shows, for example "−∞" for scores or "0" for weights.

    Returns
    -------
    matplotlib.image.AxesImage
    """
    data = np.asarray(data, dtype=float) + 0.0  # + 0.0 turns -0.0 into 0.0: no "-0" in a cell
    scale = SCALES[kind]
    image = ax.imshow(data, aspect="equal", **scale)
    n_rows, n_cols = data.shape
    ax.set_xticks(range(n_cols), labels=col_labels)
    ax.set_yticks(range(n_rows), labels=row_labels)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    allowed = np.ones(data.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    for i, j in zip(*np.nonzero(~allowed)):
        ax.add_patch(mpatches.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=MASKED,
                                        edgecolor="#868e96", hatch="///", linewidth=0))
        ax.text(j, i, masked_label, ha="center", va="center", fontsize=10, color="black",
                bbox={"facecolor": MASKED, "edgecolor": "none", "pad": 1})
    if fmt:
        norm = mcolors.Normalize(scale["vmin"], scale["vmax"])
        cmap = plt.get_cmap(scale["cmap"])
        for (i, j), value in np.ndenumerate(data):
            if allowed[i, j]:
                ax.text(j, i, fmt.format(value).replace("-", "−"), ha="center", va="center", fontsize=10,
                        color=_text_colour_on(cmap(norm(value))))
    for i in highlight_rows:
        _outline(ax, -0.5, i - 0.5, n_cols, 1)
    for i, j in highlight_cells:
        _outline(ax, j - 0.5, i - 0.5, 1, 1)
    if title:
        ax.set_title(title, pad=22 if col_labels else 6)
    if row_title:
        ax.set_ylabel(row_title)
    if col_title:
        ax.xaxis.set_label_position("top")
        ax.set_xlabel(col_title)
    return image


def _outline(ax, x, y, width, height):
    ax.add_patch(mpatches.Rectangle((x, y), width, height, fill=False,
                                    edgecolor=HIGHLIGHT, linewidth=3, clip_on=False))


def _text_colour_on(rgba):
    """Black on light cells, white on dark ones (relative luminance)."""
    r, g, b = (c ** 2.2 for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2 else "white"

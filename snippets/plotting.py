"""Drawing helpers shared by every figure of the site.

`heatmap` draws every matrix on the site, so they all look alike: words as
row and column labels, queries on rows and keys on columns, the number in
each cell, one colour scale per kind of quantity (see `SCALES`), the row or
cell under discussion outlined in `HIGHLIGHT`, and masked cells grey and
hatched.

`use_language` sets the fonts for figure text in English or Chinese: every
figure snippet has `draw(lang="en")` and its labels in both languages.

A heatmap can also say how each of its cells was computed: pass
``computed_as=dot_products(q, k)`` (or `softmax_rows`, `weighted_sums`,
`products`) with the arrays the cells came from. `heatmap` checks that they
reproduce the cells, and `figure_data(fig)` returns every heatmap of a figure
with its numbers, operands and place, for the site's build to write next to
the SVG: pointing at a cell on the page then shows its arithmetic.
"""

import functools
import importlib.util
import logging
import re
import weakref
from pathlib import Path

import matplotlib.colors as mcolors
import matplotlib.patches as mpatches
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import font_manager

from attention import softmax

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
            row_title=None, col_title=None, mask=None, masked_label="–", computed_as=None, name=None):
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
    computed_as : dict, optional
        How the cells were computed: the result of `dot_products`, `softmax_rows`,
        `weighted_sums` or `products`. It must reproduce `data` (to 1e-9) in every
        cell that is not masked.
    name : str, optional
        What the figure's numbers table and a screen reader call the grid when it
        has no `title` drawn above it ("k_ball"); by default "Matrix 1", "Matrix 2", ...

    Returns
    -------
    matplotlib.image.AxesImage
    """
    data = np.asarray(data, dtype=float) + 0.0  # + 0.0 turns -0.0 into 0.0: no "-0" in a cell
    if data.ndim != 2:
        raise ValueError(f"heatmap data must be a matrix (2 dimensions), not shape {data.shape}")
    if kind not in SCALES:
        raise ValueError(f"kind must be one of {', '.join(SCALES)}, not {kind!r}")
    scale = SCALES[kind]
    image = ax.imshow(data, aspect="equal", interpolation="none", **scale)  # one pixel per cell in the SVG
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
                ax.text(j, i, _cell_text(fmt, value), ha="center", va="center", fontsize=10,
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
    if computed_as is not None:
        _check_computation(computed_as, data, allowed)
    if fmt:  # a grid without numbers (a diagram of places) has nothing to explain
        _HEATMAPS.setdefault(ax.get_figure(root=True), []).append({
            "ax": ax, "kind": kind, "rows": [plain_text(r) for r in row_labels],
            "cols": [plain_text(c) for c in col_labels], "title": plain_text(title or name or ""),
            "row_title": plain_text(row_title or ""), "col_title": plain_text(col_title or ""),
            "values": _numbers(data), "mask": None if mask is None else allowed.tolist(),
            "text": [[_cell_text(fmt, v) if ok else masked_label
                      for v, ok in zip(row, row_ok)] for row, row_ok in zip(data, allowed)],
            "highlight": {"rows": [int(i) for i in highlight_rows],
                          "cells": [[int(i), int(j)] for i, j in highlight_cells]},
            "computed_as": computed_as,
        })
    return image


# ---- How a cell was computed: the operands a heatmap's cells came from ----

def dot_products(left, right, names=("q", "k"), d_k=None):
    """Cells that are dot products: cell (i, j) = left[i] · right[j], divided by √d_k if given.

    Parameters
    ----------
    left : array_like, shape (n_rows, d)
        One row per row of the heatmap, for example the queries.
    right : array_like, shape (n_cols, d)
        One row per column of the heatmap, for example the keys.
    names : (str, str), optional
        What the rows are called in the explanation: q_blue · k_ball.
    d_k : int, optional
        Divide every product by √d_k (the scaled scores).

    Examples
    --------
    >>> q, k = np.eye(2), np.array([[1.0, 2.0]])
    >>> dot_products(q, k)["op"]
    'dot'
    """
    left, right = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    if left.ndim != 2 or right.ndim != 2 or left.shape[1] != right.shape[1]:
        raise ValueError(f"dot_products needs (n_rows, d) and (n_cols, d) rows of one width, "
                         f"not shapes {left.shape} and {right.shape}")
    return {"op": "dot", "left": _numbers(left), "right": _numbers(right),
            "names": list(names), "d_k": d_k}


def softmax_rows(scores, d_k=None, factor=None, names=("s",)):
    """Cells that are a softmax along each row of `scores` (divided by √d_k, or times `factor`, first).

    Masked cells (the heatmap's `mask`) are left out of their row's softmax.
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2:
        raise ValueError(f"softmax_rows needs a matrix of scores, not shape {scores.shape}")
    if d_k is not None and factor is not None:
        raise ValueError("softmax_rows takes d_k or factor, not both")
    return {"op": "softmax", "scores": _numbers(scores), "d_k": d_k, "factor": factor,
            "names": list(names)}


def weighted_sums(weights, values, key_labels, names=("w", "v")):
    """Cells that are weighted sums of Value rows: cell (i, m) = Σ_j weights[i, j] · values[j, m].

    `key_labels` names the rows of `values` (the key words).
    """
    weights, values = np.asarray(weights, dtype=float), np.asarray(values, dtype=float)
    if weights.ndim != 2 or values.ndim != 2 or weights.shape[1] != values.shape[0]:
        raise ValueError(f"weighted_sums needs (n_rows, n_keys) weights and (n_keys, d_v) values, "
                         f"not shapes {weights.shape} and {values.shape}")
    if len(key_labels) != values.shape[0]:
        raise ValueError(f"weighted_sums needs one key label per row of values ({values.shape[0]}), "
                         f"not {len(key_labels)}")
    return {"op": "weighted_sum", "weights": _numbers(weights), "values": _numbers(values),
            "keys": [plain_text(k) for k in key_labels], "names": list(names)}


def products(left, right, names=("a", "b")):
    """Cells that are products of two numbers: cell (i, j) = left[i, j] × right[i, j]."""
    left, right = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    if left.shape != right.shape or left.ndim != 2:
        raise ValueError(f"products needs two matrices of one shape, not {left.shape} and {right.shape}")
    return {"op": "product", "left": _numbers(left), "right": _numbers(right), "names": list(names)}


def computed_cells(computed_as, mask=None):
    """The cells that a computation (from `dot_products`, ...) gives, as an array."""
    op = computed_as["op"]
    array = functools.partial(np.array, dtype=float)  # None (not finite) -> NaN
    if op == "dot":
        cells = array(computed_as["left"]) @ array(computed_as["right"]).T
        return cells / np.sqrt(computed_as["d_k"]) if computed_as["d_k"] else cells
    if op == "softmax":
        scores = array(computed_as["scores"])
        if computed_as["d_k"]:
            scores = scores / np.sqrt(computed_as["d_k"])
        if computed_as["factor"] is not None:
            scores = scores * computed_as["factor"]
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        return softmax(scores, axis=-1)
    if op == "weighted_sum":
        return array(computed_as["weights"]) @ array(computed_as["values"])
    if op == "product":
        return array(computed_as["left"]) * array(computed_as["right"])
    raise ValueError(f"unknown computation {op!r}")


def _check_computation(computed_as, data, allowed):
    cells = computed_cells(computed_as, allowed)
    if cells.shape != data.shape:
        raise ValueError(f"computed_as gives shape {cells.shape}, but the heatmap is {data.shape}")
    wrong = allowed & ~np.isclose(cells, data, rtol=0, atol=1e-9)
    if wrong.any():
        i, j = np.argwhere(wrong)[0]
        raise ValueError(f"computed_as does not reproduce the heatmap: cell ({i}, {j}) "
                         f"is {float(data[i, j])!r}, the computation gives {float(cells[i, j])!r}")


def _numbers(array):
    """An array as nested lists for JSON, with None where a value is not finite (−∞ of a mask)."""
    array = np.asarray(array, dtype=float)
    return np.where(np.isfinite(array), array, None).tolist() if array.ndim else float(array)


def plain_text(label):
    """A label without mathtext: "$q_\\mathrm{blue}$" -> "q_blue", "$\\times$" -> "×"."""
    label = " ".join(str(label).split())  # one line
    if "$" not in label:
        return label
    label = re.sub(r"\\mathrm\{([^}]*)\}", r"\1", label)
    label = label.replace("\\times", "×").replace("\\cdot", "·").replace("\\sqrt", "√")
    label = re.sub(r"_\{([^}]*)\}", r"_\1", label)
    return re.sub(r"\s+", " ", label.replace("$", "").replace("{", "").replace("}", "")).strip()


# ---- What a figure shows, for the page: written next to its SVG at build time ----

_HEATMAPS = weakref.WeakKeyDictionary()  # figure -> its heatmaps, in the order drawn
_EXPLORABLES = weakref.WeakKeyDictionary()  # figure -> (name, its numbers)


def explorable(fig, name, on_first_use=(), **numbers):
    """Attach to `fig` the numbers an explorable next to it starts from (see docs/javascripts/).

    Words stay words, and a dict of text stays as it is. The page carries the numbers, but
    those named in `on_first_use` go to a file that the page fetches when a reader first uses
    the explorable, and the build puts its controls in the page (sitebuild/after_pages/figure_data.py).
    """
    missing = set(on_first_use) - set(numbers)
    if missing:
        raise ValueError(f"on_first_use names numbers the explorable does not have: {sorted(missing)}")

    def as_json(value):
        if isinstance(value, dict):  # the explorable's text, in the figure's language
            return value
        array = np.asarray(value)
        return array.tolist() if array.dtype.kind in "iuUS" else _numbers(array)

    attached = {key: as_json(value) for key, value in numbers.items()}
    _EXPLORABLES[fig] = (name, {**attached, "on_first_use": list(on_first_use)} if on_first_use else attached)


def figure_data(fig):
    """Every heatmap of a drawn figure: labels, numbers, cell text, how the cells were
    computed and where the grid is ("box": left, top, right, bottom as fractions of the
    figure, top = 0), plus the explorable attached, if any. JSON-ready; None when there is none."""
    heatmaps = []
    for record in _HEATMAPS.get(fig, []):
        record = dict(record)
        ax = record.pop("ax")
        n_rows, n_cols = np.shape(record["values"])
        corners = ax.transData.transform([(-0.5, -0.5), (n_cols - 0.5, n_rows - 0.5)])
        (x0, y0), (x1, y1) = fig.transFigure.inverted().transform(corners)
        record["box"] = [round(float(v), 5) for v in (x0, 1 - y0, x1, 1 - y1)]
        heatmaps.append(record)
    name, numbers = _EXPLORABLES.get(fig, (None, None))
    if not heatmaps and name is None:
        return None
    return {"heatmaps": heatmaps, "explorable": name and {"name": name, **numbers}}


def _cell_text(fmt, value):
    """The number a cell shows, with the minus sign "−"."""
    return fmt.format(value).replace("-", "−")


def _outline(ax, x, y, width, height):
    ax.add_patch(mpatches.Rectangle((x, y), width, height, fill=False,
                                    edgecolor=HIGHLIGHT, linewidth=3, clip_on=False))


def _text_colour_on(rgba):
    """Black on light cells, white on dark ones (relative luminance)."""
    r, g, b = (c ** 2.2 for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2 else "white"

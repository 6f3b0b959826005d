"""The numbers of a figure as tables, for readers who cannot see the figure.

`figures.fill_in` puts these tables under each figure, collapsed, from the same
data that the figure's SVG carries (``figure_drawing.figure_data``): one table per heatmap, its rows and
columns labelled as in the figure (rows = queries, columns = keys), each cell as
the figure writes it. A figure without heatmaps (a line chart, a diagram of
places) gets none.
"""

from html import escape

SUMMARY = {"en": "Numbers in this figure", "zh": "图中的数字"}
UNTITLED = {"en": "Matrix {n}", "zh": "矩阵 {n}"}


def numbers_html(data, language):
    """A collapsed <details> with one table per heatmap of `data`, or "" when it has none."""
    heatmaps = (data or {}).get("heatmaps", [])
    if not heatmaps:
        return ""
    tables = "".join(_table(heatmap, n, language) for n, heatmap in enumerate(heatmaps, 1))
    return (f'<details class="figure-numbers"><summary>{SUMMARY[language]}</summary>'
            f"{tables}</details>")


def _table(heatmap, n, language):
    caption = heatmap["title"] or UNTITLED[language].format(n=n)
    corner = " / ".join(filter(None, [heatmap["row_title"], heatmap["col_title"]]))
    cols = heatmap["cols"] if any(heatmap["cols"]) else [str(j + 1) for j in range(len(heatmap["text"][0]))]
    rows = heatmap["rows"] if any(heatmap["rows"]) else [str(i + 1) for i in range(len(heatmap["text"]))]
    head = f'<tr><td class="figure-numbers__corner">{escape(corner)}</td>' + "".join(f'<th scope="col">{escape(c)}</th>' for c in cols) + "</tr>"
    body = "".join(
        f'<tr><th scope="row">{escape(r)}</th>' + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>"
        for r, cells in zip(rows, heatmap["text"]))
    # Styled and scrolled as every table of the site (sitebuild/after_pages/html_fixes.py makes it focusable).
    return f"<table><caption>{escape(caption)}</caption><thead>{head}</thead><tbody>{body}</tbody></table>"

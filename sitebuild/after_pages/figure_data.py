"""A figure's numbers leave the page: the page keeps what it needs at load, a file next to it the rest.

sitebuild/generate/figures.py writes what a figure's heatmaps show (labels, numbers,
cell text, operands) into its SVG's `data-figure` attribute, and the page's tables
of numbers are made from it (sitebuild/inside_page/figure_numbers.py). A reader who
never points at a cell needs none of it: on the trained-model chapter it was a
quarter of the page. So, once the page is built, the attribute keeps only what
docs/javascripts/cell-explanations.js needs to lay its focusable grids over the
figure (each grid's place, shape, title and outlined cells) and what
explorables.js builds its controls from (the explorable's numbers); everything else
goes to `<figure id>.json` in the page's folder, which the script fetches when a
reader first points at, taps or tabs to a cell (`data-figure-src`).
"""

import html
import json
import re

# The figure's data is JSON in a single-quoted attribute (figures.py), right after <svg.
FIGURE = re.compile(r"""<figure class="snippet-figure" id="(?P<id>[^"]+)"[^>]*>\s*(?:<div class="figure-drawing"[^>]*>\s*)?"""
                    r"""<svg (?P<before>[^>]*?)data-figure='(?P<data>[^']*)'""")
KEPT = ("box", "title", "highlight")  # what the script lays a grid out with, with the shape


def moved_out(output, folder):
    """The page's HTML with each figure's full data written to `folder`/<figure id>.json."""

    def move(match):
        data = json.loads(html.unescape(match["data"]))
        if not data.get("heatmaps"):
            return match[0]
        name = f"{match['id']}.json"
        (folder / name).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        slim = {"heatmaps": [{**{key: h[key] for key in KEPT}, "shape": [len(h["values"]), len(h["values"][0])]}
                             for h in data["heatmaps"]],
                "explorable": data.get("explorable")}
        attribute = json.dumps(slim, ensure_ascii=False, separators=(",", ":"))
        attribute = attribute.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;")
        return (match[0][:match.start("before") - match.start()] + match["before"]
                + f"data-figure='{attribute}' data-figure-src=\"{name}\"")

    folder.mkdir(parents=True, exist_ok=True)
    return FIGURE.sub(move, output)


def full_data(page_html, folder):
    """Every figure's full data on a built page, as the script fetches it: [dict, ...] in page order."""
    found = []
    for match in FIGURE.finditer(page_html):
        source = re.match(r"""[^>]*?data-figure-src="([^"]+)\"""", page_html[match.end():])
        data = json.loads(html.unescape(match["data"]))
        found.append(json.loads((folder / source[1]).read_text(encoding="utf-8")) if source else data)
    return found

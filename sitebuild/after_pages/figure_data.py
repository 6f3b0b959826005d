"""A figure's numbers leave the page: the page keeps what it needs at load, a file next to it the rest.

sitebuild/generate/figures.py writes what a figure's heatmaps show (labels, numbers,
cell text, operands) into its SVG's `data-figure` attribute, and the page's tables
of numbers are made from it (sitebuild/inside_page/figure_numbers.py). A reader who
never points at a cell needs none of it: on the trained-model chapter it was a
quarter of the page. So, once the page is built, the attribute keeps only what
docs/javascripts/cell-explanations.js needs to lay its focusable grids over the
figure (each grid's place, shape, title and outlined cells) and what
explorables.js builds its controls from (the explorable's numbers, but for those it
names `on_first_use`); everything else goes to `<figure id>.json` in the page's
folder, which the script fetches when a reader first points at, taps or tabs to a
cell, or first uses the explorable (`data-figure-src`).

An explorable with numbers `on_first_use` (learning-relevance's training replay) has
a script of its own that loads on first use too, so its controls cannot wait for it:
they go into the page under the figure, from the explorable's text in the page's
language (`controls`). docs/javascripts/cell-grids.js loads the script the first time
a reader presses, taps or changes them; without JavaScript the CSS hides them.
"""

import html
import json
import re

# The figure's data is JSON in a single-quoted attribute (figures.py), right after <svg.
FIGURE = re.compile(r"""<figure class="snippet-figure" id="(?P<id>[^"]+)"[^>]*>\s*(?:<div class="figure-drawing"[^>]*>\s*)?"""
                    r"""<svg (?P<before>[^>]*?)data-figure='(?P<data>[^']*)'""")
KEPT = ("box", "title", "highlight")  # what the script lays a grid out with, with the shape


def controls(text, explorable, figure_id):
    """The HTML of a training replay's controls: its slider over the steps, a picture box and a live line.

    A native range input, labelled, so that keyboard, mouse and touch work before its script arrives;
    `text` (its intro, the slider's label, the line's start) is in the page's language."""
    text = {key: html.escape(value) for key, value in text.items()}
    name, slider, last = explorable["name"], f"{figure_id}-step", explorable["last"]
    return (f'<div class="explorable" data-explorable="{name}" data-script="{name}.js" data-for="{figure_id}">'
            f'<p class="explorable__try">{text["intro"]}</p>'
            f'<p class="explorable__control"><label for="{slider}">{text["step"]}</label>'
            f'<input type="range" id="{slider}" min="0" max="{last}" step="{explorable["every"]}" value="0">'
            f'<output for="{slider}" class="explorable__value">0</output></p>'
            '<svg class="explorable__replay" viewBox="0 0 400 210" aria-hidden="true">'
            '<path d="M5 105H195M100 10V200" stroke="currentColor" stroke-opacity="0.3"/></svg>'  # the arrows' axes
            f'<p class="explorable__says" aria-live="polite">{text["start"]}</p></div>')


def moved_out(output, folder):
    """The page's HTML with each figure's full data written to `folder`/<figure id>.json."""
    under = {}  # figure id -> the controls that go right after it

    def move(match):
        data = json.loads(html.unescape(match["data"]))
        explorable = data.get("explorable") or {}
        later = explorable.get("on_first_use", [])
        if not data.get("heatmaps") and not later:
            return match[0]
        name = f"{match['id']}.json"
        (folder / name).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        slim = {"heatmaps": [{**{key: h[key] for key in KEPT}, "shape": [len(h["values"]), len(h["values"][0])]}
                             for h in data["heatmaps"]],
                "explorable": data.get("explorable") and {k: v for k, v in explorable.items() if k not in later}}
        if later:
            under[match["id"]] = controls(slim["explorable"].pop("text"), explorable, match["id"])
        attribute = json.dumps(slim, ensure_ascii=False, separators=(",", ":"))
        attribute = attribute.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;")
        return (match[0][:match.start("before") - match.start()] + match["before"]
                + f"data-figure='{attribute}' data-figure-src=\"{name}\"")

    folder.mkdir(parents=True, exist_ok=True)
    output = FIGURE.sub(move, output)
    for figure_id, html_of_controls in under.items():
        end = output.index("</figure>", output.index(f'<figure class="snippet-figure" id="{figure_id}"')) + len("</figure>")
        output = output[:end] + html_of_controls + output[end:]
    return output


def full_data(page_html, folder):
    """Every figure's full data on a built page, as the script fetches it: [dict, ...] in page order."""
    found = []
    for match in FIGURE.finditer(page_html):
        source = re.match(r"""[^>]*?data-figure-src="([^"]+)\"""", page_html[match.end():])
        data = json.loads(html.unescape(match["data"]))
        found.append(json.loads((folder / source[1]).read_text(encoding="utf-8")) if source else data)
    return found

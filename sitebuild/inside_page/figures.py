"""Python-Markdown extension: the figure directive, every figure drawn from its snippet.

A page asks for a figure with an image whose target is a figure snippet:

    ![Caption, in the page's language](fig_words_to_qkv.py)

and gets two tabs in its place (pymdownx.tabbed): "Figure", with a placeholder for the SVG
that the snippet's ``draw()`` returns, and its caption; and "Code", the snippet itself,
included from ``snippets/`` by pymdownx.snippets (so both languages show the same file,
never a copy). The directive is read before pymdownx.snippets runs, outside fenced code.

The extension's options: `language`, the page's language ("en" or "zh": the tab labels and
the figure's labels), and `snippets`, the folder of the snippets (a missing snippet is an error).

The SVG itself and the figure's numbers as tables (figure_numbers.py) are put in place of the
placeholders by `fill_in`, once the page is written and the figure drawn (the generator draws
every figure of every page before the pages, on every core): figure text stays out of the
search index, and under the live server (serve) a figure still being drawn is a note ("This figure is
being drawn; the page reloads when it is ready") until the server rebuilds.

A figure's code is on the page, but not in the search index: it would double the index that
every page loads, and the prose finds the chapter.

On a phone a figure is never shown so small that its smallest text is under READABLE_PX:
each SVG gets a `min-width` at which that text is READABLE_PX tall (`readable_width`),
and a figure wider than a phone's text column scrolls sideways at that size; it is then
focusable (tabindex="0"), so the keyboard can scroll it too. A figure narrow enough
for a phone shrinks to the column as before.
"""

import html
import math
import re
from pathlib import Path

from markdown import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from .figure_numbers import numbers_html

# `![caption](fig_name.py)` alone on a line; the caption may hold bracketed words ("[CLS]").
DIRECTIVE = re.compile(r"^!\[(?P<caption>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<file>fig_\w+\.py)\)[ \t]*$", re.M)
FENCE = re.compile(r"^(```|~~~)")
PLACEHOLDER = re.compile(
    r'(?P<figure><figure class="snippet-figure" id="[^"]+")>\s*'
    r'<span class="snippet-figure-svg" data-snippet="(?P<stem>fig_\w+)" data-lang="(?P<lang>\w+)"'
    r' data-label="(?P<label>[^"]*)"></span>'
)
NUMBERS_PLACEHOLDER = re.compile(
    r'<div class="snippet-figure-numbers" data-snippet="(?P<stem>fig_\w+)" data-lang="(?P<lang>\w+)"></div>'
)

FIGURE_CODE = re.compile(r'(<div class="language-python highlight")(><span class="filename">snippets/fig_)')

TAB_LABELS = {"en": ("Figure", "Code"), "zh": ("图", "代码")}
READABLE_PX = 9  # the smallest text of a figure, in CSS px, however narrow the screen
# The text column of a phone 360 CSS px wide (Material's margins): a figure whose readable
# width is larger scrolls there. tests/test_browser.py measures every figure at 360 px.
PHONE_COLUMN_PX = 328
SVG_SIZE = re.compile(r'<svg [^>]*?width="(?P<width>[\d.]+)pt" height="(?P<height>[\d.]+)pt"')
FONT_SIZE = re.compile(r"font-size: (?P<size>[\d.]+)px")
# Under the live server, in place of a figure still being drawn.
PENDING = {"en": "This figure is being drawn; the page reloads when it is ready.",
           "zh": "这张图正在绘制，画好后页面会自动刷新。"}


class MissingFigureSnippet(Exception):
    """A page asks for a figure snippet that snippets/ does not hold."""


def tabs(markdown, language, snippets):
    """`markdown` with every figure directive, outside fenced code, as its two tabs."""
    figure_tab, code_tab = TAB_LABELS[language]

    def replace(match):
        stem = match["file"][:-3]
        if not (Path(snippets) / match["file"]).is_file():
            raise MissingFigureSnippet(f"figure snippet snippets/{match['file']} does not exist")
        caption = html.escape(match["caption"].strip())
        return (
            f'=== "{figure_tab}"\n\n'
            f'    <figure class="snippet-figure" id="{stem.replace("_", "-")}">\n'
            f'    <span class="snippet-figure-svg" data-snippet="{stem}" data-lang="{language}"'
            f' data-label="{caption}"></span>\n'
            f"    <figcaption>{caption}</figcaption>\n"
            f"    </figure>\n"
            f'    <div class="snippet-figure-numbers" data-snippet="{stem}" data-lang="{language}"></div>\n\n'
            f'=== "{code_tab}"\n\n'
            f'    ```python title="snippets/{match["file"]}"\n'
            f'    --8<-- "{match["file"]}"\n'
            f"    ```\n"
        )

    return outside_fences(markdown, lambda text: DIRECTIVE.sub(replace, text))


def figures_in(markdown):
    """The figure snippets (file names) that `markdown` asks for, outside fenced code, in order."""
    prose = []
    outside_fences(markdown, lambda text: prose.append(text) or text)
    return [match["file"] for match in DIRECTIVE.finditer("".join(prose))]


def code_not_searched(html_text):
    """A page's HTML with its figures' code marked to stay out of the search index."""
    return FIGURE_CODE.sub(r'\1 data-search-exclude\2', html_text)


def fill_in(output, svg_of, figure_data):
    """A written page with its figures: `svg_of(stem, lang)` gives a figure's SVG (None: not drawn yet).

    `figure_data(svg)` reads the data the SVG carries, for the tables of numbers.
    """
    def inline(match):
        svg = svg_of(match["stem"], match["lang"])
        if svg is None:  # still being drawn, under the live server
            return f'{match["figure"]}><span class="snippet-figure-pending" role="status">{PENDING[match["lang"]]}</span>'
        width = readable_width(svg)
        scrolls = ' tabindex="0"' if width and width > PHONE_COLUMN_PX else ""
        box = drawing_box(svg, width)
        return (f'{match["figure"]}{scrolls}>\n<div class="figure-drawing"' + (f' style="{box}"' if box else "") + ">\n"
                + svg.replace("<svg ", f'<svg role="img" aria-label="{match["label"]}" ', 1) + "\n</div>")

    def numbers(match):
        svg = svg_of(match["stem"], match["lang"])
        return "" if svg is None else numbers_html(figure_data(svg), match["lang"])

    return NUMBERS_PLACEHOLDER.sub(numbers, PLACEHOLDER.sub(inline, output))


def drawing_box(svg, readable):
    """The CSS of the box an SVG is drawn in: its natural width (pt to px), its aspect ratio, `readable` as min-width.

    The box's height follows from its width alone, so it is known before the SVG inside is
    laid out: the browser can skip drawing a figure far from the screen (content-visibility,
    extra.css) and still give it its exact size, and nothing moves when it is drawn.
    """
    size, style = SVG_SIZE.search(svg), []
    if size:
        style += [f"width: {round(float(size['width']) * 4 / 3)}px", f"aspect-ratio: {size['width']} / {size['height']}"]
    return "; ".join(style + ([f"min-width: {readable}px"] if readable else []))


def readable_width(svg):
    """The narrowest width, in CSS px, at which the SVG's smallest text is READABLE_PX tall (None: no text).

    matplotlib's SVG measures in points: its viewBox is as wide as the figure in pt, and a
    font-size of f is f of those units, so at a width of w px it is f * w / width px tall.
    """
    sizes = [float(m["size"]) for m in FONT_SIZE.finditer(svg)]
    size = SVG_SIZE.search(svg)
    if not sizes or not size:
        return None
    return math.ceil(READABLE_PX * float(size["width"]) / min(sizes))


def outside_fences(markdown, transform):
    """Apply `transform` to the parts of `markdown` that are not fenced code."""
    parts, chunk, fence = [], [], None
    for line in markdown.splitlines(keepends=True):
        marker = FENCE.match(line.lstrip())
        if fence is None and marker:
            parts.append(transform("".join(chunk)))
            chunk, fence = [line], marker[1]
        elif fence is not None and line.lstrip().startswith(fence):
            chunk.append(line)
            parts.append("".join(chunk))
            chunk, fence = [], None
        else:
            chunk.append(line)
    parts.append(transform("".join(chunk)) if fence is None else "".join(chunk))
    return "".join(parts)


class FigurePreprocessor(Preprocessor):
    """The directive as tabs, before pymdownx.snippets (32) includes the Code tab's snippet."""

    def __init__(self, md, language, snippets):
        super().__init__(md)
        self.language, self.snippets = language, snippets

    def run(self, lines):
        return tabs("\n".join(lines), self.language, self.snippets).split("\n")


class FigureCodePostprocessor(Postprocessor):
    def run(self, text):
        return code_not_searched(text)


class FigureExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {
            "language": ["en", "The page's language: the tabs' and the figures' labels"],
            "snippets": ["snippets", "The folder of the figure snippets"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        md.preprocessors.register(
            FigurePreprocessor(md, self.getConfig("language"), self.getConfig("snippets")), "sitebuild_figures", 35)
        md.postprocessors.register(FigureCodePostprocessor(md), "sitebuild_figure_code", 2)


def makeExtension(**kwargs):
    return FigureExtension(**kwargs)

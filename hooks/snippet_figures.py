"""MkDocs hook: every figure is drawn from its snippet at build time.

A page asks for a figure with an image whose target is a figure snippet:

    ![Caption, in the page's language](fig_words_to_qkv.py)

and gets two tabs in its place: "Figure", with the SVG that the snippet's
``draw()`` returns, inlined so that its text follows the light or dark scheme;
and "Code", the snippet itself, included from ``snippets/`` by
pymdownx.snippets (so both languages show the same file, never a copy).

Under the figure, collapsed, the figure's numbers as tables (hooks/figure_numbers.py).

A snippet draws its labels in the page's language, ``draw(lang="en")`` or
``draw(lang="zh")``. When the build starts, this hook asks for every figure of
every page in every language at once (hooks/figure_drawing.py draws what the
cache lacks in worker processes, on every core, while MkDocs renders pages);
a page waits only for its own figures, and a snippet that raises stops the
build with an error naming the snippet and the language. Under `mkdocs serve`
a page does not wait: a figure still being drawn is a note ("This figure is
being drawn; the page reloads when it is ready"), and the server rebuilds
when it is drawn (hooks/build_pool.py).
"""

import html
import re
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import build_pool
import languages
from figure_drawing import ROOT, SNIPPETS, draw_svg, drawing, figure_data, forget
from figure_numbers import numbers_html

# `![caption](fig_name.py)` alone on a line; the caption may hold bracketed words ("[CLS]").
DIRECTIVE = re.compile(r"^!\[(?P<caption>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<file>fig_\w+\.py)\)[ \t]*$", re.M)
FENCE = re.compile(r"^(```|~~~)")
PLACEHOLDER = re.compile(
    r'<span class="snippet-figure-svg" data-snippet="(?P<stem>fig_\w+)" data-lang="(?P<lang>\w+)"'
    r' data-label="(?P<label>[^"]*)"></span>'
)
NUMBERS_PLACEHOLDER = re.compile(
    r'<div class="snippet-figure-numbers" data-snippet="(?P<stem>fig_\w+)" data-lang="(?P<lang>\w+)"></div>'
)

FIGURE_CODE = re.compile(r'(<div class="language-python highlight")(><span class="filename">snippets/fig_)')

TAB_LABELS = {"en": ("Figure", "Code"), "zh": ("图", "代码")}
# Under `mkdocs serve`, in place of a figure still being drawn (hooks/build_pool.py).
PENDING = {"en": "This figure is being drawn; the page reloads when it is ready.",
           "zh": "这张图正在绘制，画好后页面会自动刷新。"}


def on_config(config):
    # Snippets import their neighbours (attention, plotting, ...).
    if str(SNIPPETS) not in sys.path:
        sys.path.insert(0, str(SNIPPETS))
    # `--8<-- "x.py"` finds snippets/x.py whatever the working directory.
    config.mdx_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(SNIPPETS)]
    return config


def on_startup(command, dirty):
    build_pool.serving(command)  # under `mkdocs serve`, pages do not wait for their figures


def on_serve(server, config, builder):
    # Figures and notebooks that a page went without: the server rebuilds when they are made.
    build_pool.READY.mkdir(parents=True, exist_ok=True)
    server.watch(str(build_pool.READY))
    return server


def on_pre_build(config):
    if languages.inside_further_language(config):
        return  # a further language: its figures were asked for with the first one's
    # Every figure of every page, in every language, asked for now, in page order.
    for language in languages.built(config):
        for stem in figures_in_pages(language):
            drawing(stem, language)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built the other languages
def on_post_build(config):
    if not languages.inside_further_language(config):
        forget()
        build_pool.shutdown()  # under `mkdocs serve`, once the work is done


def on_build_error(error):
    forget()
    build_pool.shutdown(cancel=True)


def on_page_markdown(markdown, page, config, files):
    language = languages.building(config)
    figure_tab, code_tab = TAB_LABELS[language]

    def replace(match):
        stem = match["file"][:-3]
        if not (SNIPPETS / match["file"]).is_file():
            raise PluginError(f"{page.file.src_uri}: figure snippet snippets/{match['file']} does not exist")
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

    return _outside_fences(markdown, lambda text: DIRECTIVE.sub(replace, text))


def on_page_content(html_text, page, config, files):
    # A figure's code is on the page, but not in the search index: it would
    # double the index that every page loads, and the prose finds the chapter.
    return FIGURE_CODE.sub(r'\1 data-search-exclude\2', html_text)


def on_post_page(output, page, config):
    # After the search plugin has indexed the page: figure text stays out of the index.
    def inline(match):
        svg = draw_svg(match["stem"], match["lang"])
        if svg is None:  # still being drawn, under `mkdocs serve`
            return f'<span class="snippet-figure-pending" role="status">{PENDING[match["lang"]]}</span>'
        return svg.replace("<svg ", f'<svg role="img" aria-label="{match["label"]}" ', 1)

    def numbers(match):
        svg = draw_svg(match["stem"], match["lang"])
        return "" if svg is None else numbers_html(figure_data(svg), match["lang"])

    return NUMBERS_PLACEHOLDER.sub(numbers, PLACEHOLDER.sub(inline, output))


def figures_in_pages(language):
    """The figure snippets that the pages of `language` show, in order of file name and place."""
    pages = [p for p in sorted((ROOT / "docs").glob("*.md"))
             if p.suffixes == ([".md"] if language == languages.DEFAULT else [f".{language}", ".md"])]
    stems = []
    for page in pages:
        prose = []
        _outside_fences(page.read_text(encoding="utf-8"), lambda text: prose.append(text) or text)
        for match in DIRECTIVE.finditer("".join(prose)):
            if match["file"][:-3] not in stems and (SNIPPETS / match["file"]).is_file():
                stems.append(match["file"][:-3])
    return stems


def _outside_fences(markdown, transform):
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

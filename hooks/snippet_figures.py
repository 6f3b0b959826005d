"""MkDocs hook: every figure is drawn from its snippet at build time.

The directive `![caption](fig_name.py)` becomes the tabs Figure and Code in the Markdown
extension sitebuild/inside_page/figures.py (hooks/inside_page.py loads it). This hook draws:
when the build starts, it asks for every figure of every page in every language at once
(sitebuild/generate/figures.py draws what the cache lacks in worker processes, on every core,
while MkDocs renders pages); a written page gets its figures and their tables of numbers
(`figures.fill_in`), waiting only for its own, and a snippet that raises stops the build
with an error naming the snippet and the language. Under `mkdocs serve` a page does not
wait: a figure still being drawn is a note, and the server rebuilds when it is drawn
(sitebuild/generate/pool.py).
"""

import sys

from mkdocs.plugins import event_priority

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import languages
import layers
from sitebuild.generate import pool as build_pool
from sitebuild.generate.figures import SNIPPETS, draw_svg, drawing, figure_data, figures_in_pages, forget
from sitebuild.inside_page.figures import PENDING, fill_in  # noqa: F401  (PENDING: tests read it here)


def on_config(config):
    # Snippets import their neighbours (attention, plotting, ...).
    if str(SNIPPETS) not in sys.path:
        sys.path.insert(0, str(SNIPPETS))
    return config


def on_startup(command, dirty):
    build_pool.serving(command)  # under `mkdocs serve`, pages do not wait for their figures


def on_serve(server, config, builder):
    # Figures and notebooks that a page went without: the server rebuilds when they are made.
    build_pool.READY.mkdir(parents=True, exist_ok=True)
    server.watch(str(build_pool.READY))
    return server


@layers.stops_the_build
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


@layers.stops_the_build
def on_post_page(output, page, config):
    # After the search plugin has indexed the page: figure text stays out of the index.
    return fill_in(output, draw_svg, figure_data)


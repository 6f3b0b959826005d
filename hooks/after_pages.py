"""MkDocs hook: the after-pages layer (sitebuild/after_pages/) on every built page and on the site.

Runs after hooks/snippet_figures.py has put the figures into the page.
"""

import logging
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import languages
import layers
from sitebuild import after_pages
from sitebuild.generate import minilm_export

log = logging.getLogger("mkdocs.hooks.after_pages")


@layers.stops_the_build
def on_post_page(output, page, config):
    return after_pages.page(output, languages.building(config), Path(page.file.abs_dest_path).parent,
                            exported=minilm_export.exported)  # the trained-model panel's (hooks/minilm_in_page.py)


def on_post_template(output, template_name, config):
    """The 404 page is a template of its own, not a page: one for every language."""
    if template_name != "404.html":
        return output
    if languages.inside_further_language(config):
        return (Path(config.site_dir) / "404.html").read_text(encoding="utf-8")  # the first language's
    root = urlsplit(config.site_url or "/").path.rstrip("/") + "/"
    return after_pages.not_found(output, languages.building(config), languages.built(config), root)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built the other languages and the search index
def on_post_build(config):
    if languages.inside_further_language(config):
        return  # one language's build inside i18n's loop: the site is not complete yet
    for language in after_pages.site(config.site_dir, languages.built(config)):
        log.warning(f"search index: no documents in '{language}'")

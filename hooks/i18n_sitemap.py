"""MkDocs hook: give every language its own sitemap.xml.

Material's language selector looks for the current page in the other
language's `sitemap.xml` (e.g. `/zh/sitemap.xml`) to switch to the same
chapter. mkdocs-static-i18n writes a single `/sitemap.xml` that lists the
pages of all languages, so this hook copies it into each language folder;
without it the selector falls back to the home page and the browser console
logs a 404.
"""

import shutil
from pathlib import Path


def on_post_build(config):
    plugin = config.plugins.get("i18n")
    site = Path(config.site_dir)
    sitemap = site / "sitemap.xml"
    if plugin is None or not sitemap.is_file():
        return
    for language in plugin.config.languages:
        if language.default or not language.build:
            continue
        folder = site / language.link.strip("/")
        if folder.is_dir():
            for name in ("sitemap.xml", "sitemap.xml.gz"):
                if (site / name).is_file():
                    shutil.copyfile(site / name, folder / name)

"""MkDocs hook: the figure directive (sitebuild/inside_page/figures.py) and the chapter box
(sitebuild/inside_page/chapter_box.py) in the language being built.

mkdocs.yml lists the inside-a-page layer under `markdown_extensions`; only the language
differs between the builds that mkdocs-static-i18n runs, so this hook sets it in each.
"""

from mkdocs.plugins import event_priority

import languages  # a neighbour in hooks/: MkDocs runs each hook with its folder on sys.path

FIGURES = "sitebuild.inside_page.figures"
CHAPTER_BOX = "sitebuild.inside_page.chapter_box"


@event_priority(-200)  # after mkdocs-static-i18n (-100) has set the language of this build
def on_config(config):
    for extension in (FIGURES, CHAPTER_BOX):
        config.mdx_configs[extension]["language"] = languages.building(config)
    return config

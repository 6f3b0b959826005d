"""MkDocs hook: tells hooks/languages.py when each language's build starts and ends."""

from mkdocs.plugins import event_priority

import languages  # a neighbour in hooks/: MkDocs runs each hook with its folder on sys.path


@event_priority(100)  # before every other on_pre_build
def on_pre_build(config):
    languages.build_starts(config)


@event_priority(-300)  # after every other on_post_build, mkdocs-static-i18n's (-100) and ours (-200)
def on_post_build(config):
    languages.build_ends(config)

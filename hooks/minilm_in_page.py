"""MkDocs hook: all-MiniLM-L6-v2 exported for the trained-model chapter's panel (sitebuild/generate/minilm_export.py).

The export starts with the build (from the cache, or in a worker process), the panel is put
into its page by the after-pages layer (hooks/after_pages.py hands it `exported`), and the
files go into the site at /minilm/ once every language is built.
"""

from mkdocs.plugins import event_priority

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import languages
import layers
from sitebuild.generate import minilm_export


@layers.stops_the_build
def on_pre_build(config):
    if not languages.inside_further_language(config):
        minilm_export.start()


@layers.stops_the_build
@event_priority(-200)  # after mkdocs-static-i18n (-100) has built the other languages
def on_post_build(config):
    if not languages.inside_further_language(config):
        minilm_export.copy_to(config.site_dir)
        minilm_export.forget()


def on_build_error(error):
    minilm_export.forget()

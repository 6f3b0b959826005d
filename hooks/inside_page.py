"""MkDocs hook: the inside-a-page layer's Markdown extensions (sitebuild/inside_page/), in the language being built.

Not in mkdocs.yml's `markdown_extensions`: MkDocs loads those before any hook, and the plain
`mkdocs` command does not have the repository root on sys.path, so this hook adds them.
"""

from mkdocs.plugins import event_priority

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import languages
import layers  # noqa: F401  (the repository root on sys.path)

FIGURES, MATHML = "sitebuild.inside_page.figures", "sitebuild.inside_page.mathml"


@event_priority(-200)  # after mkdocs-static-i18n (-100) has set the language of this build
def on_config(config):
    for name in (FIGURES, MATHML):
        if name not in config.markdown_extensions:
            config.markdown_extensions.append(name)
    config.mdx_configs[FIGURES] = {"language": languages.building(config), "snippets": layers.ROOT + "/snippets"}
    return config

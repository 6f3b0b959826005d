"""The site's languages, and which one a page is in: the one place the hooks decide it.

Not a hook itself (mkdocs.yml does not list it); the hooks import it. mkdocs-static-i18n
builds the site once per language, English to / and Chinese to /zh/, so every page of a
build, chapter or notebook, is in the language being built.
"""

import layers  # noqa: F401  (the repository root on sys.path)
from sitebuild.languages import DEFAULT, page_url  # noqa: F401  (the hooks import them from here)


def building(config):
    """The language of the build in progress, and so of every page in it: "en" or "zh"."""
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language") or DEFAULT


def built(config):
    """Every language this run of MkDocs builds."""
    i18n = config.plugins.get("i18n")
    return list(getattr(i18n, "build_languages", None) or [DEFAULT])


def inside_further_language(config):
    """True while mkdocs-static-i18n builds a further language inside the first build's
    on_post_build: work done once per run (at the first on_pre_build, the last on_post_build)
    skips these."""
    return getattr(config.plugins.get("i18n"), "building", False)

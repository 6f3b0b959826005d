"""The site's languages, and which one a build is in: the one place the hooks decide it.

Not a hook itself (mkdocs.yml lists hooks/language_builds.py, which tells it when a build
starts and ends); the hooks import it. mkdocs-static-i18n builds the site once per
language, English to / and Chinese to /zh/, so every page of a build, chapter or notebook,
is in the language being built. That is read from settings, not from the plugin's own
attributes: the languages from the plugin's `languages` in mkdocs.yml, the language of the
build in progress from Material's `theme.language`, which the plugin sets for each build
(`reconfigure_material: true`). The plugin builds the further languages inside the first
build's on_post_build; `inside_further_language` says when.
"""

from sitebuild.languages import DEFAULT, folder, page_url  # noqa: F401  (the hooks import them from here)

_further = {"building": False}  # a further language's build is in progress


def building(config):
    """The language of the build in progress, and so of every page in it: "en" or "zh"."""
    return config.theme.get("language") or DEFAULT


def _settings(config):
    i18n = config.plugins.get("i18n")
    return [] if i18n is None else [language for language in i18n.config.languages if language.build]


def built(config):
    """Every language this run of MkDocs builds, in the order of mkdocs.yml."""
    return [language.locale for language in _settings(config)] or [building(config)]


def first(config):
    """The language built first, in whose build the others are built: the default one."""
    return next((language.locale for language in _settings(config) if language.default), built(config)[0])


def inside_further_language(config):
    """True while mkdocs-static-i18n builds a further language inside the first build's
    on_post_build: work done once per run (at the first on_pre_build, the last on_post_build)
    skips these."""
    return _further["building"]


def build_starts(config):
    """A build starts (hooks/language_builds.py, before any other hook's on_pre_build)."""
    _further["building"] = building(config) != first(config)


def build_ends(config):
    """A build ends (hooks/language_builds.py, after every other hook's on_post_build)."""
    _further["building"] = False

"""The site's languages: English at /, each other language below its own folder (/zh/)."""

DEFAULT = "en"
LANGUAGES = ("en", "zh")  # as the build's i18n plugin builds them; the generator's default


def folder(language):
    """Where a language's files are, from the site's root: "" for the default, "zh/" for Chinese."""
    return "" if language == DEFAULT else f"{language}/"


def page_url(site_url, slug, language):
    """The address of a page of the site in one language, below `site_url`."""
    return f"{site_url}{folder(language)}" + ("" if slug == "index" else f"{slug}/")

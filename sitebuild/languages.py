"""The site's languages: English at /, each other language below its own folder (/zh/)."""

DEFAULT = "en"
LANGUAGES = ("en", "zh")  # as the build's i18n plugin builds them; the generator's default


def page_url(site_url, slug, language):
    """The address of a page of the site in one language, below `site_url`."""
    prefix = "" if language == DEFAULT else f"{language}/"
    return f"{site_url}{prefix}" + ("" if slug == "index" else f"{slug}/")

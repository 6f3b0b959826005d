"""MkDocs hook: small fixes to the HTML that the theme and the i18n plugin write.

1. The language selector goes straight to the same page. mkdocs-static-i18n
   points each entry of Material's language selector at the current page in
   the other language (`/zh/input-to-attention/`), and also writes those
   addresses as `<link rel="alternate" hreflang=...>` in the page head.
   Material's script reads the head links and fetches `sitemap.xml` below
   each of them, expecting language roots (`/zh/sitemap.xml`), so every
   chapter logged two 404s in the browser console. The selector's own links
   already lead to the right page, so the head links go; search engines still
   find the translations in `/sitemap.xml`, which lists them with hreflang.
2. The search dialog gets an accessible name (Material leaves it unnamed).
"""

import re

HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_NAME = {"en": "Search", "zh": "搜索"}


def on_post_page(output, page, config):
    output = HREFLANG_LINK.sub("", output)
    language = "zh" if page.url.startswith("zh/") else "en"
    return output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{SEARCH_NAME[language]}">', 1)

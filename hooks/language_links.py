"""MkDocs hook: let the language selector go straight to the same page.

mkdocs-static-i18n points each entry of Material's language selector at the
current page in the other language (`/zh/input-to-attention/`), and also
writes those addresses as `<link rel="alternate" hreflang=...>` in the page
head. Material's script reads the head links and fetches `sitemap.xml` below
each of them, expecting language roots (`/zh/sitemap.xml`), so every chapter
logged two 404s in the browser console. The selector's own links already lead
to the right page, so this hook removes the head links; search engines still
find the translations in `/sitemap.xml`, which lists them with hreflang.
"""

import re

HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def on_post_page(output, page, config):
    return HREFLANG_LINK.sub("", output)

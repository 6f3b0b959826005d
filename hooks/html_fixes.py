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
2. The search dialog and the search landmark get an accessible name
   (Material leaves them unnamed).
3. What scrolls can be reached with the keyboard, with or without
   JavaScript: code blocks, notebook outputs, tables and display maths are
   focusable (tabindex="0"), so Tab reaches them and the arrow keys scroll
   them.
"""

import re

import languages  # hooks/languages.py: MkDocs runs each hook with its folder on sys.path

HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_NAME = {"en": "Search", "zh": "搜索"}
SEARCH_LANDMARK = '<div class="md-search__inner" role="search">'
# The element that scrolls: in a highlighted code block its <code> (Material's script then keeps
# tabindex only where the block overflows), else the <pre>, <table> or maths block itself.
SCROLLING = re.compile(r'<(pre(?![^>]*>(?:<span></span>)?<code)|(?<=<span></span><)code|(?<=<pre><)code'
                       r'|table|div class="math-block")(?=[ >])(?![^>]*tabindex)')


def on_post_page(output, page, config):
    output = HREFLANG_LINK.sub("", output)
    language = languages.building(config)
    name = SEARCH_NAME[language]
    output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{name}">', 1)
    output = output.replace(SEARCH_LANDMARK, SEARCH_LANDMARK[:-1] + f' aria-label="{name}">', 1)
    return SCROLLING.sub(lambda m: f'<{m[1]} tabindex="0"', output)

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
4. The page is marked as scripted before it is first drawn. Material's
   script swaps `no-js` for `js` on <html> when it runs, at the end of the
   page: the search field then appears in the header and shifts the
   language selector, and the whole page is styled again. A one-line script
   in the head makes the same swap first, so Material's is a no-op. Without
   JavaScript neither runs and the page keeps `no-js`.
"""

import re

import languages  # hooks/languages.py: MkDocs runs each hook with its folder on sys.path

HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
SCRIPTED = '<script>document.documentElement.classList.replace("no-js","js")</script>'
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_NAME = {"en": "Search", "zh": "搜索"}
SEARCH_LANDMARK = '<div class="md-search__inner" role="search">'
# The element that scrolls: in a highlighted code block its <code> (Material's script then keeps
# tabindex only where the block overflows), else the <pre>, <table> or maths block itself.
SCROLLING = re.compile(r'<(pre(?![^>]*>(?:<span></span>)?<code)|(?<=<span></span><)code|(?<=<pre><)code'
                       r'|table|div class="math-block")(?=[ >])(?![^>]*tabindex)')


def on_post_page(output, page, config):
    return fix(output, config)


def on_post_template(output, template_name, config):
    """The 404 page is a template of its own, not a page: the same fixes."""
    return fix(output, config) if template_name == "404.html" else output


def fix(output, config):
    output = HREFLANG_LINK.sub("", output)
    output = output.replace("</head>", SCRIPTED + "\n</head>", 1)
    language = languages.building(config)
    name = SEARCH_NAME[language]
    output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{name}">', 1)
    output = output.replace(SEARCH_LANDMARK, SEARCH_LANDMARK[:-1] + f' aria-label="{name}">', 1)
    return SCROLLING.sub(lambda m: f'<{m[1]} tabindex="0"', output)

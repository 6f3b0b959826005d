"""Small fixes to the HTML that the theme and the i18n plugin write.

1. The language selector goes straight to the same page. The i18n plugin
   (static-i18n) points each entry of Material's language selector at the current page in
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
   page: what Material styles differently with JavaScript is styled again,
   and the search field appears in the header and shifts the language
   selector. A one-line script in the head makes the same swap first, so
   Material's is a no-op. Without JavaScript neither runs and the page
   keeps `no-js`.
5. One 404 page for every reader. A server answers every missing address,
   under /zh/ too, with the root 404.html. The i18n plugin writes that
   file once per language and the last one built stayed, so an English
   reader who followed a broken link got the Chinese page. The page of the
   first language built (English) is kept now, and it says in each further
   language that the page does not exist, with a link to that language's
   home page.
"""

import re

from ..languages import page_url

HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
SCRIPTED = '<script>document.documentElement.classList.replace("no-js","js")</script>'
NOT_FOUND = {"zh": '<p lang="zh">这个页面不存在。<a href="{home}">回到中文首页</a></p>'}
NOT_FOUND_HEADING = re.compile(r"<h1>.*?</h1>")
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_NAME = {"en": "Search", "zh": "搜索"}
SEARCH_LANDMARK = '<div class="md-search__inner" role="search">'
# The element that scrolls: in a highlighted code block its <code> (Material's script then keeps
# tabindex only where the block overflows), else the <pre>, <table> or maths block itself.
SCROLLING = re.compile(r'<(pre(?![^>]*>(?:<span></span>)?<code)|(?<=<span></span><)code|(?<=<pre><)code'
                       r'|table|div class="math-block")(?=[ >])(?![^>]*tabindex)')


def not_found_page(output, language, languages, root):
    """The 404 page of the first language built: the same fixes, and a line in each other language (5.).

    `languages` are the languages built, `root` the site's path on its host ("/").
    """
    others = "".join(NOT_FOUND[other].format(home=page_url(root, "index", other))
                     for other in languages if other != language)
    return NOT_FOUND_HEADING.sub(lambda heading: heading[0] + others, in_page(output, language), count=1)


def in_page(output, language):
    """A page's HTML in `language` with fixes 1 to 4."""
    output = HREFLANG_LINK.sub("", output)
    output = output.replace("</head>", SCRIPTED + "\n</head>", 1)
    name = SEARCH_NAME[language]
    output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{name}">', 1)
    output = output.replace(SEARCH_LANDMARK, SEARCH_LANDMARK[:-1] + f' aria-label="{name}">', 1)
    return SCROLLING.sub(lambda m: f'<{m[1]} tabindex="0"', output)

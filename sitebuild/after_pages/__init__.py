"""After the pages: one pass over each built page's HTML, and one over the built site's files.

`page(html, language, folder)` takes the HTML of a page as the theme wrote it (chapter or
notebook page, figures already in it) and returns what the site serves, in this order:

1. figure_scripts: the page loads cell-explanations.js / explorables.js if its figures use them;
   figure_data: their numbers move to a file in the page's `folder`, fetched on first use;
   minilm_panel: the trained-model chapter's panel, given the model's export (`exported`);
2. html_fixes: language links, named search landmarks, focusable scrolling boxes, no-js -> js;
3. code_spans: highlighted code in fewer elements;
4. search_index: the script that fetches this language's search index on the first search;
5. whitespace: the templates' blank lines and indentation collapsed.

`not_found(html, language, languages, root)` is the 404 page: one for every language.

`site(site_dir, languages)` runs once the whole site is written (every language): our CSS and
JavaScript lose their comments (asset_comments) and the search index is split per language
(search_index). It returns the languages whose index got no document, for the caller to warn.
"""

from . import (asset_comments, code_spans, figure_data, figure_scripts, html_fixes, minilm_panel, search_index,
               whitespace)


def page(html, language, folder, exported=None):
    """The HTML a built page in `language` is served as; `folder` is where it is written.

    `exported()` gives the in-page model's export (sitebuild/generate/minilm_export.py), for a
    page with its panel; without it the panel's marker stays an empty element.
    """
    html = figure_scripts.in_page(html)
    html = figure_data.moved_out(html, folder)
    if exported is not None:
        html = minilm_panel.in_page(html, language, exported)
    html = html_fixes.in_page(html, language)
    html = code_spans.in_page(html)
    html = search_index.in_page(html, language)
    return whitespace.collapsed(html)


def not_found(html, language, languages, root):
    """The 404 page, from the theme's in the first language built: see html_fixes (5.)."""
    return html_fixes.not_found_page(html, language, languages, root)


def site(site_dir, languages):
    """The files of the built site: our assets without comments, one search index per language."""
    asset_comments.in_site(site_dir)
    return search_index.split(site_dir, languages)

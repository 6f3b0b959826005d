"""One search index per language, fetched only when the reader starts a search.

Material's search plugin writes one search/search_index.json. The i18n plugin builds
English, then Chinese, and after the last language has that file rewritten with the
documents of both (687 KB, 144 KiB gzipped), which Material's script then fetched on
every page load. After that last write `split` splits it: search/search_index.json
keeps the English documents (the very file Material's script asks for, from the site
root, on English and Chinese pages alike) and zh/search/search_index.json the Chinese
ones (their locations start with zh/). Each keeps the same `config` (lang, separator,
pipeline, fields) and is written as UTF-8 rather than \\u escapes, which makes the
Chinese one about a tenth smaller. With only its own language in the index, a page's
search finds pages of its language only.

Each page gets docs/javascripts/search-on-first-use.js just before Material's bundle,
with its language's index address (an extra_javascript would come after the bundle, too
late): the script holds Material's request back until the reader starts a search and
sends it to that address instead.
"""

import json
import os
import re

from ..languages import DEFAULT, folder

INDEX = "search/search_index.json"
SCRIPT = "javascripts/search-on-first-use.js"
BUNDLE = re.compile(r'<script src="(?P<root>[^"]*)assets/javascripts/bundle\.[^"]+"></script>')


def index_path(language):
    """Where a language's index lives, from the site root: the default's at search/, the others' below their folder."""
    return folder(language) + INDEX


def language_of(location, others):
    """The language of a search document: that of its first folder (zh/...), else the default."""
    first = location.split("/", 1)[0]
    return first if first in others else DEFAULT


def in_page(output, language):
    """The script that holds the index back, before Material's bundle, given this language's index."""
    def before(match):
        root, index = match["root"], index_path(language)
        return f'<script src="{root}{SCRIPT}" data-index="{root}{index}"></script>\n  {match[0]}'

    return BUNDLE.sub(before, output, count=1)


def split(site_dir, built):
    """The combined index of the site at `site_dir` split into one per language of `built`.

    Returns the languages that got no document (the caller warns); [] without an index (no search).
    """
    path = os.path.join(site_dir, INDEX)
    if not os.path.exists(path):
        return []  # search plugin disabled
    with open(path, encoding="utf-8") as f:
        index = json.load(f)
    others = set(built) - {DEFAULT}
    empty = []
    for language in built:
        docs = [doc for doc in index["docs"] if language_of(doc["location"], others) == language]
        if not docs:
            empty.append(language)
        data = json.dumps({"config": index["config"], "docs": docs},
                          ensure_ascii=False, separators=(",", ":"), default=str)
        target = os.path.join(site_dir, index_path(language))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(data)
    return empty

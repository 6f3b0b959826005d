"""Search: one index per language (sitebuild/after_pages/search_index.py), fetched on the first search only
(docs/javascripts/search-on-first-use.js, put before Material's bundle by sitebuild/after_pages/search_index.py).

The index tests read the site that conftest builds; the browser tests use Debian's Chromium
as tests/test_browser.py does.
"""

import gzip
import json
import re

import pytest

from sitebuild.after_pages import search_index  # conftest puts the repository root on sys.path

LANGUAGES = ["en", "zh"]
INDEX = {"en": "search/search_index.json", "zh": "zh/search/search_index.json"}
# Share of the combined index each language's index may take, gzipped. English is 42 %. The
# Chinese index is 53 %, not under half: its code blocks are the English pages' own, byte for
# byte, and its prose costs more bytes (three per character, a U+200B between words). 100 %
# would mean the split did nothing.
MAX_SHARE = {"en": 0.50, "zh": 0.55}
WORDS = {"en": ("dot product", "dot-product-similarity/"), "zh": ("前瞻掩码", "decoder-self-attention/")}


def read_index(site, language):
    return json.loads((site / INDEX[language]).read_text(encoding="utf-8"))


def gzipped(data):
    return len(gzip.compress(data, compresslevel=9))


def tokens(index, doc):
    """The words Material's search worker indexes in a document: its text split by the separator."""
    text = re.sub(r"<[^>]+>", " ", doc["title"] + " " + doc["text"])
    return set(re.split(index["config"]["separator"], text)) - {""}


def test_the_hook_and_the_tests_agree_on_where_each_index_is():
    assert {language: search_index.index_path(language) for language in LANGUAGES} == INDEX


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_index_holds_only_its_languages_documents(built_site, language):
    index = read_index(built_site, language)
    locations = [doc["location"] for doc in index["docs"]]
    assert len(locations) > 50, f"{language}: only {len(locations)} documents"
    assert all(loc.startswith("zh/") == (language == "zh") for loc in locations), \
        [loc for loc in locations if loc.startswith("zh/") != (language == "zh")][:5]
    assert {"", "zh/"} & set(locations) == {"" if language == "en" else "zh/"}  # the home page
    assert set(index["config"]) >= {"lang", "separator", "pipeline"}
    assert index["config"] == read_index(built_site, "en")["config"]


def test_the_chinese_index_has_the_look_ahead_mask_as_one_word(built_site):
    index = read_index(built_site, "zh")
    found = [doc["location"] for doc in index["docs"] if "前瞻掩码" in tokens(index, doc)]
    assert any(loc.startswith("zh/decoder-self-attention/") for loc in found), found
    assert "掩码" in {t for doc in index["docs"] for t in tokens(index, doc)}  # segmented, not one long run


def test_each_index_is_a_fraction_of_the_combined_one(built_site):
    """The combined index is the union of both, written as Material's search plugin wrote it."""
    indexes = {language: read_index(built_site, language) for language in LANGUAGES}
    union = {"config": indexes["en"]["config"], "docs": [d for i in indexes.values() for d in i["docs"]]}
    combined = gzipped(json.dumps(union, separators=(",", ":")).encode())
    sizes = {language: gzipped((built_site / INDEX[language]).read_bytes()) for language in LANGUAGES}
    print(f"gzip KiB: combined {combined / 1024:.1f}, "
          + ", ".join(f"{language} {size / 1024:.1f}" for language, size in sizes.items()))
    for language, size in sizes.items():
        assert size <= MAX_SHARE[language] * combined, \
            f"{language}: {size / 1024:.1f} KiB of {combined / 1024:.1f} KiB ({size / combined:.0%})"
    assert sum(sizes.values()) <= combined


# --- In the browser -------------------------------------------------------------------------

def page_url(base, language, page=""):
    return base + ("zh/" if language == "zh" else "") + page


def index_requests(page):
    """Every request for a search index or for the search worker's script, as they come."""
    seen = []
    page.context.on("request", lambda r: ("search_index" in r.url or "/workers/search." in r.url)
                    and seen.append(r.url.split("/assets/javascripts/workers/")[-1].split(".")[0]
                                    if "/workers/" in r.url else r.url))
    return seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_is_fetched_on_the_first_search_only(page, served_site, language):
    seen = index_requests(page)
    page.goto(page_url(served_site, language, "input-to-attention/"), wait_until="networkidle")
    page.wait_for_timeout(500)
    assert seen == [], "a search index or the search worker was fetched on page load"

    word, chapter = WORDS[language]
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").fill(word)
    page.locator(".md-search__input").press("End")  # a key event starts the search
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    assert sorted(seen) == sorted([served_site + INDEX[language], "search"])
    links = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    assert any(link.startswith(page_url(served_site, language, chapter)) for link in links), links


def test_the_search_key_fetches_the_index_too(page, served_site):
    seen = index_requests(page)
    page.goto(page_url(served_site, "zh"), wait_until="networkidle")
    assert seen == []
    page.keyboard.press("s")  # Material's shortcut: opens search and focuses its field
    page.keyboard.type("前瞻掩码")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    assert sorted(seen) == sorted([served_site + INDEX["zh"], "search"])


def test_a_page_opened_from_a_result_still_highlights_the_word(page, served_site):
    """Material marks the searched word (?h=) on the page it opens, with the index's separator."""
    seen = index_requests(page)
    page.goto(page_url(served_site, "en", "dot-product-similarity/") + "?h=similarity")
    page.wait_for_selector("article mark", timeout=15000)
    assert sorted(seen) == sorted([served_site + INDEX["en"], "search"])

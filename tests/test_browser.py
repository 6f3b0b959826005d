"""The site as readers meet it: every page of both languages in a real browser (Chromium).

Uses Playwright for Python with Debian's Chromium (`apt-get install chromium`),
set up in conftest.py; Playwright cannot download a browser on these machines.
Without Chromium these tests skip with that hint, except under CI (CI=true),
where they fail.
"""

import re

import pytest

from conftest import PAGES

NOTEBOOK_PAGES = [f"notebooks/{page}" for page in PAGES if page not in {"index", "glossary"}]
SEARCH_WORDS = {"en": ("dot product", "dot-product-similarity/"), "zh": ("前瞻掩码", "decoder-self-attention/")}


def page_url(base, page, language):
    prefix = "zh/" if language == "zh" else ""
    return base + prefix + ("" if page == "index" else f"{page}/")


class Recorder:
    """Every request, failure and console error of one page load."""

    def __init__(self, page):
        self.requests, self.failures, self.errors = [], [], []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("requestfailed", lambda r: self.failures.append(f"{r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and self.failures.append(f"{r.url} ({r.status})"))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))


def contrast_ratio(fg, bg):
    def luminance(rgb):
        channels = [c / 255 for c in rgb]
        channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    high, low = sorted([luminance(fg), luminance(bg)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(css_colour):
    return [int(float(x)) for x in re.findall(r"[\d.]+", css_colour)[:3]]


FIGURE_TEXT_COLOURS = """() => Array.from(document.querySelectorAll('.snippet-figure svg')).map(svg => {
  const texts = Array.from(svg.querySelectorAll('text')).filter(t => (t.getAttribute('style') || '').includes('currentColor'));
  const box = svg.getBoundingClientRect();
  return {width: box.width, height: box.height, fills: texts.slice(0, 5).map(t => getComputedStyle(t).fill)};
})"""


def check_figures(page, scheme):
    background = rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    for figure in page.evaluate(FIGURE_TEXT_COLOURS):
        assert figure["width"] > 100 and figure["height"] > 50, f"figure not rendered: {figure}"
        assert figure["fills"], "figure has no text in the page's text colour"
        for fill in figure["fills"]:
            ratio = contrast_ratio(rgb(fill), background)
            assert ratio >= 4.5, f"{scheme}: figure text {fill} on {background} has contrast {ratio:.1f}"


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", PAGES + NOTEBOOK_PAGES)
def test_page_in_the_browser(page, served_site, name, language):
    recorder = Recorder(page)
    url = page_url(served_site, name, language)
    page.goto(url, wait_until="networkidle")

    assert not recorder.failures, f"failed requests on {url}: {recorder.failures}"
    assert not recorder.errors, f"console errors on {url}: {recorder.errors}"
    foreign = [r for r in recorder.requests if not r.startswith(served_site) and not r.startswith("data:")]
    assert not foreign, f"requests that leave 127.0.0.1: {foreign}"

    # Figures: drawn with a real size, text readable in the light and the dark scheme.
    check_figures(page, "light")
    page.locator("label[title='Switch to dark mode']:visible").first.click()
    page.wait_for_selector("body[data-md-color-scheme='slate']")
    check_figures(page, "dark")
    page.locator("label[title='Switch to light mode']:visible").first.click()
    page.wait_for_selector("body[data-md-color-scheme='default']")

    # The language selector leads to the same page in the other language.
    other = "zh" if language == "en" else "en"
    page.evaluate(f"document.querySelector('a.md-select__link[hreflang={other}]').click()")
    page.wait_for_url(page_url(served_site, name, other))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_copy_button_copies_its_own_block(page, served_site, language):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(page_url(served_site, "input-to-attention", language), wait_until="networkidle")
    blocks = page.locator(".md-typeset div.language-python.highlight:visible")
    assert blocks.count() >= 2
    block = blocks.nth(1)
    code = block.locator("code").inner_text()
    block.hover()
    button = block.locator("button.md-code__button[data-md-type=copy]")
    assert button.get_attribute("data-clipboard-target") == f"#{block.locator('pre').get_attribute('id')} > code"
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == code.strip()
    assert "print(" in copied


@pytest.mark.parametrize("language", ["en", "zh"])
def test_search_finds_a_chapter_by_a_word_of_its_language(page, served_site, language):
    word, expected_page = SEARCH_WORDS[language]
    page.goto(page_url(served_site, "index", language), wait_until="networkidle")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").fill(word)
    page.locator("input.md-search__input").press("End")  # a key event starts the search
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    links = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    prefix = served_site + ("zh/" if language == "zh" else "")
    assert any(link.startswith(prefix + expected_page) for link in links), links
    assert links[0].startswith(prefix) and ("/zh/" in links[0]) == (language == "zh"), links

"""The site as readers meet it: every page of both languages in a real browser (Chromium).

Uses Playwright for Python with Debian's Chromium (`apt-get install chromium`),
set up in conftest.py; Playwright cannot download a browser on these machines.
Without Chromium these tests skip with that hint, except under CI (CI=true),
where they fail.
"""

import os
import re

import pytest
from playwright.sync_api import expect

from conftest import EVERY_FIGURE_DRAWN, MATERIAL_BUNDLE, PAGES
from sitebuild.generate.notebook_cells import NOT_CHAPTERS
from sitebuild.inside_page.figures import READABLE_PX
from test_figure_text import CJK_FONT, TEXT_BOXES, latin_only_labels, layout_problems

NOTEBOOK_PAGES = [f"notebooks/{page}" for page in PAGES if page not in NOT_CHAPTERS]
PAGE_KIB = 100  # what a page may transfer as it loads, gzipped (served_site gzips as GitHub Pages does)
DRAWING_HEIGHTS = "() => Array.from(document.querySelectorAll('.figure-drawing'), box => box.getBoundingClientRect().height)"
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


PHONE = {"width": 360, "height": 740}  # a common phone, in CSS px
DESKTOP = {"width": 1280, "height": 900}  # conftest's browser_context_args
# Every figure's smallest text as drawn, in CSS px: an inline SVG's text from its font size and
# the SVG's scale on the screen; a notebook page's figure (an <img> of the SVG file) from the
# file's font sizes and the image's width.
SMALLEST_FIGURE_TEXT = """async () => {
  const inline = Array.from(document.querySelectorAll('.snippet-figure svg')).map(svg => {
    let smallest = Infinity, text = '';
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM(), size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (size < smallest) { smallest = size; text = t.textContent; }
    }
    return {figure: svg.closest('figure').id, smallest: smallest, text: text};
  });
  const images = await Promise.all(Array.from(document.querySelectorAll('.notebook-figure img')).map(async img => {
    const svg = await (await fetch(img.src)).text();
    const sizes = Array.from(svg.matchAll(/font-size: ([\\d.]+)px/g), m => parseFloat(m[1]));
    const width = parseFloat(/<svg [^>]*?width="([\\d.]+)pt"/.exec(svg)[1]);
    return {figure: img.getAttribute('src'), smallest: Math.min(...sizes) * img.getBoundingClientRect().width / width,
            text: ''};
  }));
  return inline.concat(images);
}"""


def check_figures(page, scheme):
    background = rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    for figure in page.evaluate(FIGURE_TEXT_COLOURS):
        assert figure["width"] > 100 and figure["height"] > 50, f"figure not rendered: {figure}"
        assert figure["fills"], "figure has no text in the page's text colour"
        for fill in figure["fills"]:
            ratio = contrast_ratio(rgb(fill), background)
            assert ratio >= 4.5, f"{scheme}: figure text {fill} on {background} has contrast {ratio:.1f}"


# Every text element of a page, with its colour composited over the background it is drawn
# on (alpha composited up the tree); contrast_problems holds them to 4.5 : 1, or 3 : 1 for
# large text (24 px, or bold 18.66 px). Figure text (SVG) is checked by check_figures.
TEXT_COLOURS = r"""() => {
  const parse = c => { const m = c.match(/[\d.]+/g); return {r: +m[0], g: +m[1], b: +m[2], a: m.length > 3 ? +m[3] : 1}; };
  const over = (top, bottom) => ({r: top.r*top.a + bottom.r*(1-top.a), g: top.g*top.a + bottom.g*(1-top.a), b: top.b*top.a + bottom.b*(1-top.a), a: 1});
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg.a > 0) { layers.push(bg); if (bg.a >= 1) break; }
    }
    let c = {r:255, g:255, b:255, a:1};
    for (let i = layers.length - 1; i >= 0; i--) c = over(layers[i], c);
    return c;
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el) || el.closest('svg, script, style, noscript')) continue;
    seen.add(el);
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const s = getComputedStyle(el);
    const bg = background(el), fg = over(parse(s.color), bg);
    const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight) >= 700;
    texts.push({text: node.textContent.trim().slice(0, 30), tag: el.tagName, cls: el.className.toString().slice(0, 40),
                colour: s.color, fg: [fg.r, fg.g, fg.b], bg: [bg.r, bg.g, bg.b], large: size >= 24 || (bold && size >= 18.66)});
  }
  return texts;
}"""


def contrast_problems(texts, scheme):
    problems = []
    for t in texts:
        ratio = contrast_ratio(t["fg"], t["bg"])
        if ratio < (3 if t["large"] else 4.5):
            background = "rgb({},{},{})".format(*(int(c) for c in t["bg"]))
            problems.append(f"{scheme}: {t['text']!r} ({t['tag']}.{t['cls']}) {t['colour']} on {background}: {ratio:.2f}")
    return problems

# Elements that scroll but that neither are focusable nor hold anything focusable.
UNREACHABLE_SCROLLING = """() => Array.from(document.querySelectorAll('body *')).filter(el => {
  const s = getComputedStyle(el);
  const scrolls = (/(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1)
               || (/(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1);
  return scrolls && el.checkVisibility() && el.tabIndex < 0
         && !el.querySelector('a[href], button, input, [tabindex]:not([tabindex="-1"])');
}).map(el => el.tagName + '.' + el.className.toString().slice(0, 40))"""

# The landmarks a screen reader is offered, as "role|name" (the name from aria-label, or from the
# elements aria-labelledby names: Material names each section's <nav> by its label).
LANDMARKS = r"""() => {
  const implicit = {NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary'};
  const out = [];
  document.querySelectorAll('nav, main, aside, header, footer, [role]').forEach(el => {
    let role = el.getAttribute('role') || implicit[el.tagName];
    if (!el.getAttribute('role') && (el.tagName === 'HEADER' || el.tagName === 'FOOTER'))
      role = el.parentElement.closest('article, aside, main, nav, section') ? null
           : (el.tagName === 'HEADER' ? 'banner' : 'contentinfo');
    if (['navigation', 'main', 'complementary', 'banner', 'contentinfo', 'search', 'region'].includes(role)
        && el.checkVisibility())  // hidden ones are not in the accessibility tree
      out.push(role + '|' + (el.getAttribute('aria-label') || (el.getAttribute('aria-labelledby') || '').split(/\s+/)
        .map(id => document.getElementById(id)).filter(Boolean).map(l => l.textContent.trim()).join(' ')));
  });
  return out;
}"""


def landmark_problems(landmarks):
    """Landmarks of one role that repeat must each have their own name."""
    problems = []
    for landmark in sorted(set(landmarks)):
        role = landmark.split("|")[0]
        if sum(other.split("|")[0] == role for other in landmarks) > 1:
            if landmarks.count(landmark) > 1 or not landmark.split("|")[1]:
                problems.append(f"{landmark} x{landmarks.count(landmark)}")
    return problems


# Chinese text that the browser would slant without an italic font: a fake.
FAKE_ITALIC_CHINESE = r"""() => Array.from(document.querySelectorAll('body *')).filter(el => {
  const s = getComputedStyle(el);
  return s.fontStyle !== 'normal' && s.fontSynthesisStyle !== 'none' && el.checkVisibility()
         && Array.from(el.childNodes).some(n => n.nodeType === 3 && /[一-鿿]/.test(n.textContent));
}).map(el => el.tagName + ': ' + el.textContent.trim().slice(0, 20))"""


def accessibility_problems(page, scheme, check_structure=True, contrast=True):
    problems = contrast_problems(page.evaluate(TEXT_COLOURS), scheme) if contrast else []
    if check_structure:
        problems += [f"scrolls but the keyboard cannot reach it: {e}" for e in page.evaluate(UNREACHABLE_SCROLLING)]
        problems += [f"landmark not unique: {e}" for e in landmark_problems(page.evaluate(LANDMARKS))]
    return problems


def test_the_accessibility_checks_can_fail(page):
    page.set_content("""<body style="background:#fff">
      <p style="color:#999">too pale</p><p style="color:#595959">dark enough</p>
      <div style="width:50px;overflow:auto"><pre>a line far too long for fifty pixels</pre></div>
      <nav></nav><nav aria-label="Footer"></nav><nav aria-label="Footer"></nav></body>""")
    problems = accessibility_problems(page, "light")
    page.set_content('<p><em>强调</em> <em style="font-synthesis-style: none">强调</em> <em>Latin</em></p>')
    assert page.evaluate(FAKE_ITALIC_CHINESE) == ["EM: 强调"]
    assert problems == ["light: 'too pale' (P.) rgb(153, 153, 153) on rgb(255,255,255): 2.85",
                        "scrolls but the keyboard cannot reach it: DIV.",
                        "landmark not unique: navigation| x1",
                        "landmark not unique: navigation|Footer x2"]


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", PAGES + NOTEBOOK_PAGES)
def test_page_in_the_browser(page, served_site, name, language):
    recorder = Recorder(page)
    url = page_url(served_site, name, language)
    # The CJK font the build measured figure text with, for the layout check below.
    page.route("**/__test-fonts/cjk.otf", lambda route: route.fulfill(
        body=CJK_FONT.read_bytes(), content_type="font/otf"))
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    transferred = []  # bytes of each response as sent (gzipped), headers included
    network.on("Network.loadingFinished", lambda event: transferred.append(event["encodedDataLength"]))
    page.goto(url, wait_until="networkidle")
    weight = sum(transferred) / 1024
    assert weight <= PAGE_KIB, f"{url} transfers {weight:.1f} KiB"

    assert not recorder.failures, f"failed requests on {url}: {recorder.failures}"
    assert not recorder.errors, f"console errors on {url}: {recorder.errors}"
    foreign = [r for r in recorder.requests if not r.startswith(served_site) and not r.startswith("data:")]
    assert not foreign, f"requests that leave 127.0.0.1: {foreign}"

    # Figures: drawn with a real size, text readable in the light and the dark scheme;
    # every other text readable too, what scrolls reachable, landmarks unique (WCAG 2.2 AA).
    # Every figure is drawn as when a reader scrolls to it: the browser restyles a figure it
    # skips (content-visibility: auto, extra.css) when it comes near the screen, and until
    # then getComputedStyle can give its colours from before the scheme was switched.
    skipped = page.evaluate(DRAWING_HEIGHTS)  # most figures not drawn yet: their boxes' heights
    page.add_style_tag(content=EVERY_FIGURE_DRAWN)
    assert page.evaluate(DRAWING_HEIGHTS) == pytest.approx(skipped, abs=0.5), "a figure's height changes when drawn"
    check_figures(page, "light")
    assert accessibility_problems(page, "light") == []
    assert page.evaluate(FAKE_ITALIC_CHINESE) == [], "Chinese set in a synthesised italic"
    page.locator("label[title='Switch to dark mode']:visible").first.click()
    page.wait_for_selector("body[data-md-color-scheme='slate']")
    check_figures(page, "dark")
    assert accessibility_problems(page, "dark", check_structure=False) == []
    page.locator("label[title='Switch to light mode']:visible").first.click()
    page.wait_for_selector("body[data-md-color-scheme='default']")

    # Figure text (test_figure_text.py): no overlap, nothing outside the figure, Chinese labels.
    if not name.startswith("notebooks/") and page.locator(".snippet-figure svg").count():
        page.add_style_tag(content='@font-face { font-family: "Noto Sans CJK SC"; '
                                   'src: url("/__test-fonts/cjk.otf") format("opentype"); }')
        figures = page.evaluate(TEXT_BOXES)
        assert figures != "figure text not in a CJK font"
        assert all(figure["texts"] for figure in figures), f"no figure text on {name}"
        assert layout_problems(figures) == []
        if language == "zh":
            labels = [t["text"] for figure in figures for t in figure["texts"] if not t["maths"]]
            assert latin_only_labels([t for t in labels if t.strip()]) == []

    # On a phone (360 CSS px): every figure's smallest text is at least 9 px tall; a figure too
    # wide for that scrolls sideways, inside its own box, never the page.
    page.set_viewport_size(PHONE)
    figures = page.evaluate(SMALLEST_FIGURE_TEXT)
    small = [f for f in figures if f["smallest"] < READABLE_PX - 0.01]  # 0.01: the browser's rounding
    assert not small, f"figure text under {READABLE_PX} px: {small}"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"
    assert accessibility_problems(page, "light", check_structure=True, contrast=False) == []
    page.set_viewport_size(DESKTOP)

    # The language selector leads to the same page in the other language (the page test of
    # that language loads it).
    other = "zh" if language == "en" else "en"
    link = page.evaluate(f"document.querySelector('a.md-select__link[hreflang={other}]').href")
    assert link == page_url(served_site, name, other)


# Desktop widths, in CSS px, at which no figure may be cut: Material's text column is 750 px
# wide at 1024 and 688 px from 1220 (both sidebars shown) to 1599, so a figure whose readable
# width (sitebuild/inside_page/figures.py) is at most 688 px fits all three.
DESKTOP_WIDTHS = [1024, 1280, 1440]
# The figure boxes of a page (chapters and notebook pages) that scroll sideways.
FIGURES_THAT_SCROLL = """() => Array.from(document.querySelectorAll('.snippet-figure, .notebook-figure'))
  .filter(box => box.scrollWidth > box.clientWidth)
  .map(box => `${box.id || box.querySelector('img').getAttribute('src')}: ${box.scrollWidth} px in ${box.clientWidth}`)"""


def figures_cut(page, widths=DESKTOP_WIDTHS):
    """{viewport width: the figure boxes that scroll sideways at it} for the page as loaded."""
    cut = {}
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        if scrolling := page.evaluate(FIGURES_THAT_SCROLL):
            cut[width] = scrolling
    page.set_viewport_size(DESKTOP)
    return cut


def test_the_desktop_figure_check_can_fail(page):
    page.set_content('<figure class="snippet-figure" id="too-wide" style="overflow-x:auto;width:600px;margin:0">'
                     '<div style="min-width:700px;height:10px"></div></figure>'
                     '<figure class="snippet-figure" id="fits" style="overflow-x:auto;width:600px;margin:0">'
                     '<div style="min-width:500px;height:10px"></div></figure>')
    assert figures_cut(page, [1024]) == {1024: ["too-wide: 700 px in 600"]}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", PAGES + NOTEBOOK_PAGES)
def test_no_figure_is_cut_on_a_desktop(page, served_site, name, language):
    """Issue 48: at 1024 px and wider every figure fits the text column with its smallest text
    9 px tall, so none is cropped at the right and scrolls sideways in its box."""
    page.goto(page_url(served_site, name, language), wait_until="load")
    page.add_style_tag(content=EVERY_FIGURE_DRAWN)
    assert figures_cut(page) == {}, "figures wider than the text column"


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


def test_a_figure_code_gets_its_copy_button_when_its_tab_is_shown(page, served_site):
    """Material mounts a code block's buttons when it becomes visible (content.lazy in mkdocs.yml):
    the figure's code, hidden in its Code tab at load, gets them when the tab is opened."""
    page.goto(page_url(served_site, "query-key-scores", "en"), wait_until="networkidle")
    tabs = page.locator(".tabbed-set").first
    code_tab = tabs.locator(".tabbed-block").nth(1)
    assert code_tab.locator("pre").count() == 1 and not code_tab.is_visible()
    assert code_tab.locator("button.md-code__button[data-md-type=copy]").count() == 0
    tabs.locator(".tabbed-labels > label").nth(1).click()
    expect(code_tab.locator("button.md-code__button[data-md-type=copy]")).to_have_count(1)


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
    # Each language has its own index (sitebuild/after_pages/search_index.py): every result is in the page's language
    assert all(link.startswith(prefix) and ("/zh/" in link) == (language == "zh") for link in links), links


MATERIAL_BUNDLE_URL = re.compile(rf".*/{MATERIAL_BUNDLE}$")
WATCH_LAYOUT_SHIFTS = """within => {
  window.layoutShifts = [];
  new PerformanceObserver(list => list.getEntries().forEach(e => {
    const moved = e.sources.filter(s => s.node && (!within || (s.node.closest && s.node.closest(within))));
    if (moved.length) window.layoutShifts.push(moved.map(s =>
      `${s.node.nodeName}.${s.node.className.baseVal ?? s.node.className} ` +
      `${Math.round(s.previousRect.x)},${Math.round(s.previousRect.y)} -> ` +
      `${Math.round(s.currentRect.x)},${Math.round(s.currentRect.y)}`).join("; "));
  })).observe({type: "layout-shift"});
}"""
RUN_SCRIPT = """url => new Promise((done, fail) => {
  const script = document.createElement("script");
  script.src = url; script.onload = done; script.onerror = fail;
  document.body.append(script);
})"""


def watch_layout_shifts(page, within=None):
    """From now on, record what moves on the page (only inside the CSS selector `within`, if given)."""
    page.evaluate(WATCH_LAYOUT_SHIFTS, within)


def layout_shifts(page):
    """What moved since watch_layout_shifts(page), one line per layout shift (after 300 ms to settle)."""
    page.wait_for_timeout(300)
    return page.evaluate("window.layoutShifts")


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
@pytest.mark.parametrize("name, language", [("index", "en"), ("dot-product-similarity", "en"),
                                            ("learning-relevance", "zh"), ("notebooks/learning-relevance", "en")])
def test_material_script_moves_nothing_when_it_comes_late(browser, served_site, name, language, viewport):
    """On a slow phone the page is drawn before Material's script at its end has run. Here it
    always is: the script is held back until the page has loaded, then run, and nothing on the
    screen may move (the search field used to appear and push the language selector aside)."""
    context = browser.new_context(viewport=dict(zip(("width", "height"), viewport)), service_workers="block")
    page = context.new_page()
    held = []
    page.route(MATERIAL_BUNDLE_URL, lambda route: held.append(route.request.url) or route.abort())
    page.goto(page_url(served_site, name, language), wait_until="networkidle")
    assert len(held) == 1
    watch_layout_shifts(page)
    page.unroute(MATERIAL_BUNDLE_URL)
    page.evaluate(RUN_SCRIPT, held[0])  # resolves once it has run
    assert page.evaluate("window.component$ !== undefined"), "Material's script did not start"
    assert layout_shifts(page) == [], "Material's script moved what the reader sees"
    context.close()


# Each figure box: does it scroll sideways, is it a tab stop, and is a heatmap's grid inside it.
FIGURE_BOXES = """() => Array.from(document.querySelectorAll('figure.snippet-figure')).map(f => ({
  id: f.id, scrolls: f.scrollWidth > f.clientWidth + 1, tabStop: f.getAttribute('tabindex') === '0',
  grid: !!f.querySelector('rect.cell-hit')}))"""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_figure_box_is_a_tab_stop_only_while_it_scrolls(page, served_site, language):
    """A figure too wide for a phone is a tab stop in the HTML, so that without JavaScript the keyboard
    can scroll it (sitebuild/inside_page/figures.py). At a desktop width where it fits it is not
    (accessibility-fixes.js): the first Tab into it lands on a heatmap's grid. At 360 px it is again."""
    url = page_url(served_site, "input-to-attention", language)
    html = page.context.request.get(url).text()
    in_html = re.findall(r'<figure class="snippet-figure"[^>]*id="([\w-]+)"[^>]*tabindex="0"', html)
    assert in_html, "no figure of the page is a tab stop in its HTML: nothing to check"
    page.goto(url, wait_until="networkidle")
    boxes = page.evaluate(FIGURE_BOXES)
    assert [b for b in boxes if b["tabStop"] != b["scrolls"]] == []
    fits = [b for b in boxes if b["id"] in in_html and not b["scrolls"] and b["grid"]]
    assert fits, "no figure with a heatmap that is a tab stop in the HTML fits the desktop column"
    figure = page.locator(f"#{fits[0]['id']}")
    figure.evaluate("f => { const b = document.createElement('button'); b.id = 'before-figure';"
                    " b.textContent = 'before'; f.before(b); b.focus(); }")
    page.keyboard.press("Tab")
    # Material's focus-visible polyfill may add a class of its own: ask for ours, not for the whole list.
    assert page.evaluate("document.activeElement.classList.contains('cell-hit')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    page.set_viewport_size(PHONE)
    page.wait_for_function(f"() => document.getElementById('{fits[0]['id']}').getAttribute('tabindex') === '0'")
    assert [b for b in page.evaluate(FIGURE_BOXES) if b["tabStop"] != b["scrolls"]] == []
    page.set_viewport_size(DESKTOP)


def test_the_chinese_pages_are_measured_in_the_font_chinese_readers_have():
    """The page test measures /zh/ pages at 360 px in Noto Sans CJK (fonts-noto-cjk, Android's CJK font,
    installed by .ci/run): a page one font fits may scroll sideways in another."""
    import shutil
    import subprocess
    fonts = subprocess.run(["fc-list"], capture_output=True, text=True).stdout if shutil.which("fc-list") else ""
    if "Noto Sans CJK" not in fonts:
        message = "Noto Sans CJK not installed: apt-get install fonts-noto-cjk (as .ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)

"""Explorable figures: every heatmap cell explains itself, two explorables, tables of numbers.

The build writes each figure's heatmaps (numbers, operands, place) into its SVG
(snippets/plotting.py -> sitebuild/generate/figures.py); docs/javascripts/cell-grids.js,
cell-explanations.js and explorables.js read them in the browser. These tests check the data in the built
pages, the JavaScript's maths against snippets/attention.py (1e-9, in Chromium), and
mouse, touch and keyboard in both languages and both schemes.
"""

import html
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention import scaled_dot_product_attention, softmax
from conftest import PAGES
from test_browser import contrast_ratio, layout_shifts, page_url, rgb, watch_layout_shifts

import plotting
from sitebuild.after_pages import figure_data

CHAPTERS = [p for p in PAGES if p not in {"glossary"}]


def allowed_cells(heatmap):
    """True where a heatmap's cell is not masked."""
    shape = np.shape(heatmap["values"])
    return np.ones(shape, bool) if heatmap["mask"] is None else np.array(heatmap["mask"], bool)


def figures_of(built_site, page, language):
    """A built page's HTML and its figures' full data (from the files the page names)."""
    prefix = "zh/" if language == "zh" else ""
    path = built_site / prefix / ("" if page == "index" else page) / "index.html"
    text = path.read_text(encoding="utf-8")
    return text, figure_data.full_data(text, path.parent)


# ---- The data the build writes ----

def test_a_computation_that_does_not_make_the_cells_is_refused():
    import matplotlib.pyplot as plt

    q, k = np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=r"cell \(0, 0\) is 12.0, the computation gives 11.0"):
        plotting.heatmap(ax, [[12.0]], ["q"], ["k"], "score", computed_as=plotting.dot_products(q, k))
    with pytest.raises(ValueError, match="rows of one width"):
        plotting.dot_products(q, np.ones((2, 3)))
    with pytest.raises(ValueError, match="one key label per row"):
        plotting.weighted_sums([[1.0]], [[2.0]], ["a", "b"])
    plt.close(fig)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_score_and_weight_cell_says_how_it_was_computed(built_site, language):
    heatmaps = 0
    for page in CHAPTERS:
        for data in figures_of(built_site, page, language)[1]:
            for heatmap in data["heatmaps"]:
                heatmaps += 1
                if heatmap["kind"] in ("score", "weight"):
                    assert heatmap["computed_as"], f"{page}: {heatmap['title'] or heatmap['rows']} has no operands"
                if heatmap["computed_as"]:  # the operands give the numbers the figure shows (as NumPy computes)
                    cells = plotting.computed_cells(heatmap["computed_as"], heatmap["mask"])
                    allowed = allowed_cells(heatmap)
                    values = np.array(heatmap["values"], dtype=float)
                    assert np.allclose(cells[allowed], values[allowed], rtol=0, atol=1e-9), page
    assert heatmaps >= 40


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_heatmap_has_its_numbers_as_a_table(built_site, language):
    summary = {"en": "Numbers in this figure", "zh": "图中的数字"}[language]
    for page in CHAPTERS:
        text, figures = figures_of(built_site, page, language)
        tables = re.findall(r'<details class="figure-numbers"><summary>(.*?)</summary>(.*?)</details>', text, re.S)
        assert len(tables) == len([f for f in figures if f["heatmaps"]]), page
        for (label, body), data in zip(tables, [f for f in figures if f["heatmaps"]]):
            assert label == summary
            cells = re.findall(r"<table.*?</table>", body, re.S)
            assert len(cells) == len(data["heatmaps"]), page
            for table, heatmap in zip(cells, data["heatmaps"]):
                shown = [html.unescape(c) for c in re.findall(r"<td>([^<]*)</td>", table)]
                assert shown == [cell for row in heatmap["text"] for cell in row], page


# ---- The JavaScript's maths against NumPy, in Chromium ----

JS_CELLS = """async () => {
  if (!window.cellGrids) return [];  // a page without heatmaps
  await window.cellGrids.explanations();  // as a reader's first use of a grid loads it
  return (await Promise.all(Array.from(document.querySelectorAll('svg[data-figure]'))
    .map(svg => window.cellExplanations.load(svg)))).flatMap(data =>
    data.heatmaps.filter(h => h.computed_as).map(h => ({
      title: h.title, values: h.values, mask: h.mask, text: h.text,
      js: h.values.map((row, i) => row.map((_, j) => window.cellExplanations.cellValue(h, i, j))),
      last: h.values.map((row, i) => row.map((_, j) => {
        const lines = window.cellExplanations.explain(h, i, j, window.cellExplanations.TEXT.en);
        return lines[lines.length - 1]; }))}))); }"""


def test_the_javascript_computes_every_cell_as_numpy_does(page, served_site):
    checked = 0
    for name in CHAPTERS:
        page.goto(page_url(served_site, name, "en"))
        for heatmap in page.evaluate(JS_CELLS):
            allowed = allowed_cells(heatmap)
            js = np.array(heatmap["js"], dtype=float)
            values = np.array(heatmap["values"], dtype=float)
            assert np.allclose(js[allowed], values[allowed], rtol=0, atol=1e-9), (name, heatmap["title"])
            for i, j in zip(*np.nonzero(allowed)):  # the explanation ends in the number the cell shows
                assert heatmap["last"][i][j].endswith("= " + heatmap["text"][i][j]), heatmap["last"][i][j]
            checked += int(allowed.sum())
    assert checked > 300


def test_the_javascript_attention_agrees_with_attention_py(page, served_site):
    page.goto(page_url(served_site, "query-key-value", "en"))  # a page that loads both scripts
    rng = np.random.default_rng(7)
    q, k, v = rng.normal(size=(5, 8)), rng.normal(size=(6, 8)), rng.normal(size=(6, 3))
    mask = rng.random((5, 6)) > 0.3
    mask[:, 0] = True
    output, weights = scaled_dot_product_attention(q, k, v, mask=mask)
    scores = q @ k.T
    heatmaps = {
        "weights": {"values": weights.tolist(), "mask": mask.tolist(),
                    "computed_as": plotting.softmax_rows(scores, d_k=8)},
        "output": {"values": output.tolist(), "mask": None,
                   "computed_as": plotting.weighted_sums(weights, v, list("abcdef"))},
        "scores": {"values": (scores / np.sqrt(8)).tolist(), "mask": None,
                   "computed_as": plotting.dot_products(q, k, d_k=8)},
    }
    for name, heatmap in heatmaps.items():
        js = np.array(page.evaluate("""h => h.values.map((row, i) => row.map((_, j) =>
            window.cellExplanations.cellValue(h, i, j)))""", heatmap))
        allowed = allowed_cells(heatmap)
        assert np.allclose(js[allowed], np.array(heatmap["values"])[allowed], rtol=0, atol=1e-9), name

    # The explorables' maths: a softmax row with and without ÷√d_k, and the turned key.
    row = rng.normal(size=10) * 20
    for d_k, scaled in [(512, True), (512, False), (3, True)]:
        js = page.evaluate("([r, d, s]) => window.explorables.softmaxRow(r, d, s)", [row.tolist(), d_k, scaled])
        assert np.allclose(js, softmax(row / np.sqrt(d_k) if scaled else row), rtol=0, atol=1e-9)
    query, key = np.array([2.0, -1.0, 1.0]), np.array([1.5, -1.0, 0.5])
    angle = np.arccos(query @ key / np.linalg.norm(query) / np.linalg.norm(key))
    for theta in [angle, 0.0, np.pi / 2, np.pi, 1.0]:
        turned = np.array(page.evaluate("([q, k, t]) => window.explorables.turnedKey(q, k, t)",
                                        [query.tolist(), key.tolist(), theta]))
        assert np.isclose(np.linalg.norm(turned), np.linalg.norm(key), rtol=0, atol=1e-9)
        assert np.isclose(query @ turned, np.linalg.norm(query) * np.linalg.norm(key) * np.cos(theta), atol=1e-9)
        if theta == angle:
            assert np.allclose(turned, key, rtol=0, atol=1e-9)  # it starts from the figure's key


def test_a_long_dot_product_names_its_four_largest_products_and_sums_the_rest(page, served_site):
    """The trained model's score q_milk · k_drank has 32 products: the cell names 4 and sums 28."""
    from minilm_heads import DRANK, MILK, score_products, strongest_head

    page.goto(page_url(served_site, "trained-heads", "en"))
    lines = page.evaluate("""async col => {
      await window.cellGrids.explanations();
      const h = (await Promise.all(Array.from(document.querySelectorAll('svg[data-figure]'))
          .map(svg => window.cellExplanations.load(svg))))
        .flatMap(data => data.heatmaps)
        .find(h => h.computed_as && h.computed_as.op === 'dot' && h.rows[0] === 'milk');
      return window.cellExplanations.explain(h, 0, col, window.cellExplanations.TEXT.en); }""", DRANK)
    products = score_products(*strongest_head(MILK, DRANK), MILK, DRANK)  # (32,)
    line = next(line for line in lines if "smaller products" in line)
    shown = [float(a.replace("−", "-")) * float(b.replace("−", "-"))
             for a, b in re.findall(r"\(([−\d.]+)\)\(([−\d.]+)\)", line)]
    largest = products[np.argsort(-np.abs(products))[:4]]
    assert np.allclose(shown, largest, atol=0.02), line
    rest = float(re.search(r"28 smaller products \(([−\d.]+)\)", line)[1].replace("−", "-"))
    assert rest == pytest.approx(products.sum() - largest.sum(), abs=0.01), line


# ---- Mouse, touch and keyboard, both languages and both schemes ----

EXPLAINED = {"en": "QKᵀ (factor matrix) · row “blue”, column “ball”", "zh": "QKᵀ（因子矩阵） · “blue”行，“ball”列"}
# blue's query (4, 0, −2, −2) and ball's key (1, 0, 0, 0), as the chapter prints them
BLUE_BALL = "q blue · k ball = (4)(1) + (0)(0) + (−2)(0) + (−2)(0) = 4"

# What a test's own mouse, touch or keys move inside the page's content: each test starts
# watching once the page has loaded (what moves as a page loads: tests/test_browser.py).
def watch_content_shifts(page):
    watch_layout_shifts(page, within=".md-content")


def open_page(page, url, scheme):
    page.goto(url, wait_until="networkidle")
    if scheme == "dark":
        page.locator("label[title='Switch to dark mode']:visible").first.click()
        page.wait_for_selector("body[data-md-color-scheme='slate']")


def factor_matrix(page):
    """The grid of QKᵀ, the third heatmap of fig_query_times_key."""
    return page.locator("#fig-query-times-key .cell-hit").nth(2)


def scroll_to(page, locator):
    """Scroll `locator` into view and wait until the page is drawn there, as a reader's screen is.

    A figure far from the screen is skipped (content-visibility, extra.css) until the frame that
    brings it near: a raw mouse move or tap sent before that frame would hit the empty box.
    """
    locator.scroll_into_view_if_needed()
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def cell_point(box, i, j, n_rows=4, n_cols=4):
    return box["x"] + (j + 0.5) * box["width"] / n_cols, box["y"] + (i + 0.5) * box["height"] / n_rows


def explanation_text(page):
    return page.locator(".cell-explanation:visible").inner_text().replace("\n", " ")


def assert_readable(page, scheme):
    box = page.locator(".cell-explanation:visible")
    colours = box.evaluate("el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]")
    ratio = contrast_ratio(rgb(colours[0]), rgb(colours[1]))
    assert ratio >= 4.5, f"{scheme}: explanation {colours} has contrast {ratio:.2f}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_cell_explains_itself_to_the_mouse_and_the_keyboard(page, served_site, language, scheme):
    open_page(page, page_url(served_site, "query-key-scores", language), scheme)
    heading = EXPLAINED[language]
    live = page.locator("#fig-query-times-key .cell-explanation-live")
    grid = factor_matrix(page)
    scroll_to(page, grid)
    box = grid.bounding_box()
    blue, ball = 3, 1
    watch_content_shifts(page)

    # Mouse: hover (blue, ball); the row and the column are outlined, the box says how.
    page.mouse.move(*cell_point(box, blue, ball))
    expect(page.locator(".cell-explanation:visible")).to_have_count(1)
    assert explanation_text(page).startswith(heading)
    assert "qblue · kball = (4)(1)" in explanation_text(page)  # with subscripts
    assert live.inner_text() == f"{heading}. {BLUE_BALL}"
    assert_readable(page, scheme)
    outlines = page.locator("#fig-query-times-key .cell-focus:visible rect")
    assert outlines.count() == 3
    row_band = outlines.nth(0).bounding_box()
    assert abs(row_band["y"] - (box["y"] + blue * box["height"] / 4)) < 2
    assert layout_shifts(page) == [], "the explanation moved the page's content"
    page.mouse.move(box["x"] - 40, box["y"] - 40)
    expect(page.locator(".cell-explanation:visible")).to_have_count(0)

    # Keyboard: Tab reaches the grids of the figure, arrows move, the live region speaks, Escape closes.
    grid.focus()
    assert "“blue”" in live.inner_text() and "“The”" in live.inner_text()  # the outlined row is where it starts
    page.keyboard.press("ArrowRight")
    assert live.inner_text() == f"{heading}. {BLUE_BALL}"
    expect(page.locator(".cell-explanation:visible")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".cell-explanation:visible")).to_have_count(0)
    assert live.inner_text() == ""
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.classList.contains('cell-hit')"), "Tab does not reach the grids"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_explanations_load_on_the_first_tab_and_answer_it(page, served_site, language):
    """A page without an explorable loads cell-explanations.js when a reader first uses a grid.

    Before that the keyboard reaches the grids (cell-grids.js lays them) and the focused grid is
    outlined; the focus that loads the script is answered: the live region says the first cell.
    """
    requested = []
    page.on("request", lambda request: requested.append(request.url.rsplit("/", 1)[-1]))
    page.goto(page_url(served_site, "query-key-scores", language), wait_until="networkidle")
    assert "cell-grids.js" in requested and "cell-explanations.js" not in requested
    assert page.evaluate("window.cellExplanations") is None
    grid = factor_matrix(page)
    assert grid.get_attribute("tabindex") == "0" and grid.get_attribute("aria-label")
    outline = "el => [getComputedStyle(el).stroke, getComputedStyle(el).strokeWidth]"
    assert grid.evaluate(outline)[0] == "none", "outlined before it has the focus"
    with page.expect_request(lambda request: request.url.endswith("cell-explanations.js")):
        focused = grid.evaluate(f"el => {{ el.focus(); return ({outline})(el); }}")  # before the script is in
    assert focused[0] != "none" and focused[1] == "3px", f"the focused grid is not outlined: {focused}"
    live = page.locator("#fig-query-times-key .cell-explanation-live")
    expect(live).to_contain_text("“blue”")  # the outlined row, where the keyboard starts
    page.keyboard.press("ArrowRight")
    expect(live).to_have_text(f"{EXPLAINED[language]}. {BLUE_BALL}")
    assert requested.count("cell-explanations.js") == 1


def test_the_first_tap_loads_the_explanations_and_is_answered(browser, served_site):
    """On a page that loads cell-explanations.js on first use, the tap that loads it shows its cell."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  service_workers="block")
    page = context.new_page()
    open_page(page, page_url(served_site, "query-key-scores", "en"), "light")
    assert page.evaluate("window.cellExplanations") is None
    grid = factor_matrix(page)
    scroll_to(page, grid)
    page.touchscreen.tap(*cell_point(grid.bounding_box(), 3, 1))  # (blue, ball)
    expect(page.locator(".cell-explanation:visible")).to_have_count(1)
    assert BLUE_BALL.replace("q blue", "qblue").replace("k ball", "kball") in explanation_text(page)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_cell_explains_itself_to_a_tap(browser, served_site, language, scheme):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  service_workers="block")
    page = context.new_page()
    open_page(page, page_url(served_site, "query-key-value", language), scheme)
    grid = page.locator("#fig-scale-softmax-stages .cell-hit").nth(2)  # the weights
    scroll_to(page, grid)
    box = grid.bounding_box()
    page.touchscreen.tap(*cell_point(box, 3, 1))
    text = explanation_text(page)
    assert "softmax" in text and "“blue”" in text and "“ball”" in text
    assert re.search(r"= 0\.\d\d$", text), text  # ends in the weight the cell shows
    assert_readable(page, scheme)
    page.touchscreen.tap(5, 5)  # a tap elsewhere closes it
    expect(page.locator(".cell-explanation:visible")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_turning_key_explorable(page, served_site, language, scheme):
    open_page(page, page_url(served_site, "dot-product-similarity", language), scheme)
    root = page.locator(".explorable[data-explorable='turn-key']")
    slider = root.locator("input[type=range]")
    says = root.locator(".explorable__says")
    assert slider.input_value() == "11"  # the angle between q = (2, −1, 1) and the aligned key (1.5, −1, 0.5)
    assert "q · k = 4.50 =" in says.inner_text()  # q · k of the figure's aligned pair
    products = root.locator("tbody td:nth-child(4)").all_inner_texts()
    assert products == ["3.00", "1.00", "0.50"]  # as the chapter prints them: [3. 1. 0.5]
    watch_content_shifts(page)
    slider.focus()
    for _ in range(90 - 11):
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == "90" and "q · k = 0 =" in says.inner_text()
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the far end: 180°
    assert slider.input_value() == "180" and "q · k = −" in says.inner_text()
    assert root.get_attribute("data-explorable") == "turn-key" and root.locator(".explorable__try").inner_text()
    assert layout_shifts(page) == [], "the explorable moved the page's content"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_softmax_sharpening_explorable(browser, served_site, language, scheme):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, service_workers="block")
    page = context.new_page()
    open_page(page, page_url(served_site, "query-key-value", language), scheme)
    root = page.locator(".explorable[data-explorable='softmax-sharpening']")
    slider, toggle = root.locator("input[type=range]"), root.locator("input[type=checkbox]")
    largest = lambda: float(re.search(r"(0\.\d\d|1\.00)", root.locator(".explorable__says").inner_text()).group(1))
    assert root.locator("output").inner_text() == "64"
    scaled = largest()
    watch_content_shifts(page)
    toggle.tap()  # touch: switch ÷√d_k off
    assert not toggle.is_checked()
    unscaled = largest()
    slider.focus()
    page.keyboard.press("End")  # d_k = 512
    assert root.locator("output").inner_text() == "512"
    assert largest() >= unscaled > scaled  # without scaling the row piles onto one key
    assert layout_shifts(page) == [], "the explorable moved the page's content"
    context.close()


# ---- The training replay of learning-relevance (docs/javascripts/training-replay.js) ----

REPLAY_DATA = "fig-query-turns-to-key.json"
REPLAY_LABEL = {"en": "training step", "zh": "训练步数"}


def replay(page):
    return page.locator("#fig-query-turns-to-key + .explorable[data-explorable='training-replay']")


def replay_weights(root):
    """milk's row as the replay says it: {word: weight}."""
    says = root.locator(".explorable__says").inner_text()
    return {word: float(weight) for word, weight in re.findall(r"(\w+) (\d\.\d\d)", says)}


def expected_row(step):
    """milk's row of weights at `step` of the chapter's training run, to two decimals."""
    import relevance_training as rt
    return {word: round(float(w), 2) for word, w in zip(rt.SENTENCE, rt.train().weights[step])}


def test_the_learning_relevance_replay_data_leaves_the_page(built_site):
    """The page holds the replay's controls and the plane; the run's vectors are in a file fetched on first use."""
    import json

    import relevance_training as rt
    for language in ("en", "zh"):
        text, figures = figures_of(built_site, "learning-relevance", language)
        svg = re.search(r"<svg [^>]*data-figure='([^']*)' data-figure-src=\"" + REPLAY_DATA + '"', text)
        assert svg, f"{language}: the replay's figure names no data file"
        kept = json.loads(html.unescape(svg[1]))["explorable"]
        assert kept["name"] == "training-replay" and kept["last"] == rt.STEPS and kept["every"] == 10
        assert not {"steps", "queries", "keys"} & set(kept), "the run's history is in the page"
        slider = re.search(r'<input type="range" id="fig-query-turns-to-key-step" min="0" max="(\d+)" step="(\d+)"', text)
        assert slider and (int(slider[1]), int(slider[2])) == (kept["last"], kept["every"])
        assert f'<label for="fig-query-turns-to-key-step">{REPLAY_LABEL[language]}</label>' in text
        full = next(f["explorable"] for f in figures if (f.get("explorable") or {}).get("name") == "training-replay")
        run = rt.train()
        assert full["steps"] == list(range(0, rt.STEPS + 1, 10))
        np.testing.assert_allclose(full["queries"], run.queries[full["steps"]], rtol=0, atol=5e-7)
        np.testing.assert_allclose(full["keys"], run.keys[full["steps"]], rtol=0, atol=5e-7)


def first_move(page, slider, key="ArrowRight"):
    """Move the slider once by keyboard: the move that loads training-replay.js and the run."""
    slider.focus()
    with page.expect_response(lambda response: response.url.endswith(REPLAY_DATA)):
        page.keyboard.press(key)
    page.wait_for_function("window.trainingReplay !== undefined")


def test_the_learning_relevance_replay_computes_the_weights_as_numpy_does(page, served_site):
    """training-replay.js's softmax(k · q / √d_k) on the fetched frames, against NumPy and the run."""
    import relevance_training as rt
    page.goto(page_url(served_site, "learning-relevance", "en"), wait_until="networkidle")
    first_move(page, replay(page).locator("input[type=range]"))
    data, js = page.evaluate(f"""async () => {{
      const data = (await (await fetch("{REPLAY_DATA}")).json()).explorable;
      return [data, data.steps.map((_, frame) => window.trainingReplay.weights(data, frame))]; }}""")
    queries, keys = np.array(data["queries"]), np.array(data["keys"])
    numpy = softmax(np.einsum("snd,sd->sn", keys, queries) / np.sqrt(data["d_k"]))
    np.testing.assert_allclose(js, numpy, rtol=0, atol=1e-12)
    np.testing.assert_allclose(js, rt.train().weights[data["steps"]], rtol=0, atol=1e-5)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_learning_relevance_replay_by_keyboard_and_mouse(page, served_site, language, scheme):
    requested = []
    page.on("request", lambda request: requested.append(request.url.rsplit("/", 1)[-1]))
    open_page(page, page_url(served_site, "learning-relevance", language), scheme)
    assert "cell-grids.js" in requested
    for later in ("training-replay.js", REPLAY_DATA, "explorables.js", "cell-explanations.js"):
        assert later not in requested, f"{later} is loaded before the reader uses the replay"
    root = replay(page)
    slider = root.locator("input[type=range]")
    assert root.locator("label").inner_text() == REPLAY_LABEL[language]
    assert slider.get_attribute("min") == "0" and slider.get_attribute("max") == "1500"
    scroll_to(page, slider)
    watch_content_shifts(page)
    slider.focus()
    assert REPLAY_DATA not in requested, "the run is fetched before the reader moves the slider"

    # Keyboard: the first key loads the script and the run and draws that step; ten steps of 10 reach 100.
    first_move(page, slider)
    expect(root.locator(".explorable__says")).to_contain_text("drank")
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == "100" and root.locator("output").inner_text() == "100"
    assert replay_weights(root) == expected_row(100)
    assert "100" in slider.get_attribute("aria-valuetext") and "1500" in slider.get_attribute("aria-valuetext")
    page.keyboard.press("End")
    assert slider.input_value() == "1500"
    assert replay_weights(root) == expected_row(1500)
    assert replay_weights(root)["drank"] == 0.68 and replay_weights(root)["cat"] == 0.32
    assert root.locator("svg path[d]").count() >= 9  # the axes, and four arrows of a line and a head each

    # Mouse: a click at the slider's start goes back to the random start.
    box = slider.bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    assert slider.input_value() == "0"
    assert replay_weights(root) == expected_row(0)
    assert requested.count(REPLAY_DATA) == 1 and requested.count("training-replay.js") == 1
    assert layout_shifts(page) == [], "the replay moved the page's content"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_learning_relevance_replay_by_touch(browser, served_site, language):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  service_workers="block")
    page = context.new_page()
    open_page(page, page_url(served_site, "learning-relevance", language), "light")
    root = replay(page)
    slider = root.locator("input[type=range]")
    scroll_to(page, slider)
    box = slider.bounding_box()
    assert box["height"] >= 24  # a target at least 24 px high (WCAG 2.5.8)
    with page.expect_response(lambda response: response.url.endswith(REPLAY_DATA)):
        page.touchscreen.tap(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the far end
    expect(root.locator(".explorable__says")).to_contain_text("drank 0.68")
    assert slider.input_value() == "1500" and replay_weights(root) == expected_row(1500)
    context.close()


def test_without_javascript_the_learning_relevance_replay_is_not_shown(browser, served_site):
    """Controls that would do nothing stay hidden; the static figure is there."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(page_url(served_site, "learning-relevance", "en"))
    assert page.locator("#fig-query-turns-to-key svg").count() == 1
    assert replay(page).count() == 1 and not replay(page).is_visible()
    context.close()

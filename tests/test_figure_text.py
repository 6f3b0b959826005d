"""Figure text in the page's language, laid out so that it fits.

Every figure is drawn once per language. On a page, each text element of a figure
(from its box in Chromium) overlaps no other and stays inside the figure, and on a
Chinese page no label is Latin only, except the example words and the symbols.
The browser gets the CJK font the build measured with (from the pinned
notojp-matplotlib), served to it as "Noto Sans CJK SC", one of the names in the
site's font stack for Chinese figure text, so the test needs no system font.

The layout is checked in the browser by tests/test_browser.py's page test, on the
page load it makes anyway (TEXT_BOXES and layout_problems are defined here).
"""

import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import minilm_heads
import relevance_training
import running_example
import tiny_translator
from sitebuild.generate import figures
from sitebuild.generate.figures import _render, figure_snippets

SVG = "{http://www.w3.org/2000/svg}"
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
EXAMPLE_WORDS = set(running_example.SOURCE_WORDS + running_example.LONG_TARGET_WORDS
                    + relevance_training.VOCAB
                    + [token.strip("[]") for token in minilm_heads.TOKENS]  # [CLS] and [SEP] too
                    + [w for word in tiny_translator.ENGLISH + tiny_translator.SPANISH
                       for w in (word, word.capitalize())])  # the translator's sentences
NAMED_FUNCTIONS = {"softmax", "sin", "cos", "pos", "tanh", "ln"}


def is_symbol(word):
    """q, k, QK, W_Q, d_k, ...: one or two letters, or a letter with a subscript."""
    return len(word) <= 2 or re.fullmatch(r"[A-Za-z]_[A-Za-z]+", word) or word in NAMED_FUNCTIONS


def latin_only_labels(texts):
    """The texts with no Chinese character and a word that is neither an example word nor a symbol.

    Tokens in angle brackets (<start>, <pad>) are data too, and so is a token in curly quotes
    (“ Paris”: a trained model's token, shown with the space it carries).
    """
    return [t for t in texts if not CJK.search(t)
            and any(w not in EXAMPLE_WORDS and not is_symbol(w)
                    for w in re.findall(r"[A-Za-z_]+", re.sub(r"<\w+>|“[^”]*”", "", t)))]


def svg_texts(svg):
    """The text of every <text> element; mathtext (one <tspan> per glyph) counts as maths."""
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.find(f"{SVG}tspan") is None]


def test_the_allow_list_lets_symbols_and_example_words_through_and_nothing_else():
    assert latin_only_labels(["blue", "<start> La", "W_Q", "q·k / √d_k", "sin(pos)", "0.81", "查询词 blue",
                              "“ Paris”"]) == []
    assert latin_only_labels(["query word", "blue row", "weights (softmax)"]) == [
        "query word", "blue row", "weights (softmax)"]


def drawn(snippet, lang):
    """The SVG the run's build drew (its cache), or, with the cache off, drawn here."""
    return figures._cached(snippet.stem, lang, figures.cache_key(snippet, lang)) or _render(snippet, lang)


@pytest.mark.parametrize("snippet", figure_snippets(), ids=lambda p: p.stem)
def test_each_language_has_its_own_labels(snippet, built_site):
    english, chinese = svg_texts(drawn(snippet, "en")), svg_texts(drawn(snippet, "zh"))
    assert not [t for t in english if CJK.search(t)], "Chinese text in the English figure"
    assert any(CJK.search(t) for t in chinese), "the Chinese figure has no Chinese text"
    assert latin_only_labels(chinese) == [], "English labels left in the Chinese figure"


def test_a_character_no_font_has_fails_the_drawing(tmp_path, monkeypatch):
    from sitebuild.generate import figures as figure_drawing
    broken = tmp_path / "fig_glyph.py"
    broken.write_text(
        "import matplotlib.pyplot as plt\n"
        "def draw(lang='en'):\n"
        "    fig, ax = plt.subplots()\n"
        "    ax.set_title('蓝色')  # no CJK font set: the default font lacks these glyphs\n"
        "    return fig\n")
    with pytest.raises(Exception, match=r"fig_glyph\.py \(lang='zh'\).*(missing from font|does not have a glyph)"):
        figure_drawing._render(broken, "zh")
    maths = tmp_path / "fig_maths.py"
    maths.write_text(
        "import matplotlib.pyplot as plt\n"
        "from plotting import use_language\n"
        "def draw(lang='en'):\n"
        "    use_language(lang)\n"
        "    fig, ax = plt.subplots()\n"
        "    ax.set_title(r'$q\\ 蓝色$')  # mathtext has no CJK font, even with one set\n"
        "    return fig\n")
    with pytest.raises(Exception, match="does not have a glyph"):
        figure_drawing._render(maths, "zh")


# --- In the browser --------------------------------------------------------------------------

CJK_FONT = next(Path(importlib.util.find_spec("notojp_matplotlib").submodule_search_locations[0])
                .glob("fonts/*.otf"))

TEXT_BOXES = """async () => {
  await document.fonts.load('16px "Noto Sans CJK SC"', '中');
  await document.fonts.ready;
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const svg = document.querySelector('.snippet-figure svg');
  const probe = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  probe.setAttribute('style', 'font-size: 100px');
  probe.textContent = '中文';
  svg.appendChild(probe);
  const probeWidth = probe.getBBox().width;  // 200 in a CJK font, about half with boxes
  probe.remove();
  if (document.documentElement.lang === 'zh' && probeWidth < 190) return 'figure text not in a CJK font';
  return Array.from(document.querySelectorAll('.snippet-figure svg')).map(svg => {
    const frame = svg.getBoundingClientRect();
    const texts = Array.from(svg.querySelectorAll('text')).map(t => {
      // Width: the text's advance, as laid out. Height: from 0.88 em above the baseline
      // (the top of a CJK glyph) to 0.2 em below (a descender), not the font's taller line box.
      const b = t.getBBox(), m = t.getScreenCTM(), size = parseFloat(getComputedStyle(t).fontSize);
      const baseline = t.hasAttribute('y') ? parseFloat(t.getAttribute('y')) : b.y + b.height - 0.2 * size;
      const top = Math.max(b.y, baseline - 0.88 * size), bottom = Math.min(b.y + b.height, baseline + 0.2 * size);
      const corner = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
      return {text: t.textContent, maths: t.querySelector('tspan') !== null,
              corners: [corner(b.x, top), corner(b.x + b.width, top),
                        corner(b.x + b.width, bottom), corner(b.x, bottom)]};
    });
    return {id: svg.closest('figure').id, frame: [frame.left, frame.top, frame.right, frame.bottom],
            visible: frame.width > 0, texts};
  });
}"""


def ink_box(corners, shrink):
    """The box of a text, shrunk towards its centre: side bearings and line gaps are not ink."""
    cx = sum(x for x, _ in corners) / 4
    cy = sum(y for _, y in corners) / 4
    return [(cx + (x - cx) * shrink, cy + (y - cy) * shrink) for x, y in corners]


def overlap(a, b):
    """Whether two convex quadrilaterals overlap (separating axis theorem)."""
    for quad in (a, b):
        for (x1, y1), (x2, y2) in zip(quad, quad[1:] + quad[:1]):
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


def layout_problems(figures, shrink=0.9, margin=1.0):
    problems = []
    for figure in figures:
        if not figure["visible"]:
            problems.append(f"{figure['id']}: not shown")
            continue
        left, top, right, bottom = figure["frame"]
        texts = [t for t in figure["texts"] if t["text"].strip()]
        for t in texts:
            xs, ys = [x for x, _ in t["corners"]], [y for _, y in t["corners"]]
            if min(xs) < left - margin or max(xs) > right + margin or min(ys) < top - margin or max(ys) > bottom + margin:
                problems.append(f"{figure['id']}: {t['text']!r} leaves the figure")
        boxes = [ink_box(t["corners"], shrink) for t in texts]
        for i in range(len(texts)):
            for j in range(i + 1, len(texts)):
                if overlap(boxes[i], boxes[j]):
                    problems.append(f"{figure['id']}: {texts[i]['text']!r} overlaps {texts[j]['text']!r}")
    return problems


def test_the_overlap_check_can_fail():
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    moved = [(x + 5, y + 5) for x, y in square]
    far = [(x + 30, y) for x, y in square]
    figure = {"id": "f", "frame": [0, 0, 20, 20], "visible": True,
              "texts": [{"text": "a", "corners": square}, {"text": "b", "corners": moved},
                        {"text": "c", "corners": far}]}
    assert layout_problems([figure]) == ["f: 'c' leaves the figure", "f: 'a' overlaps 'b'"]
    figure["texts"] = [{"text": "a", "corners": square}, {"text": "b", "corners": far}]
    figure["frame"] = [0, 0, 40, 20]
    assert layout_problems([figure]) == []

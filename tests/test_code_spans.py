"""sitebuild/after_pages/code_spans.py: highlighted code in fewer elements, every character in the colour it had."""

import re
from html import unescape
from pathlib import Path

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

import material
from sitebuild.after_pages import code_spans
from conftest import SNIPPETS

TOKEN = re.compile(r'<span class="([\w-]+)">([^<]*)</span>|([^<]+)')
RULE = re.compile(r"((?:\.highlight \.[\w-]+,?)+)\{color:([^;}]+)")


def material_colours():
    """Material's colour of each Pygments class, read from its stylesheet (a class it omits is plain)."""
    css = next(Path(material.__file__).parent.glob("templates/assets/stylesheets/main.*.min.css")).read_text()
    return {cls: colour for selectors, colour in RULE.findall(css)
            for cls in re.findall(r"\.highlight \.([\w-]+)", selectors)}


COLOURS = material_colours()


def declared(variable):
    """Every value a colour variable is given: Material's light and dark stylesheets, then ours."""
    styles = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    sheets = [*sorted(styles.glob("*.min.css")), Path(__file__).parent.parent / "docs/stylesheets/extra.css"]
    return [re.findall(rf"{variable}:\s*([^;}}]+)", sheet.read_text(encoding="utf-8")) for sheet in sheets]


# Operators and punctuation: our stylesheet, last, gives both the code's own colour in every scheme.
CODE_COLOUR = {"var(--md-code-fg-color)"}
SAME = ({"var(--md-code-hl-operator-color)": "var(--md-code-hl-name-color)",
         "var(--md-code-hl-punctuation-color)": "var(--md-code-hl-name-color)"}
        if set(declared("--md-code-hl-operator-color")[-1]) == set(declared("--md-code-hl-punctuation-color")[-1])
        == CODE_COLOUR else {})


def colours(html):
    """Each visible character of highlighted HTML with the colour Material gives it (spaces have none)."""
    out = []
    for cls, text, bare in TOKEN.findall(html):
        colour = COLOURS.get(cls, "var(--md-code-hl-name-color)")  # plain code text
        colour = SAME.get(colour, colour)
        out += [(char, None if char.isspace() else colour) for char in unescape(text or bare)]
    return out


@pytest.mark.parametrize("name", ["attention.py", "relevance_training.py", "fig_words_to_qkv.py"])
def test_fewer_spans_keep_every_character_and_its_colour(name):
    html = highlight((SNIPPETS / name).read_text(encoding="utf-8"), PythonLexer(), HtmlFormatter(nowrap=True))
    fewer = code_spans.fewer_spans(html)
    assert colours(fewer) == colours(html)
    assert fewer.count("<span") < 0.7 * html.count("<span"), (fewer.count("<span"), html.count("<span"))


def test_a_changed_colour_would_be_seen():
    """The comparison above can fail: a string merged with its plain prefix (f"...") changes a colour."""
    html = '<span class="sa">f</span><span class="s2">&quot;a&quot;</span>'
    assert colours('<span class="s2">f&quot;a&quot;</span>') != colours(html)
    assert colours(code_spans.fewer_spans(html)) == colours(html)


def test_the_built_pages_hold_the_fewer_spans(built_site):
    page = (built_site / "zh" / "learning-relevance" / "index.html").read_text(encoding="utf-8")
    assert '<span class="n">' not in page and '<span class="w">' not in page


def test_punctuation_and_operators_are_drawn_in_the_codes_own_colour():
    """Why their spans can go: docs/stylesheets/extra.css sets both, for every scheme, after Material."""
    css = (Path(__file__).parent.parent / "docs/stylesheets/extra.css").read_text(encoding="utf-8")
    rule = re.search(r"\[data-md-color-scheme\] \{([^}]*)\}", css)
    assert rule, "no rule for every scheme"
    for variable in ("--md-code-hl-operator-color", "--md-code-hl-punctuation-color"):
        assert re.search(rf"{variable}:\s*var\(--md-code-fg-color\);", rule[1]), variable
        assert declared(variable)[-1] == ["var(--md-code-fg-color)"], variable  # and nowhere else in ours


def test_names_are_drawn_in_the_codes_own_colour():
    """Why a name's span can go: every stylesheet that sets the name colour sets the code colour."""
    assert {value for sheet in declared("--md-code-hl-name-color") for value in sheet} == {"var(--md-code-fg-color)"}

"""Claims about the pages themselves: how long a chapter's main line is, where numbers are printed, how each chapter ends."""

import re

import pytest

from conftest import DOCS
from sitebuild.generate.notebook_cells import NOT_CHAPTERS
from test_running_example_consistency import page_facts

MAIN_LINE_WORDS = {"learning-relevance": 1500}  # the longest chapter; the rest sits in collapsible blocks


def main_line_words(markdown):
    """Words of prose outside code, math, figures, links' targets and collapsible or note blocks."""
    text = re.sub(r"^([ ]*)(```|~~~).*?^\1\2[ ]*$", "", markdown, flags=re.S | re.M)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    text = re.sub(r"\$[^$\n]+\$", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    kept, inside_block = [], False
    for line in text.splitlines():
        if re.match(r"(\?\?\?|!!!)", line):
            inside_block = True
        elif inside_block and (line.startswith("    ") or not line.strip()):
            continue
        else:
            inside_block = False
            if not line.startswith("!["):
                kept.append(line)
    return len(re.findall(r"[A-Za-z0-9'’]+", "\n".join(kept)))


def test_long_chapters_keep_their_main_line_short():
    for slug, limit in MAIN_LINE_WORDS.items():
        words = main_line_words((DOCS / f"{slug}.md").read_text(encoding="utf-8"))
        assert words < limit, f"{slug}.md: {words} words of prose outside collapsible blocks"


def test_the_word_count_skips_code_math_and_collapsible_blocks():
    page = ("Two words.\n\n```python\nprint('not counted')\n```\n\n$$\nx + y\n$$\n\n"
            "A [link](glossary.md#a) and $q \\cdot k$.\n\n??? note \"Hidden\"\n\n    Not counted here.\n\nEnd.")
    assert main_line_words(page) == 2 + 3 + 1


def test_blues_weights_are_printed_in_full_only_where_they_are_introduced_and_derived():
    """weighted-values introduces blue's four weights; query-key-value derives them from the scores.
    Every other page links there instead of printing them again."""
    full = set()
    for page, facts in page_facts().items():
        if page.endswith(".zh.md"):
            continue
        columns = {column for name, word, column, *_ in facts if name == "weights" and word == "blue"}
        if len(columns) == 4:
            full.add(page)
    assert full == {"weighted-values.md", "query-key-value.md"}


CHAPTERS = sorted(p.stem for p in DOCS.glob("*.md")
                  if not p.name.endswith(".zh.md") and p.stem not in NOT_CHAPTERS)


def check_yourself_problems(markdown):
    """What is missing from a chapter's closing questions: the last section, 2-3 answers in collapsed blocks."""
    sections = re.split(r"^## ", markdown, flags=re.M)
    last = sections[-1]
    if not re.match(r"[^\n]*\{ #check-yourself \}", last):
        return ["the last section is not { #check-yourself }"]
    answers = len(re.findall(r'^\?\?\? success "(Answer|答案)"', last, re.M))
    return [] if 2 <= answers <= 3 else [f"{answers} collapsed answers, not 2 or 3"]


@pytest.mark.parametrize("suffix", [".md", ".zh.md"])
@pytest.mark.parametrize("slug", CHAPTERS)
def test_every_chapter_ends_with_questions_and_collapsed_answers(slug, suffix):
    assert check_yourself_problems((DOCS / f"{slug}{suffix}").read_text(encoding="utf-8")) == []


def test_the_questions_check_can_fail():
    ok = '## Check yourself { #check-yourself }\n\n**1.** Q?\n\n??? success "Answer"\n\n    A.\n\n' \
         '**2.** Q?\n\n??? success "Answer"\n\n    A.\n'
    assert check_yourself_problems("# T\n\n" + ok) == []
    assert check_yourself_problems("# T\n\n" + ok + "\n## What comes next { #next }\n") != []
    assert check_yourself_problems("# T\n\n" + ok.split("**2.**")[0]) == ["1 collapsed answers, not 2 or 3"]


# --- No equation widens a page ------------------------------------------------------------------
# Display maths ($$ ... $$) sits in a box of its own that scrolls sideways (extra.css .math-block,
# a tab stop while it scrolls). Inline maths cannot: MathML does not break a line, so one long
# formula in a sentence would make a 360 px page scroll (issue 48: 363 px in Noto Sans CJK).
# An inline formula of more glyphs than this is written as display maths.
INLINE_MATH_GLYPHS = 28


def inline_math_glyphs(tex):
    """About how many glyphs an inline formula shows: a command one, braces and scripts' marks none."""
    shown = re.sub(r"\\(?:text|mathrm|operatorname)\{([^}]*)\}", r"\1", tex)
    shown = re.sub(r"\\[a-zA-Z]+|\\.", "x", shown)
    return len(re.sub(r"[{}_^ ]", "", shown))


def long_inline_maths(markdown):
    text = re.sub(r"^([ ]*)(```|~~~).*?^\1\2[ ]*$", "", markdown, flags=re.S | re.M)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    return [tex for tex in re.findall(r"(?<!\$)\$([^$\n]+)\$(?!\$)", text) if inline_math_glyphs(tex) > INLINE_MATH_GLYPHS]


def test_the_inline_maths_check_can_fail():
    assert long_inline_maths(r"so $q_i \cdot k_j = x_i W_Q (x_j W_K)^\top = x_i\, (W_Q W_K^\top)\, x_j^\top$ holds") != []
    assert long_inline_maths(r"so $q \cdot k / \sqrt{d_k}$ and $$q_i \cdot k_j = x_i W_Q (x_j W_K)^\top = x_i (W_Q W_K^\top) x_j^\top$$") == []


@pytest.mark.parametrize("path", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_no_inline_formula_is_too_long_for_a_phone(path):
    assert long_inline_maths(path.read_text(encoding="utf-8")) == [], "write it as display maths ($$ ... $$)"

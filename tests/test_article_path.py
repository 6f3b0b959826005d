"""The article's path (issue 46): the two parts of the navigation, the box that opens every
chapter with its reading time, and the rules for the visible text of the twelve article chapters.

Each check is a function that returns its problems, run on the site and on a planted fault.
"""

import posixpath
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
import yaml

from conftest import DOCS, ROOT, SNIPPETS
from sitebuild.inside_page import chapter_box
from sitebuild.inside_page.chapter_box import MalformedChapterBox, minutes_to_read, reading_minutes, visible_parts

ARTICLE = ["index", "input-to-attention", "query-key-scores", "weighted-values", "query-key-value",
           "dot-product-similarity", "learning-relevance", "summary", "encoder-self-attention",
           "decoder-self-attention", "encoder-decoder-attention", "conclusion"]
OPENING = "going-deeper"  # the deep part's opening page: what each chapter answers, what to read first
DEEP = ["why-this-design", "multi-head-attention", "trained-model", "trained-heads", "trained-decoder",
        "induction-heads", "attention-is-not-alignment"]  # in this order; later ones may follow
PARTS = {"en": ("The article", "Going deeper", "Glossary"), "zh": ("原文", "深入", "术语表")}
LANGUAGES = ("en", "zh")


def source(slug, language):
    return DOCS / (f"{slug}.md" if language == "en" else f"{slug}.{language}.md")


def read(slug, language):
    return source(slug, language).read_text(encoding="utf-8")


# --- The navigation --------------------------------------------------------------------------

class ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml as data: its !ENV and !relative tags become None."""


ConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
CONFIG = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=ConfigLoader)
TRANSLATIONS = next(language for language in next(p for p in CONFIG["plugins"] if "i18n" in p)["i18n"]["languages"]
                    if language["locale"] == "zh")["nav_translations"]


def nav_parts(nav):
    """[(title, [slug, ...]), ...] for the top level of mkdocs.yml's nav (a page alone: its own part)."""
    parts = []
    for entry in nav:
        (title, target), = entry.items()
        pages = [next(iter(item.values())) for item in target] if isinstance(target, list) else [target]
        parts.append((title, [page.removesuffix(".md") for page in pages]))
    return parts


def nav_problems(parts):
    """What the navigation gets wrong against issue 46: the two parts, in order, then the glossary."""
    titles, problems = [title for title, _ in parts], []
    if titles != list(PARTS["en"]):
        problems.append(f"top-level entries {titles}, expected {list(PARTS['en'])}")
        return problems
    article, deep, glossary = (pages for _, pages in parts)
    if article != ARTICLE:
        problems.append(f"the article's part is {article}, expected {ARTICLE}")
    if deep[:1] != [OPENING] or [page for page in deep if page in DEEP] != DEEP or deep[1:len(DEEP) + 1] != DEEP:
        problems.append(f"the deep part is {deep}, expected {[OPENING] + DEEP} and then later chapters")
    if glossary != ["glossary"]:
        problems.append(f"the last entry is {glossary}, expected the glossary")
    every_page = sorted(p.stem for p in DOCS.glob("*.md") if not p.name.endswith(".zh.md"))
    listed = article + deep + glossary
    if sorted(listed) != every_page:
        problems.append(f"pages listed {sorted(listed)} are not every page {every_page}")
    return problems


def nav_titles(nav):
    """Every title in the nav, sections and pages."""
    for entry in nav:
        (title, target), = entry.items()
        yield title
        if isinstance(target, list):
            yield from nav_titles(target)


def test_the_navigation_has_the_two_parts_then_the_glossary():
    assert nav_problems(nav_parts(CONFIG["nav"])) == []
    assert [TRANSLATIONS[title] for title in PARTS["en"]] == list(PARTS["zh"])
    assert [title for title in nav_titles(CONFIG["nav"]) if title not in TRANSLATIONS] == []


def test_the_navigation_check_can_fail():
    good = nav_parts(CONFIG["nav"])
    swapped = [good[1], good[0], good[2]]
    assert nav_problems(swapped)
    moved = [("The article", good[0][1] + ["why-this-design"]),
             ("Going deeper", [page for page in good[1][1] if page != "why-this-design"]), good[2]]
    assert len(nav_problems(moved)) == 2
    reordered = [good[0], ("Going deeper", [OPENING, "multi-head-attention", "why-this-design"] + DEEP[2:]), good[2]]
    assert nav_problems(reordered)


class Sidebar(HTMLParser):
    """The primary navigation of a built page as [(title, [page slug, ...]), ...]: a section with its
    pages, or a page alone. Links are read relative to `page`, the built page's slug."""

    def __init__(self, page):
        super().__init__()
        self.page, self.parts, self.depth, self.inside, self.skip, self.text = page, [], 0, False, 0, None

    def slug(self, href):
        path = posixpath.normpath(posixpath.join("/" if self.page == "index" else f"/{self.page}/", href))
        return path.strip("/") or "index"

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "nav" and "md-nav--primary" in classes:
            self.inside = True
        elif not self.inside or self.skip or (tag == "nav" and "md-nav--secondary" in classes):
            self.skip += tag == "nav" and self.inside
        elif tag == "li":
            self.depth += 1
            if self.depth == 1:
                self.parts.append([None, []])
        elif tag == "label" and re.fullmatch(r"__nav_\d+_label", attrs.get("id") or "") and self.depth == 1:
            self.text = ""
        elif tag == "a" and "md-nav__link" in classes and not attrs["href"].startswith("#"):
            self.parts[-1][1].append(self.slug(attrs["href"]))
            if self.depth == 1:
                self.text = ""

    def handle_endtag(self, tag):
        if self.skip:
            self.skip -= tag == "nav"
        elif self.inside and tag == "li":
            self.depth -= 1
        elif self.inside and tag == "ul" and self.depth == 0:
            self.inside = False
        elif tag in ("label", "a") and self.text is not None:
            self.parts[-1][0], self.text = " ".join(self.text.split()), None

    def handle_data(self, data):
        if self.text is not None:
            self.text += data


def sidebar(html, page):
    reader = Sidebar(page)
    reader.feed(html)
    return [(title, pages) for title, pages in reader.parts]


def sidebar_problems(html, language, page):
    """What a built page's sidebar gets wrong: the parts' titles in the page's language, and their pages."""
    parts = sidebar(html, page)
    titles = [title for title, _ in parts]
    if titles != list(PARTS[language]):
        return [f"sidebar parts {titles}, expected {list(PARTS[language])}"]
    return [f"{title}: pages {shown}, expected {pages}"
            for (title, shown), (_, pages) in zip(parts, nav_parts(CONFIG["nav"])) if shown != pages]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ["index", "trained-model", OPENING])
def test_the_built_sidebar_shows_both_parts_in_the_pages_language(built_site, slug, language):
    folder = built_site / ("zh" if language == "zh" else "") / ("" if slug == "index" else slug)
    html = (folder / "index.html").read_text(encoding="utf-8")
    assert sidebar_problems(html, language, slug) == []


def test_the_sidebar_check_can_fail(built_site):
    html = (built_site / "zh" / "trained-model" / "index.html").read_text(encoding="utf-8")
    assert sidebar_problems(html, "zh", "trained-model") == []
    assert sidebar_problems(html, "en", "trained-model")  # the English titles on a Chinese page
    assert sidebar_problems(html.replace("\n深入\n", "\nGoing deeper\n", 1), "zh", "trained-model")
    assert sidebar_problems(html.replace('href="../input-to-attention/"', 'href="../why-this-design/"', 1),
                            "zh", "trained-model")
    assert sidebar_problems(html, "zh", "index")  # every link read from the wrong folder


# --- The chapter box -------------------------------------------------------------------------

CHAPTERS = ARTICLE + DEEP  # every page that opens with a box (the deep part's opening page is a list of them)
LINK = re.compile(r"\[((?:[^\[\]]|\\\[|\\\]|\[[^\[\]]*\])*)\]\(([^)\s]+)\)")
HEADING_ID = re.compile(r"^#{1,6} .*\{ #([\w-]+)[^}]*\}[ \t]*$", re.M)
NO_NEW_TERMS = {"en": "none", "zh": "无"}
START_HERE = {"en": "nothing: start here", "zh": "无，从这里开始"}


def anchors(slug, language):
    return set(HEADING_ID.findall(read(slug, language)))


def box_problems(markdown, language, slug, earlier):
    """What is wrong with a chapter's box: its place, its three items, its links.

    `earlier` are the chapters a reader meets before this one; "Read first" may link only those.
    """
    try:
        box = chapter_box.chapter_box(markdown, language)
    except MalformedChapterBox as error:
        return [str(error)]
    if box is None:
        return ["no chapter box"]
    start, end, _, (question, read_first, terms) = box
    lines, problems = markdown.splitlines(), []
    if not (lines[0].startswith("# ") and start == 2 and lines[1] == "" and lines[start + 1] == ""):
        problems.append("the box is not right after the title, with one blank line before it")
    if end >= len(lines) or lines[end].strip() or (end + 1 < len(lines) and not lines[end + 1].strip()):
        problems.append("the box is not followed by one blank line")
    if len(re.findall(r"[.?!。？！](?=\s|$)", question)) != 1 or not question.endswith(("?", "？")):
        problems.append(f"the question is not one sentence ending in a question mark: {question!r}")
    reads = LINK.findall(read_first)
    if not reads and read_first.strip() != START_HERE[language]:
        problems.append(f"read first: no link, and not {START_HERE[language]!r}")
    for _, target in reads:
        page, _, anchor = target.partition("#")
        if not page.endswith(".md") or page[:-3] not in earlier:
            problems.append(f"read first links {target}, not a chapter before this one")
        elif anchor and anchor not in anchors(page[:-3], language):
            problems.append(f"read first links {target}: no such heading")
    found_terms = LINK.findall(terms)
    if not found_terms and not terms.strip().startswith(NO_NEW_TERMS[language]):
        problems.append(f"new terms: no glossary link, and not {NO_NEW_TERMS[language]!r} (a chapter that brings none)")
    for _, target in found_terms:
        page, _, anchor = target.partition("#")
        if page != "glossary.md" or not anchor:
            problems.append(f"new terms links {target}, not a glossary entry")
        elif any(anchor not in anchors("glossary", other) for other in LANGUAGES):
            problems.append(f"new terms links {target}: no such entry in both glossaries")
    return problems


def test_a_chapter_may_say_it_brings_no_new_term():
    """The summary puts the earlier chapters' terms together and brings none: its box says so."""
    box = ("# T { #t }\n\n!!! abstract chapter-box \"In this chapter\"\n\n    - **Question:** Why?\n"
           "    - **Read first:** [A](a.md)\n    - **New terms:** {terms}\n\nText.\n")
    assert box_problems(box.replace("{terms}", "none: it puts the earlier ones together"), "en", "t", ["a"]) == []
    assert box_problems(box.replace("{terms}", "loss and gradients"), "en", "t", ["a"]) != []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", CHAPTERS)
def test_every_chapter_opens_with_its_box(slug, language):
    assert box_problems(read(slug, language), language, slug, CHAPTERS[:CHAPTERS.index(slug)]) == []


def test_the_box_check_can_fail():
    good = ('# T { #t }\n\n!!! abstract chapter-box "In this chapter"\n\n'
            "    - **Question:** Why?\n    - **Read first:** [A](a.md)\n"
            "    - **New terms:** [loss](glossary.md#loss)\n\nText.\n")
    assert box_problems(good, "en", "b", ["a"]) == []
    assert box_problems(good, "en", "b", []) == ["read first links a.md, not a chapter before this one"]
    assert box_problems(good.replace("#loss", "#no-such-term"), "en", "b", ["a"])
    assert box_problems(good.replace("glossary.md#loss", "a.md"), "en", "b", ["a"])
    assert box_problems(good.replace("# T { #t }\n\n", "# T { #t }\n\nIntro.\n\n"), "en", "b", ["a"])
    assert box_problems(good.replace("\n\nText", "\nText"), "en", "b", ["a"])
    assert box_problems(good.replace("Why?", "Why? And how?"), "en", "b", ["a"])
    assert box_problems(good.replace("    - **New terms:** [loss](glossary.md#loss)\n", ""), "en", "b", ["a"])
    assert box_problems(good.replace("[A](a.md)", START_HERE["en"]), "en", "a", []) == []
    assert box_problems("# T { #t }\n\nText.\n", "en", "b", ["a"]) == ["no chapter box"]


BUILT_BOX = re.compile(r'<div class="admonition abstract chapter-box">(?P<box>.*?)</div>', re.S)
BUILT_TIME = {"en": re.compile(r"<li><strong>Reading time:</strong> (\d+) min</li>"),
              "zh": re.compile(r"<li><strong>阅读时间：</strong>(\d+) 分钟</li>")}


def built_time_problems(html, markdown, language):
    """The built page's box: one box, four items, the last the reading time that the source gives."""
    boxes = BUILT_BOX.findall(html)
    if len(boxes) != 1:
        return [f"{len(boxes)} chapter boxes in the built page"]
    items = re.findall(r"<li>.*?</li>", boxes[0], re.S)
    times = BUILT_TIME[language].findall(boxes[0])
    expected = reading_minutes(markdown, language, SNIPPETS)
    if len(items) != 4 or len(times) != 1 or not BUILT_TIME[language].fullmatch(items[-1]):
        return [f"the box's items are {items}, expected three and the reading time"]
    return [] if int(times[0]) == expected else [f"reading time {times[0]} min, the source gives {expected}"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", CHAPTERS)
def test_the_built_box_shows_the_reading_time_computed_from_the_page(built_site, slug, language):
    folder = built_site / ("zh" if language == "zh" else "") / ("" if slug == "index" else slug)
    html = (folder / "index.html").read_text(encoding="utf-8")
    assert built_time_problems(html, read(slug, language), language) == []


def test_the_built_reading_time_check_can_fail(built_site):
    html = (built_site / "zh" / "trained-model" / "index.html").read_text(encoding="utf-8")
    markdown = read("trained-model", "zh")
    assert built_time_problems(html, markdown, "zh") == []
    assert built_time_problems(html, markdown + "\n多读一点。" * 400, "zh")
    assert built_time_problems(html, markdown, "en")


# --- The reading time ------------------------------------------------------------------------

BOX = ('!!! abstract chapter-box "In this chapter"\n\n    - **Question:** Why?\n'
       "    - **Read first:** [A](a.md)\n    - **New terms:** [loss](glossary.md#loss)\n")
ZH_BOX = ('!!! abstract chapter-box "本章"\n\n    - **问题：**为什么？\n'
          "    - **先读：**[甲](a.md)\n    - **新术语：**[损失（loss）](glossary.md#loss)\n")


def test_the_reading_time_grows_with_the_words_the_figures_the_code_and_the_questions():
    page = "# T { #t }\n\n" + BOX + "\nText.\n"
    base = minutes_to_read(page, "en")
    assert reading_minutes(page, "en") == 1
    assert minutes_to_read(page + "word " * 1500, "en") == pytest.approx(base + 10)  # 150 words a minute
    assert reading_minutes(page + "word " * 1500, "en") == 10
    assert minutes_to_read(page + "![Caption](fig_x.py)\n" * 3, "en") == pytest.approx(base + 3)
    code = "```python\n" + "x = 1\n\n" * 20 + "```\n"  # 10 lines a minute, blank lines skipped
    assert minutes_to_read(page + code, "en") == pytest.approx(base + 2)
    questions = "## Check yourself { #check-yourself }\n\n" + '**1.** Why?\n\n??? success "Answer"\n\n    Because.\n\n' * 3
    elsewhere = questions.replace("{ #check-yourself }", "{ #other }")  # the same text, no questions
    assert minutes_to_read(page + questions, "en") == pytest.approx(minutes_to_read(page + elsewhere, "en") + 6)
    assert minutes_to_read(page + '??? note "Aside"\n\n' + "    hidden\n" * 2000, "en") == pytest.approx(
        minutes_to_read(page + "Aside\n", "en"))


def test_the_reading_time_of_chinese_counts_characters_and_latin_words():
    page = "# 题 { #t }\n\n" + ZH_BOX + "\n"
    base = minutes_to_read(page, "zh")
    assert minutes_to_read(page + "注意力" * 1000, "zh") == pytest.approx(base + 10)  # 300 characters a minute
    assert minutes_to_read(page + "milk " * 1500, "zh") == pytest.approx(base + 10)  # Latin words at the English rate
    with pytest.raises(ValueError, match="unknown language"):
        reading_minutes(page, "fr")


def test_the_reading_time_counts_an_included_file_by_its_lines(tmp_path):
    (tmp_path / "long.py").write_text("x = 1\n" * 100, encoding="utf-8")
    page = "# T { #t }\n\n" + BOX + '\n```python\n--8<-- "long.py"\n```\n'
    assert minutes_to_read(page, "en", tmp_path) - minutes_to_read(page, "en") == pytest.approx(9.9)
    assert visible_parts(page, tmp_path)[1] == 100


def test_the_extension_appends_the_reading_time_in_plain_python_markdown():
    import markdown

    def render(text, language):
        return markdown.markdown(text, extensions=["admonition", "sitebuild.inside_page.chapter_box"],
                                 extension_configs={"sitebuild.inside_page.chapter_box": {"language": language}})

    html = render("# T\n\n" + BOX + "\n" + "word " * 300, "en")
    assert BUILT_TIME["en"].findall(html) == ["2"]
    assert BUILT_TIME["zh"].findall(render("# 题\n\n" + ZH_BOX + "\n" + "字" * 900, "zh")) == ["3"]
    assert "Reading time" not in render("# T\n\nNo box here.\n", "en")
    assert "Reading time" not in render("# T\n\n```markdown\n" + BOX + "```\n", "en")  # a box shown as code
    for broken in [BOX.replace("    - **Read first:** [A](a.md)\n", ""),
                   BOX.replace("**New terms:**", "**Terms:**"),
                   BOX.replace("**Question:** Why?", "**Question:**"),
                   BOX + "    - **Reading time:** 3 min\n",
                   BOX + "\n" + BOX,
                   BOX.replace("In this chapter", "Overview")]:
        with pytest.raises(MalformedChapterBox):
            render("# T\n\n" + broken + "\nText.\n", "en")
    with pytest.raises(MalformedChapterBox):
        render("# 题\n\n" + BOX + "\n", "zh")  # English labels on a Chinese page


def test_a_malformed_box_stops_the_build_and_names_the_page(tmp_path):
    """In MkDocs itself (a small site with the extension, not this one): the error names the page."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "docs" / "broken-chapter.md").write_text(
        "# T\n\n" + BOX.replace("    - **Read first:** [A](a.md)\n", "") + "\nText.\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - admonition\n  - sitebuild.inside_page.chapter_box\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "broken-chapter.md" in result.stderr and "Read first" in result.stderr, result.stderr


# --- The visible text of the article's chapters ----------------------------------------------

LONG_SENTENCE_WORDS = 40
LONG_SENTENCES_ALLOWED = 2
CHINESE_CHARACTERS_PER_WORD = 1.6  # PATH46: a Chinese sentence over ~65 characters is long
# A code constant: an upper-case identifier with an underscore and a part of two or more letters
# (P_GREEDY, W_Q_CROSS, N_HEADS). A matrix's name of single letters, W_Q or W_O, is maths.
CONSTANT = re.compile(r"(?<![\w$\\])(?=[A-Z0-9_]*[A-Z]{2})[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w])")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
WORD = re.compile(r"[A-Za-z0-9]+(?:['’.,\-][A-Za-z0-9]+)*")


def visible_prose(markdown):
    """The paragraphs and list items a reader sees: no collapsed aside, code, table, figure or heading."""
    prose = visible_parts(markdown)[0]
    units, unit = [], []
    for line in prose.splitlines():
        text = line.strip()
        starts = re.match(r"([-*+]|\d+\.)\s", text)
        if not text or text.startswith(("#", "|", "!!!", "???", "<")) or starts:
            if unit:
                units.append(" ".join(unit))
            unit = []
            if starts:
                unit = [text[starts.end():]]
            continue
        unit.append(text)
    if unit:
        units.append(" ".join(unit))
    return [u for u in units if u.strip()]


def plain(unit):
    """A unit of prose as read: link text kept, targets dropped, a formula or code span as one word."""
    text = re.sub(r"\]\([^)\s]*\)", "]", unit)
    text = re.sub(r"\$[^$]+\$", "x", text)
    text = re.sub(r"(`+)[^`]+?\1", "x", text)
    return re.sub(r"[*_\[\]]|\{[^}]*\}", "", text)


def sentences(unit, language):
    if language == "zh":
        return [s for s in re.split(r"(?<=[。！？])", plain(unit)) if s.strip()]
    return [s for s in re.split(r"(?<=[.?!])[\"”’)]*\s+(?=[A-Z\"“(0-9])", plain(unit)) if s.strip()]


def sentence_words(sentence, language):
    """A sentence's length in English words: Chinese characters count 1/1.6 word each."""
    latin = len(WORD.findall(CJK.sub(" ", sentence)))
    return latin + (len(CJK.findall(sentence)) / CHINESE_CHARACTERS_PER_WORD if language == "zh" else 0)


def long_sentences(markdown, language):
    return [s for unit in visible_prose(markdown) for s in sentences(unit, language)
            if sentence_words(s, language) > LONG_SENTENCE_WORDS]


def constants_in_prose(markdown):
    prose = visible_parts(markdown)[0]
    prose = re.sub(r"\$\$.*?\$\$", " ", prose, flags=re.S)
    prose = re.sub(r"\$[^$\n]+\$", " ", prose)  # maths: W_Q is a matrix there
    prose = re.sub(r"\]\([^)\s]*\)", "]", prose)  # a link's target may name a file
    prose = "\n".join(line for line in prose.splitlines() if not line.lstrip().startswith(("|", "#")))
    return CONSTANT.findall(prose)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ARTICLE)
def test_an_article_chapter_has_at_most_two_long_sentences(slug, language):
    found = long_sentences(read(slug, language), language)
    assert len(found) <= LONG_SENTENCES_ALLOWED, "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ARTICLE)
def test_an_article_chapter_names_no_code_constant_in_its_prose(slug, language):
    assert constants_in_prose(read(slug, language)) == []


def test_the_visible_text_checks_can_fail():
    long = "This sentence " + "goes on " * 20 + "and ends."
    page = f"# T {{ #t }}\n\n{long} Short one.\n\n- {long}\n\n{long}\n"
    assert len(long_sentences(page, "en")) == 3
    hidden = f'# T {{ #t }}\n\n??? note "Going further"\n\n    {long}\n\n```python\nx = 1\n```\n\n| {long} |\n'
    assert long_sentences(hidden, "en") == []
    assert long_sentences("A value of 0.81 (e.g. this one) stays in one sentence. Next.", "en") == []
    zh = "这" * 66 + "。" + "短句。"
    assert len(long_sentences(zh, "zh")) == 1 and long_sentences("这" * 60 + "。", "zh") == []
    assert constants_in_prose("With `P_GREEDY` set, W_Q_CROSS and N_HEADS appear.\n") == ["P_GREEDY", "W_Q_CROSS", "N_HEADS"]
    assert constants_in_prose("The matrix $W_Q$ and `W_O`, d_k, [a](fig_x_y.py).\n\n```python\nP_GREEDY = 1\n```\n"
                              '\n??? note "Aside"\n\n    P_GREEDY\n') == []

"""Python-Markdown extension: the box that opens a chapter, with a reading time computed from the page.

Every chapter opens, right after its title, with this box (both languages, issue 46):

    !!! abstract chapter-box "In this chapter"

        - **Question:** Why does training make milk's query point along drank's key?
        - **Read first:** [The dot product measures similarity](dot-product-similarity.md)
        - **New terms:** [loss](glossary.md#loss), [gradient descent](glossary.md#gradient-descent)

(Chinese: "本章", **问题：**, **先读：**, **新术语：**). The extension checks the box and appends a
fourth item, "**Reading time:** N min" / "**阅读时间：**N 分钟", computed by `reading_minutes` from
the page's own Markdown. A box with another title, without those three items in that order each
with its text, or with a reading time typed in, or a second box, raises MalformedChapterBox, which
stops the build; MkDocs's error names the page. A page without a box is left as it is.

How the reading time is counted (`reading_minutes`). It is the time to read what a reader sees
when the page opens, and to do what the page asks of them:

- prose: English at 150 words a minute (a careful pace for a technical text, with maths);
  Chinese at 300 characters a minute, plus its Latin words (model names, code names, example
  words) at the English rate. A word is a run of letters or digits ("0.81", "don't" and
  "look-ahead" are one each); headings, lists, tables, notes that are shown and the titles of
  collapsed asides count, link targets, heading ids and HTML tags do not. Inline code and an
  inline formula count as one word each, a displayed formula as DISPLAY_MATH_WORDS.
- code shown on the page, and the output printed under it: CODE_LINES_PER_MINUTE lines a
  minute (blank lines skipped). A reader follows it, line by line, slower than prose. A block
  that includes a file of snippets/ (`--8<-- "attention.py"`) counts that file's lines.
- each figure: FIGURE_MINUTES (its caption is part of that minute). Its code sits in a tab
  that is not shown, and is not counted.
- each question of "Check yourself": QUESTION_MINUTES more, to think it through (the question's
  words count as prose).
- left out: what a collapsed aside (`??? note "..."`) holds, answers included, and HTML comments.
  A reader who opens an aside reads longer; the box says what the visible page takes.

The total is rounded to the nearest minute, and is at least 1.

The extension's options: `language`, the page's language ("en" or "zh"), which
hooks/inside_page.py sets for each language's build, as for figures.py; and `snippets`, the
folder that pymdownx.snippets includes files from.
"""

import math
import re
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor

TITLE = {"en": "In this chapter", "zh": "本章"}
ITEMS = {"en": ("Question:", "Read first:", "New terms:"), "zh": ("问题：", "先读：", "新术语：")}
READING_TIME = {"en": ("Reading time:", "**Reading time:** {n} min"), "zh": ("阅读时间：", "**阅读时间：**{n} 分钟")}

ENGLISH_WORDS_PER_MINUTE = 150
CHINESE_CHARACTERS_PER_MINUTE = 300
CODE_LINES_PER_MINUTE = 10
FIGURE_MINUTES = 1
QUESTION_MINUTES = 2
DISPLAY_MATH_WORDS = 10

BOX = re.compile(r'^!!![ \t]+abstract[ \t]+chapter-box\b(?:[ \t]+"(?P<title>[^"]*)")?')
ITEM = re.compile(r"^(?P<indent>[ \t]+)- (?P<text>.*)$")
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})")
INCLUDE = re.compile(r'^[ \t]*-+8<-+[ \t]+"(?P<name>[^"]+)"[ \t]*$')
COLLAPSED = re.compile(r'^(?P<indent>[ \t]*)\?\?\?(?!\+)[ \t]*[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+"(?P<title>[^"]*)")?')
FIGURE = re.compile(r"^[ \t]*!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(fig_\w+\.py\)[ \t]*$")
CHECK_YOURSELF = re.compile(r"^## .*\{ #check-yourself \}[ \t]*$")
ANSWER = re.compile(r'^\?\?\? success\b')
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:['’.,\-][A-Za-z0-9\u00c0-\u024f]+)*")


class MalformedChapterBox(ValueError):
    """A page's chapter box has another title, lacks one of its three items, has the reading time typed in, or comes twice."""


def _indent(line):
    return len(line) - len(line.lstrip(" \t"))


def chapter_box(markdown, language):
    """(first line, line after the last item, the items' indent, the three items' texts) of the page's box,
    or None when it has none (lines counted from 0).

    Raises MalformedChapterBox when the box is not as the module's docstring says.
    """
    lines, fence, starts = markdown.splitlines(), None, []
    for n, line in enumerate(lines):  # outside fenced code
        if (marker := FENCE.match(line)) and (fence is None or marker["fence"].startswith(fence)):
            fence = marker["fence"] if fence is None else None
        elif fence is None and BOX.match(line):
            starts.append(n)
    if not starts:
        return None
    if len(starts) > 1:
        raise MalformedChapterBox(f"{len(starts)} chapter boxes; a page has one, after its title")
    start = starts[0]
    if BOX.match(lines[start])["title"] != TITLE[language]:
        raise MalformedChapterBox(f'the chapter box\'s title is not "{TITLE[language]}": {lines[start].strip()}')
    items, end, n, indent = [], start + 1, start + 1, "    "
    while n < len(lines) and (not lines[n].strip() or _indent(lines[n]) >= 4):
        if (item := ITEM.match(lines[n])):
            items.append(item["text"].strip())
            end, indent = n + 1, item["indent"]
        elif lines[n].strip() and items:  # a list item's text that goes on to the next line
            items[-1] += " " + lines[n].strip()
            end = n + 1
        n += 1
    labels, (typed, _) = ITEMS[language], READING_TIME[language]
    found = [re.match(r"\*\*(.*?)\*\*", item) for item in items]
    names = [match[1].strip() if match else item for match, item in zip(found, items)]
    if any(name == typed for name in names):
        raise MalformedChapterBox(f'the chapter box has "{typed}" typed in: the build computes it, leave it out')
    if names != list(labels) or any(not item[len(match[0]):].strip() for match, item in zip(found, items)):
        expected = ", ".join(f"**{label}** ..." for label in labels)
        raise MalformedChapterBox(
            f"the chapter box needs three items, each with its text: {expected} (found: {names or 'no items'})")
    return start, end, indent, [item[len(match[0]):].strip() for match, item in zip(found, items)]


def visible_parts(markdown, snippets=None):
    """What a reader sees on opening the page: (prose, code lines, figures, questions).

    `prose` is the text outside code, collapsed asides, figures and comments; `code lines` the
    non-blank lines of the fenced blocks shown (code and printed output), a file included from
    the folder `snippets` counted by its own lines; `figures` how many figures; `questions` how
    many questions "Check yourself" asks (one collapsed answer each).
    """
    markdown = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)
    prose, code_lines, figures, questions = [], 0, 0, 0
    lines, n, checking = markdown.splitlines(), 0, False
    while n < len(lines):
        line = lines[n]
        if (fence := FENCE.match(line)):
            marker, n = fence["fence"], n + 1
            while n < len(lines) and not lines[n].strip().startswith(marker):
                code_lines += _code_lines(lines[n], snippets)
                n += 1
            n += 1
            continue
        if (aside := COLLAPSED.match(line)):
            prose.append(aside["title"] or "")
            questions += bool(checking and ANSWER.match(line))
            indent, n = _indent(line), n + 1
            while n < len(lines) and (not lines[n].strip() or _indent(lines[n]) > indent):
                n += 1
            continue
        if FIGURE.match(line):
            figures += 1
        elif line.startswith("## "):
            checking = bool(CHECK_YOURSELF.match(line))
            prose.append(line)
        else:
            prose.append(line)
        n += 1
    return "\n".join(prose), code_lines, figures, questions


def _code_lines(line, snippets):
    """The lines a line of a fenced block shows: 0 if blank, an included file's non-blank lines, else 1."""
    include = INCLUDE.match(line)
    if include and snippets is not None and (Path(snippets) / include["name"]).is_file():
        text = (Path(snippets) / include["name"]).read_text(encoding="utf-8")
        return sum(1 for shown in text.splitlines() if shown.strip())
    return int(bool(line.strip()))


def prose_minutes(prose, language):
    """Minutes to read `prose` (Markdown) at the module's rates."""
    displayed = len(re.findall(r"\$\$.*?\$\$", prose, flags=re.S))
    text = re.sub(r"\$\$.*?\$\$", " ", prose, flags=re.S)
    text = re.sub(r"\$[^$\n]+\$", " x ", text)  # an inline formula: one word
    text = re.sub(r"(`+)[^`\n]+?\1", " x ", text)  # inline code: one word
    text = re.sub(r"\]\([^)\s]*\)", "]", text)  # a link's target
    text = re.sub(r"\{[ \t]*[#.][^}]*\}", " ", text)  # attribute lists: heading ids, classes
    text = re.sub(r"<[^>\n]+>", " ", text)  # HTML tags
    text = re.sub(r'^[ \t]*(?:!!!|===)[ \t]*[\w-]*(?:[ \t]+[\w-]+)*', " ", text, flags=re.M)  # a note's kind
    characters = len(CJK.findall(text)) if language == "zh" else 0
    words = len(WORD.findall(CJK.sub(" ", text))) + displayed * DISPLAY_MATH_WORDS
    return words / ENGLISH_WORDS_PER_MINUTE + characters / CHINESE_CHARACTERS_PER_MINUTE


def minutes_to_read(markdown, language, snippets=None):
    """The time to read a page, in minutes (not rounded), from its Markdown source.

    `language` is "en" or "zh"; `snippets` the folder that `--8<--` includes files from (None:
    an include counts as one line). The rates are the module's constants (see its docstring).
    """
    if language not in ITEMS:
        raise ValueError(f"reading time: unknown language {language!r} (expected one of {sorted(ITEMS)})")
    prose, code_lines, figures, questions = visible_parts(markdown, snippets)
    return (prose_minutes(prose, language) + code_lines / CODE_LINES_PER_MINUTE
            + figures * FIGURE_MINUTES + questions * QUESTION_MINUTES)


def reading_minutes(markdown, language, snippets=None):
    """The reading time the box shows: `minutes_to_read`, rounded to whole minutes (half up), at least 1."""
    return max(1, math.floor(minutes_to_read(markdown, language, snippets) + 0.5))


def with_reading_time(markdown, language, snippets=None):
    """`markdown` with the reading time as the last item of its chapter box (unchanged without a box)."""
    box = chapter_box(markdown, language)
    if box is None:
        return markdown
    _, end, indent, _ = box
    lines = markdown.splitlines()
    item = f"{indent}- {READING_TIME[language][1].format(n=reading_minutes(markdown, language, snippets))}"
    return "\n".join(lines[:end] + [item] + lines[end:])


class ChapterBoxPreprocessor(Preprocessor):
    """The reading time into the box, on the page's source: before pymdownx.snippets (32) and the figures (35)."""

    def __init__(self, md, language, snippets):
        super().__init__(md)
        self.language, self.snippets = language, snippets

    def run(self, lines):
        return with_reading_time("\n".join(lines), self.language, self.snippets).split("\n")


class ChapterBoxExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {
            "language": ["en", "The page's language: the box's labels and the reading rates"],
            "snippets": ["snippets", "The folder that pymdownx.snippets includes files from"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        md.preprocessors.register(
            ChapterBoxPreprocessor(md, self.getConfig("language"), self.getConfig("snippets")), "sitebuild_chapter_box", 40)


def makeExtension(**kwargs):
    return ChapterBoxExtension(**kwargs)

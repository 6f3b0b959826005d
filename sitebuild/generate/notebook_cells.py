"""Markdown to cells: a chapter page becomes a Jupyter notebook (not executed).

Part of notebooks.py. The notebook is made from the
same sources as the page: the chapter's headings and prose as Markdown cells,
and its code, in page order, as code cells. A figure, `![caption](fig_x.py)`,
becomes its caption, the snippet's code without its `if __name__ == "__main__":`
block, and a cell `draw();` (`draw("zh");` in Chinese) that shows the figure; a
```python fence becomes a code cell (`--8<--` includes expanded); expected-output
blocks are left out, since the cell above prints them. The first code cells
write the modules of snippets/ that the chapter imports (notebook_modules.py),
so the notebook runs without the repository.
"""

import ast
import re

import nbformat

from .. import ROOT
from ..inside_page.figures import DIRECTIVE
from ..languages import page_url
from .errors import GenerationError
from .figures import SNIPPETS
from .notebook_modules import module_cell, needed_modules

DOCS = ROOT / "docs"
NOT_CHAPTERS = {"index", "going-deeper", "glossary"}  # pages without code or questions of their own

TEXT = {
    "en": {
        "figure": "**Figure:** {caption}",
        "and": ", ",
        "intro": (
            "> This notebook is the chapter [{title}]({url}) of *Why attention works*, generated "
            "from the same sources as the page. Run it from top to bottom{modules}."
        ),
        "modules": (
            ": the first code cells save the modules the chapter imports ({names}) next to the "
            "notebook, so it needs nothing but NumPy and matplotlib"
        ),
    },
    "zh": {
        "figure": "**图：**{caption}",
        "and": "、",
        "intro": (
            "> 本笔记本就是《注意力为什么有效》中的“[{title}]({url})”一章，与网页由同一份源文件生成。"
            "请从上到下依次运行{modules}。"
        ),
        "modules": (
            "：最前面的几个代码单元会把本章导入的模块（{names}）保存在笔记本旁边，"
            "所以除了 NumPy 和 matplotlib 之外什么都不需要"
        ),
    },
}

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*\{[ \t]*#(?P<id>[\w-]+)[^}]*\}[ \t]*$")
# `!!! note "Title"`; a note may have classes after its kind (`!!! abstract chapter-box "In this chapter"`)
ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)[ \t]*(?P<kind>[\w-]+)(?:[ \t]+[\w-]+)*(?:[ \t]+"(?P<title>[^"]*)")?[ \t]*$')
MARK = re.compile(r"^[ \t]*<!--[ \t]*pytest-codeblocks:(?P<mark>[\w-]+).*-->[ \t]*$")
INCLUDE = re.compile(r'^(?P<indent>[ \t]*)-+8<-+[ \t]+"(?P<name>[^"]+)"[ \t]*$')
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
CODE_OR_MATH = re.compile(r"(`+).*?\1|\$\$.*?\$\$|\$[^$\n]+\$", re.S)
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)



def chapters():
    """The slugs of the chapters, in file-name order."""
    return sorted(p.stem for p in DOCS.glob("*.md")
                  if not p.name.endswith(".zh.md") and p.stem not in NOT_CHAPTERS)


def chapter_source(slug, language):
    """docs/<slug>.md or docs/<slug>.<language>.md (the English page when the translation is missing)."""
    translated = DOCS / f"{slug}.{language}.md"
    return translated if language != "en" and translated.is_file() else DOCS / f"{slug}.md"


def parse_page(text):
    """A chapter's Markdown as ("markdown", text), ("code", source) and ("figure", caption, file) items."""
    items, prose, mark = [], [], None
    lines = text.splitlines()

    def flush():
        chunk = "\n".join(prose).strip("\n")
        if chunk.strip():
            items.append(("markdown", chunk))
        prose.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if (fence := FENCE.match(line)):
            indent, marker = fence["indent"], fence["fence"]
            close = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
            end = i + 1
            while end < len(lines) and not close.match(lines[end]):
                end += 1
            body = [_dedent(text_line, len(indent)) for text_line in lines[i + 1:end]]
            info = fence["info"].strip().lstrip("{.")
            language = info.split()[0] if info else ""
            if mark == "expected-output":
                pass  # the code cell above prints it
            elif language == "python" and mark != "skip":
                flush()
                items.append(("code", _python_cell(body)))
            else:  # console sessions, plain text, skipped code: shown, not run
                prose.extend([line, *(indent + text_line for text_line in _expand_includes(body)),
                              lines[end] if end < len(lines) else ""])
            mark = None
            i = end + 1
            continue
        if (found := MARK.match(line)):
            mark = found["mark"]
        elif (figure := DIRECTIVE.match(line)):
            flush()
            items.append(("figure", figure["caption"].strip(), figure["file"]))
        elif (heading := HEADING.match(line)):
            # One Markdown cell per section; the heading keeps its id as an anchor, so links work.
            flush()
            prose.append(f'{heading["hashes"]} {heading["text"]} <a id="{heading["id"]}"></a>')
        elif (admonition := ADMONITION.match(line)):
            # Material's `!!! note "Title"` / `??? example "Title"` and its indented body: the title
            # and the body's prose as a quoted block, the body's code as cells.
            title = admonition["title"] if admonition["title"] is not None else admonition["kind"].title()
            body, i = [], i + 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
                body.append(lines[i][4:])
                i += 1
            inner = parse_page("\n".join(body))
            if title:
                prose.extend([f"> **{title}**", ""])
            for n, item in enumerate(inner):
                if item[0] == "markdown":
                    if n or not title:
                        prose.append(">")
                    prose.extend(f"> {text_line}".rstrip() for text_line in item[1].splitlines())
                    prose.append("")
                else:
                    flush()
                    items.append(item)
            continue
        else:
            prose.append(line)
        i += 1
    flush()
    return items


def _python_cell(body):
    """The code of a ```python fence; a fence that only includes a snippet gets it without its main block."""
    lines = [line for line in body if line.strip()]
    if len(lines) == 1 and (found := INCLUDE.match(lines[0])):
        return without_main_block(_included(found["name"]))
    return "\n".join(_expand_includes(body)).strip("\n")


def _included(name):
    """The text of snippets/<name>, which a `--8<--` line includes; an error if there is no such file."""
    path = SNIPPETS / name
    if not path.is_file():
        raise GenerationError(f'notebooks: --8<-- "{name}" names no file in snippets/')
    return path.read_text(encoding="utf-8")


def _dedent(line, width):
    return line[width:] if line[:width].strip() == "" else line.lstrip()


def _expand_includes(lines):
    """pymdownx.snippets lines (`--8<-- "x.py"`) replaced by the file they include."""
    out = []
    for line in lines:
        found = INCLUDE.match(line)
        if found:
            out += [found["indent"] + text for text in _included(found["name"]).rstrip("\n").splitlines()]
        else:
            out.append(line)
    return out


def without_main_block(source):
    """A snippet's code without its `if __name__ == "__main__":` block (which saves an SVG)."""
    lines = source.splitlines()
    for node in reversed(ast.parse(source).body):
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"):
            del lines[node.lineno - 1:node.end_lineno]
    return "\n".join(lines).rstrip()


def link_target(target, slug, language, site_url):
    """A link of the chapter as seen from its notebook, which lives outside the site."""
    if re.match(r"[a-z][a-z0-9+.-]*:|//|#", target):
        return target
    page, _, anchor = target.partition("#")
    if not page.endswith(".md"):
        return target
    other = page[:-3]
    if other == slug and anchor:
        return f"#{anchor}"
    return page_url(site_url, other, language) + (f"#{anchor}" if anchor else "")


def notebook_markdown(source, slug, language, site_url):
    """Chapter Markdown made portable: links to the site, and bold that Jupyter's renderers accept.

    CommonMark does not close `**` between punctuation and a letter (`**嵌入。**每个词`), which
    Chinese text does all the time; `<strong>` works in every Markdown renderer.
    """
    def outside_code_and_math(text, transform):
        parts, last = [], 0
        for match in CODE_OR_MATH.finditer(text):
            parts += [transform(text[last:match.start()]), match[0]]
            last = match.end()
        return "".join(parts + [transform(text[last:])])

    source = LINK.sub(lambda m: f"]({link_target(m['target'], slug, language, site_url)})", source)
    return outside_code_and_math(source, lambda text: STRONG.sub(r"<strong>\1</strong>", text))


def draw_call(language):
    """The cell that shows a figure, its text in the notebook's language."""
    return "draw();" if language == "en" else f'draw("{language}");'


def build_notebook(slug, language, site_url):
    """The notebook of one chapter in one language, not executed."""
    text = TEXT[language]
    items = parse_page(chapter_source(slug, language).read_text(encoding="utf-8"))
    if not (items and items[0][0] == "markdown" and items[0][1].startswith("# ")):
        raise GenerationError(f"notebooks: {chapter_source(slug, language).name} does not start with '# Title {{ #id }}'")
    code = [item[1] for item in items if item[0] == "code"]
    code += [(SNIPPETS / item[2]).read_text(encoding="utf-8") for item in items if item[0] == "figure"]
    modules = needed_modules([*code, "import attention"])  # the reference implementation, always

    cells = []  # plain dicts, checked once at the end (nbformat's new_*_cell check each one)

    def markdown(source):
        cells.append({"cell_type": "markdown", "metadata": {},
                      "source": notebook_markdown(source, slug, language, site_url)})

    def code_cell(source, **metadata):
        cells.append({"cell_type": "code", "execution_count": None, "metadata": metadata,
                      "outputs": [], "source": source})

    title = re.sub(r"\s*<a id=[^>]*></a>$", "", items[0][1].splitlines()[0][2:])
    names = text["and"].join(f"`{p.name}`" for p in modules)
    intro = text["intro"].format(title=title, url=page_url(site_url, slug, language),
                                 modules=text["modules"].format(names=names) if modules else "")
    markdown(f"{items[0][1]}\n\n{intro}")
    for path in modules:  # collapsed in JupyterLab, a link on the site (notebook_modules.linked)
        code_cell(module_cell(path), jupyter={"source_hidden": True}, tags=["module"], module=path.name)
    for item in items[1:]:
        if item[0] == "markdown":
            markdown(item[1])
        elif item[0] == "code":
            code_cell(item[1])
        else:
            _, caption, name = item
            markdown(text["figure"].format(caption=caption))
            code_cell(without_main_block((SNIPPETS / name).read_text(encoding="utf-8")), snippet=name)
            code_cell(draw_call(language), tags=["figure"], snippet=name)
    for index, cell in enumerate(cells):  # stable ids: the same sources give the same file
        cell["id"] = f"cell-{index}"
    notebook = nbformat.from_dict({
        "nbformat": 4, "nbformat_minor": 5, "cells": cells,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
            "language_info": {"name": "python"},
        },
    })
    nbformat.validate(notebook)
    return notebook


def figure_captions(notebook):
    """The captions of the notebook's figures, in order (alt text for their images)."""
    captions, previous = [], ""
    for cell in notebook["cells"]:
        if "figure" in cell["metadata"].get("tags", []):
            captions.append(re.sub(r"^(\*\*[^*]+\*\*|<strong>[^<]+</strong>)\s*", "", previous))
        if cell["cell_type"] == "markdown":
            previous = cell["source"]
    return captions

"""MkDocs hook: every chapter as a Jupyter notebook, in both languages.

For every chapter (each docs/*.md except index and glossary) and each
language, this hook builds a notebook at build time from the same sources as
the page: the chapter's headings and prose as Markdown cells, and its code, in
page order, as code cells. A figure, `![caption](fig_x.py)`, becomes its
caption, the snippet's code without its `if __name__ == "__main__":` block,
and a cell `draw();` (`draw("zh");` in Chinese) that shows the figure inline; a ```python fence becomes
a code cell (`--8<--` includes expanded); expected-output blocks are left out,
since the cell above prints them. The first code cells write the modules of
snippets/ that the chapter imports (attention.py, running_example.py, ...)
next to the notebook, in plain Python, so it runs without the repository.

Each notebook is executed with nbclient in a fresh kernel in an empty folder,
two at a time, while MkDocs renders the pages. Outputs depend only on the
code cells, so they are kept in `.cache/notebooks/` under a hash of the code
cells (which contain the snippets and the modules they import), of the
function that runs them, and of the versions of Python, NumPy, matplotlib and
ipykernel: a prose edit or a translation runs nothing. The English and the
Chinese notebook of a chapter run on their own, since their figure cells
draw different languages (`draw();`, `draw("zh");`). `FIGURE_CACHE=off` skips
that folder (clean builds); `FIGURES=off` runs nothing and renders the
notebooks without outputs. A cell that raises stops the build with an error
that names the chapter and shows the traceback.

mkdocs-jupyter renders each notebook as a page, /notebooks/<slug>/ and
/zh/notebooks/<slug>/, and the .ipynb is published next to it,
/notebooks/<slug>.ipynb. The notebooks never enter docs/: mkdocs-static-i18n
rebuilds every file of docs/ as a plain `File` in its `on_files` (which runs
last, at priority -100), dropping mkdocs-jupyter's `NotebookFile` wrapper, so
an .ipynb there is copied as raw JSON (static-i18n issue 198). This hook adds
the notebooks of the language being built in `on_files` at priority -200,
after the i18n plugin, already wrapped as `NotebookFile`s; mkdocs-jupyter's
`on_pre_page` then renders them as usual. The rendered HTML is then made to
follow the site's rules (`_finish_notebook_page`): nothing from another host
(MathJax, mermaid and require.js go), TeX as MathML, the chapter's heading
ids and table of contents, Material's code colours instead of JupyterLab's
600 KB stylesheet, and figures as lazily loaded PNG files with their caption
as alt text instead of base64 in the page.

Each chapter page gets a line under its title: "Run this chapter as a
notebook" / 「以笔记本运行本章」, linking to the .ipynb and to the rendered page.
"""

import ast
import atexit
import base64
import functools
import hashlib
import html
import inspect
import json
import os
import re
import shutil
import struct
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

import nbformat
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import languages
from snippet_figures import DIRECTIVE, SNIPPETS, local_imports

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CACHE = ROOT / ".cache" / "notebooks"
NOT_CHAPTERS = {"index", "glossary"}
FOLDER = "notebooks"  # /notebooks/<slug>/ (rendered page), /notebooks/<slug>.ipynb (download)
TIMEOUT = 600  # seconds per cell
KERNEL_STARTS = 3  # tries to start a kernel that dies while starting (see execute)
# Figures at their own size: with Jupyter's default `bbox_inches="tight"` the inline backend draws
# each figure twice, and figures with ConnectionPatch arrows then came out a few pixels apart in
# about one run in five, so two clean builds differed.
KERNEL_OPTIONS = ["--InlineBackend.print_figure_kwargs={'bbox_inches': None}"]

TEXT = {
    "en": {
        "run": "Run this chapter as a notebook: ",
        "download": "download",
        "view": "see it executed",
        "chapter": "the chapter page",
        "page_title": "{title} (notebook)",
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
        "run": "以笔记本运行本章：",
        "download": "下载",
        "view": "查看运行结果",
        "chapter": "本章网页",
        "page_title": "{title}（笔记本）",
        "figure": "**图：**{caption}",
        "and": "、",
        "intro": (
            "> 本笔记本就是《注意力为什么有效》中的[{title}]({url})一章，与网页由同一份源文件生成。"
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
ADMONITION = re.compile(r'^(?:!!!|\?\?\?\+?)[ \t]*(?P<kind>[\w-]+)(?:[ \t]+"(?P<title>[^"]*)")?[ \t]*$')
MARK = re.compile(r"^[ \t]*<!--[ \t]*pytest-codeblocks:(?P<mark>[\w-]+).*-->[ \t]*$")
INCLUDE = re.compile(r'^(?P<indent>[ \t]*)-+8<-+[ \t]+"(?P<name>[^"]+)"[ \t]*$')
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
CODE_OR_MATH = re.compile(r"(`+).*?\1|\$\$.*?\$\$|\$[^$\n]+\$", re.S)
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)


# --- Notebooks from pages --------------------------------------------------------------------

def chapters():
    """The slugs of the chapters, in file-name order."""
    return sorted(p.stem for p in DOCS.glob("*.md")
                  if not p.name.endswith(".zh.md") and p.stem not in NOT_CHAPTERS)


def chapter_source(slug, language):
    """docs/<slug>.md or docs/<slug>.<language>.md (the English page when the translation is missing)."""
    translated = DOCS / f"{slug}.{language}.md"
    return translated if language != "en" and translated.is_file() else DOCS / f"{slug}.md"


def page_url(site_url, slug, language):
    """The address of a page of the site in one language, below `site_url`."""
    prefix = "" if language == "en" else f"{language}/"
    return f"{site_url}{prefix}" + ("" if slug == "index" else f"{slug}/")


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
        path = SNIPPETS / found["name"]
        if not path.is_file():
            raise PluginError(f'notebooks: --8<-- "{found["name"]}" names no file in snippets/')
        return without_main_block(path.read_text(encoding="utf-8"))
    return "\n".join(_expand_includes(body)).strip("\n")


def _dedent(line, width):
    return line[width:] if line[:width].strip() == "" else line.lstrip()


def _expand_includes(lines):
    """pymdownx.snippets lines (`--8<-- "x.py"`) replaced by the file they include."""
    out = []
    for line in lines:
        found = INCLUDE.match(line)
        if found:
            path = SNIPPETS / found["name"]
            if not path.is_file():
                raise PluginError(f'notebooks: --8<-- "{found["name"]}" names no file in snippets/')
            out += [found["indent"] + text for text in path.read_text(encoding="utf-8").rstrip("\n").splitlines()]
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


def needed_modules(sources):
    """The files of snippets/ that some code imports, directly or not (sorted paths)."""
    found = set()
    for source in sources:
        for name in _imported_names(source):
            path = SNIPPETS / f"{name}.py"
            if path.is_file():
                found.add(path)
                found.update(_local_imports(path, path.read_bytes()))
    return sorted(found)


@functools.lru_cache(maxsize=None)
def _imported_names(source):
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return frozenset(names)


@functools.lru_cache(maxsize=None)
def _local_imports(path, content):  # `content` in the key: an edited module is read again
    return tuple(local_imports(path))


def module_cell(path):
    """Code that saves snippets/<name>.py next to the notebook: plain Python, no magics."""
    source = path.read_text(encoding="utf-8")
    literal = repr(source) if "'''" in source or source.endswith("\\") else f"r'''{source}'''"
    return (f"# snippets/{path.name}, saved next to this notebook so that `import {path.stem}` works\n"
            f"from pathlib import Path\n\n"
            f"Path({path.name!r}).write_text({literal}, encoding=\"utf-8\");")


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
        raise PluginError(f"notebooks: {chapter_source(slug, language).name} does not start with '# Title {{ #id }}'")
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
    for path in modules:  # collapsed in JupyterLab, a short scrolling box on the site
        code_cell(module_cell(path), jupyter={"source_hidden": True}, tags=["module"])
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
    for cell in notebook.cells:
        if "figure" in cell.metadata.get("tags", []):
            captions.append(re.sub(r"^(\*\*[^*]+\*\*|<strong>[^<]+</strong>)\s*", "", previous))
        if cell.cell_type == "markdown":
            previous = cell.source
    return captions


# --- Execution -------------------------------------------------------------------------------

def code_key(notebook):
    """What a notebook's outputs depend on: its code cells, how they run, the libraries that draw."""
    digest = hashlib.sha256(_runtime())
    for cell in notebook.cells:
        if cell.cell_type == "code":
            digest.update(b"\0cell\0" + cell.source.encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _runtime():
    versions = "".join(f"{name}=={version(name)}\0" for name in ("numpy", "matplotlib", "ipykernel"))
    return (inspect.getsource(execute) + repr(KERNEL_OPTIONS) + versions + sys.version).encode()


def execute(notebook, label="notebook"):
    """Run a notebook top to bottom in a fresh kernel in an empty folder; return its code cells' outputs."""
    if not any(cell.cell_type == "code" for cell in notebook.cells):
        return []
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.from_dict(json.loads(json.dumps(notebook)))
    env = {**os.environ, "MPLBACKEND": "module://matplotlib_inline.backend_inline",
           "PYDEVD_DISABLE_FILE_VALIDATION": "1", "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory(prefix="notebook-") as folder:
        try:
            for attempt in range(KERNEL_STARTS):
                client = NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3",
                                        allow_errors=False, record_timing=False,
                                        coalesce_streams=True, resources={"metadata": {"path": folder}},
                                        extra_arguments=["--IPKernelApp.log_level=ERROR", *KERNEL_OPTIONS])
                try:
                    client.execute(env=env, cwd=folder)
                    break
                except RuntimeError as error:
                    # jupyter_client picks a kernel's ports by binding free ones and letting them
                    # go, so kernels starting at the same moment (two builds side by side) can
                    # race for one port, and the loser dies before it says hello. No cell has run
                    # then, so the kernel is started again; a cell's error is never retried.
                    if "before replying to kernel_info" not in str(error) or attempt == KERNEL_STARTS - 1:
                        raise
        except CellExecutionError as error:
            failed = next((i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
                           and any(o.output_type == "error" for o in cell.outputs)), None)
            where = "" if failed is None else f" in cell {failed}" + (
                f" (snippets/{notebook.cells[failed].metadata['snippet']})"
                if "snippet" in notebook.cells[failed].metadata else "")
            raise PluginError(f"the notebook of {label} failed{where}:\n{error}") from error
    return [{"outputs": cell.outputs, "execution_count": cell.execution_count}
            for cell in notebook.cells if cell.cell_type == "code"]


class Executions:
    """Outputs by code key: from this build, from the cache folder, or from a kernel (two at a time)."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1)))
        self.futures = {}

    def submit(self, notebook, label):
        key = code_key(notebook)
        if key not in self.futures:
            self.futures[key] = self.pool.submit(self._outputs, notebook, key, label)
        return key

    def outputs(self, key):
        return self.futures[key].result()

    def cancel(self):
        for future in self.futures.values():
            future.cancel()

    @staticmethod
    def _outputs(notebook, key, label):
        use_cache = os.environ.get("FIGURE_CACHE", "on") != "off"
        cached = CACHE / f"{label}-{key}.json"
        if use_cache and cached.is_file():
            return json.loads(cached.read_text(encoding="utf-8"))
        outputs = execute(notebook, label)
        if use_cache:
            CACHE.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(outputs, sort_keys=True), encoding="utf-8")
            tmp.replace(cached)
        return outputs


def with_outputs(notebook, outputs):
    """A copy of `notebook` with the outputs of its code cells filled in."""
    notebook = nbformat.from_dict(json.loads(json.dumps(notebook)))
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell, result in zip(code_cells, outputs, strict=True):
        cell.outputs = [nbformat.from_dict(output) for output in result["outputs"]]
        cell.execution_count = result["execution_count"]
    return notebook


# --- MkDocs events ---------------------------------------------------------------------------

_state = SimpleNamespace(notebooks={}, keys={}, pages={}, executions=None, workdir=None)


def _workdir():
    """This process's folder for the notebook files that mkdocs-jupyter reads (outside docs/)."""
    if _state.workdir is None:
        _state.workdir = Path(tempfile.mkdtemp(prefix="mkdocs-notebooks-"))
        atexit.register(shutil.rmtree, _state.workdir, ignore_errors=True)
    return _state.workdir


def on_config(config):
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        raise PluginError("hooks/notebooks.py needs the mkdocs-jupyter plugin in mkdocs.yml")
    # Execution is ours (cached per notebook); mkdocs-jupyter only renders. Its own
    # HTML cache evicts what the current build did not use, and each language (and FIGURES=off,
    # with notebooks not executed) is a build of its own, so each gets its own folder.
    jupyter.config["execute"] = False
    jupyter.config["include_requirejs"] = False
    jupyter.config["cache"] = os.environ.get("FIGURE_CACHE", "on") != "off"
    figures = "" if os.environ.get("FIGURES", "on") != "off" else "-no-figures"
    jupyter.config["cache_dir"] = str(ROOT / ".cache" / "mkdocs-jupyter" / f"{languages.building(config)}{figures}")
    return config


def on_pre_build(config):
    if getattr(config.plugins.get("i18n"), "building", False):
        return  # a further language: its notebooks were made with the first one's
    # Every notebook of every language, made now; execution starts at once, two kernels at a
    # time, while MkDocs renders the pages. A notebook page waits for its outputs only when built.
    if _state.executions is None:
        _state.executions = Executions()
    _state.executions.futures = {}
    _state.notebooks, _state.keys = {}, {}
    run = os.environ.get("FIGURES", "on") != "off"
    for slug in chapters():
        for language in languages.built(config):
            notebook = build_notebook(slug, language, config.site_url or "/")
            _state.notebooks[slug, language] = notebook
            if run:
                _state.keys[slug, language] = _state.executions.submit(notebook, slug)


def on_build_error(error):
    if _state.executions is not None:
        _state.executions.cancel()


def on_shutdown():
    if _state.executions is not None:
        _state.executions.pool.shutdown(cancel_futures=True)
        _state.executions = None
    if _state.workdir is not None:
        shutil.rmtree(_state.workdir, ignore_errors=True)
        _state.workdir = None


@event_priority(-200)  # after mkdocs-static-i18n (-100), which would turn them back into plain files
def on_files(files, config):
    from mkdocs_jupyter.plugin import NotebookFile

    language = languages.building(config)
    prefix = "" if language == "en" else f"{language}/"
    i18n = config.plugins.get("i18n")
    _state.pages = {}
    for slug, lang in _state.notebooks:
        if lang != language:
            continue
        source = File(f"{prefix}{FOLDER}/{slug}/index.ipynb", str(_workdir()), config.site_dir,
                      config.use_directory_urls, inclusion=InclusionLevel.NOT_IN_NAV)
        # What mkdocs-static-i18n reads to point the language selector at the same page.
        source.locale = source.locale_alternate_of = language
        source.localization = None if language == "en" else language
        source.alternates = {other: SimpleNamespace(url=page_url("", f"{FOLDER}/{slug}", other), page=None)
                             for other in languages.built(config)}
        page = NotebookFile(source, use_directory_urls=config.use_directory_urls, site_dir=config.site_dir)
        page.inclusion = InclusionLevel.NOT_IN_NAV  # File's class attribute hides the wrapped file's
        download = File(f"{prefix}{FOLDER}/{slug}.ipynb", str(_workdir()), config.site_dir,
                        config.use_directory_urls, inclusion=InclusionLevel.NOT_IN_NAV)
        files.append(page)
        files.append(download)
        if i18n is not None:  # its sitemap lists the pages it saw, and it saw them before these
            i18n.i18n_files_per_language.setdefault(language, []).append(page)
        _state.pages[source.abs_src_path] = SimpleNamespace(slug=slug, language=language, download=download)
    return files


@event_priority(100)  # before mkdocs-jupyter reads the notebook
def on_pre_page(page, config, files):
    found = _state.pages.get(page.file.abs_src_path)
    if found is None:
        return page
    notebook = _state.notebooks[found.slug, found.language]
    key = _state.keys.get((found.slug, found.language))
    if key is not None:
        notebook = with_outputs(notebook, _state.executions.outputs(key))
    text = nbformat.writes(notebook) + "\n"
    for path in (Path(page.file.abs_src_path), Path(found.download.abs_src_path)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    found.captions = figure_captions(notebook)
    return page


def on_page_content(html_text, page, config, files):
    found = _state.pages.get(page.file.abs_src_path)
    if found is not None:
        return _finish_notebook_page(html_text, page, config, files, found)
    slug, language = page.file.src_uri.split(".")[0], languages.building(config)
    if page.file.src_uri.endswith(".md") and (slug, language) in _state.notebooks:
        return re.sub(r"</h1>", lambda m: m[0] + _chapter_links(slug, language), html_text, count=1)
    return html_text


def _chapter_links(slug, language):
    """The line under a chapter's title: the .ipynb, and the notebook as executed."""
    text = TEXT[language]
    name = f"{slug}.ipynb" if language == "en" else f"{slug}.{language}.ipynb"
    return (f'\n<p class="notebook-links" data-search-exclude>{text["run"]}'
            f'<a href="../{FOLDER}/{slug}.ipynb" download="{name}">{text["download"]} <code>{slug}.ipynb</code></a>'
            f' · <a href="../{FOLDER}/{slug}/">{text["view"]}</a></p>')


# --- The rendered notebook page --------------------------------------------------------------

STYLE_BLOCK = re.compile(r"<style[^>]*>.*?</style>\s*", re.S)
SCRIPT_BLOCK = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>\s*", re.S)
COMMENT = re.compile(r"<!--.*?-->\s*", re.S)
HEADING_HTML = re.compile(r"<h(?P<level>[1-6])[^>]*>(?P<body>.*?)</h(?P=level)>", re.S)
PNG = re.compile(r'<img [^>]*src="data:image/png;base64,(?P<data>[^"]+)"[^>]*>')
MATH = re.compile(r"\$\$(?P<block>.+?)\$\$|\$(?P<inline>[^$\n]+?)\$", re.S)
# Instead of JupyterLab's stylesheet: code in the site's colours (Material's `.highlight` token
# rules and code background, in the light and the dark scheme), outputs set off by a rule.
NOTEBOOK_CSS = """
.jupyter-wrapper .jp-Cell { margin: 0 0 1em; }
.jupyter-wrapper .jp-InputPrompt, .jupyter-wrapper .jp-OutputPrompt, .jupyter-wrapper .jp-Collapser,
.jupyter-wrapper .celltoolbar, .jupyter-wrapper .clipboard-copy-txt { display: none; }
.jupyter-wrapper pre { font-size: .85em; }
.jupyter-wrapper .CodeMirror { position: relative; }
.jupyter-wrapper .highlight-ipynb pre { margin: 0; padding: .77em 1.18em; overflow-x: auto; white-space: pre;
  background: var(--md-code-bg-color); border-radius: .1rem; }
.jupyter-wrapper .celltag_module .highlight-ipynb pre { max-height: 12em; overflow-y: auto; }
.jupyter-wrapper .zeroclipboard-container { position: absolute; top: .3em; right: .3em; z-index: 1; }
.jupyter-wrapper clipboard-copy { display: inline-block; padding: .2em; cursor: pointer;
  color: var(--md-default-fg-color--light); }
.jupyter-wrapper clipboard-copy:hover { color: var(--md-accent-fg-color); }
.jupyter-wrapper .clipboard-copy-icon { width: 1em; height: 1em; vertical-align: middle; }
.jupyter-wrapper .notice { margin-right: .3em; font-size: .7rem; }
.jupyter-wrapper .jp-OutputArea-output pre { margin: .3em 0 0; padding: .4em 1.18em; overflow-x: auto;
  white-space: pre; border-left: .2rem solid var(--md-default-fg-color--lightest); }
.jupyter-wrapper .jp-RenderedImage img { display: block; max-width: 100%; height: auto; margin: .4em auto; }
"""


def _finish_notebook_page(html_text, page, config, files, found):
    """mkdocs-jupyter's HTML of a notebook, made to follow the site's rules."""
    slug, language = found.slug, found.language
    # No stylesheet (JupyterLab's is 600 KB, on every page) and no script from elsewhere (MathJax,
    # mermaid); mkdocs-jupyter's copy button, inline, stays.
    html_text = STYLE_BLOCK.sub("", html_text)
    html_text = SCRIPT_BLOCK.sub(_keep_local_script, html_text)
    html_text = COMMENT.sub("", html_text)
    html_text = html_text.replace('<div class="highlight-ipynb hl-python">',
                                  '<div class="highlight-ipynb hl-python highlight">')
    # TeX in the Markdown cells: MathML, as on the chapter pages (hooks/mathml.py).
    html_text = _markdown_cells(html_text, _tex_to_mathml)
    # Headings: the chapter's ids (kept in the notebook as <a id>), and the table of contents.
    toc = []

    def heading(match):
        level, body = int(match["level"]), match["body"]
        anchor = re.search(r'<a id="([\w-]+)"></a>', body)
        if not anchor:
            return match[0]
        body = re.sub(r'<a class="anchor-link"[^>]*>.*?</a>', "", body.replace(anchor[0], "")).strip()
        toc.append({"level": level, "id": anchor[1], "name": re.sub(r"<[^>]+>", "", body), "children": []})
        return (f'<h{level} id="{anchor[1]}">{body}'
                f'<a class="headerlink" href="#{anchor[1]}" title="Permanent link">&para;</a></h{level}>')

    html_text = HEADING_HTML.sub(heading, html_text)
    page.toc = get_toc(_nest(toc[1:]))
    page.title = TEXT[language]["page_title"].format(title=toc[0]["name"] if toc else slug)
    page.meta["search"] = {"exclude": True}  # the chapter page is the one to find
    # Links to the site: relative, so that they work wherever the site is served.
    site_url = config.site_url or "/"
    html_text = re.sub(r'href="' + re.escape(site_url) + r'([^"]*)"',
                       lambda m: f'href="{get_relative_url(m[1] or ".", page.url)}"', html_text)
    # Figures: PNG files next to the page, loaded when scrolled to, described by their caption.
    captions = iter(getattr(found, "captions", []))

    def image(match):
        data = base64.b64decode(match["data"])
        name = f"figure-{next(counter)}.png"
        files.append(File.generated(config, f"{Path(page.file.dest_uri).parent.as_posix()}/{name}", content=data))
        width, height = struct.unpack(">II", data[16:24])
        alt = html.escape(next(captions, ""), quote=True)
        return f'<img src="{name}" alt="{alt}" width="{width}" height="{height}" loading="lazy">'

    counter = iter(range(1, 1000))
    html_text = PNG.sub(image, html_text)
    # Under the title: the .ipynb, and back to the chapter.
    text = TEXT[language]
    name = f"{slug}.ipynb" if language == "en" else f"{slug}.{language}.ipynb"
    chapter = get_relative_url(page_url("", slug, language) or ".", page.url)
    links = (f'\n<p class="notebook-links">{text["run"]}'
             f'<a href="../{slug}.ipynb" download="{name}">{text["download"]} <code>{slug}.ipynb</code></a>'
             f' · <a href="{chapter}">{text["chapter"]}</a></p>')
    html_text = re.sub(r"</h1>", lambda m: m[0] + links, html_text, count=1)
    return f"<style>{NOTEBOOK_CSS.strip()}</style>\n{html_text}"


def _keep_local_script(match):
    """mkdocs-jupyter's copy button stays; MathJax, mermaid and require.js (from CDNs) go."""
    if "src=" in match["attrs"] or "mathjax" in match["attrs"] or "://" in match["body"]:
        return ""
    return match[0]


def _nest(flat):
    """TOC tokens, nested by heading level."""
    root = {"level": 0, "children": []}
    stack = [root]
    for token in flat:
        while stack[-1]["level"] >= token["level"]:
            stack.pop()
        stack[-1]["children"].append(token)
        stack.append(token)
    return root["children"]


def _markdown_cells(html_text, transform):
    """Apply `transform` to the HTML of each rendered Markdown cell, outside <code> and <pre>."""
    def cell(match):
        parts = re.split(r"(<(?:code|pre)\b.*?</(?:code|pre)>)", match[2], flags=re.S)
        return match[1] + "".join(p if i % 2 else transform(p) for i, p in enumerate(parts)) + match[3]
    return re.sub(r'(<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown[^"]*"[^>]*>)(.*?)(</div>)',
                  cell, html_text, flags=re.S)


def _tex_to_mathml(fragment):
    from latex2mathml.converter import convert

    def math(match):
        if match["block"] is not None:
            return f'<div class="math-block">{convert(html.unescape(match["block"]).strip(), display="block")}</div>'
        return convert(html.unescape(match["inline"]).strip())
    return MATH.sub(math, fragment)

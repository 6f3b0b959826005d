"""Every chapter as a notebook (hooks/notebooks.py): made from the page, run, rendered, linked.

The build runs no kernel: it computes the outputs in its own processes
(sitebuild/generate/notebook_outputs.py). Here every notebook is executed afresh, with
nbclient, each in a new kernel in an empty folder, as a reader would run the
downloaded file (no cache), and what it prints must be what the site publishes.
A notebook whose code cells are identical to another's is covered by that
one's run, and a notebook with code of its own gets a run of its own.

Code cells on the rendered notebook pages are not seen by test_site.py's "every
Python block is tested" check (mkdocs-jupyter marks them up as `highlight-ipynb`,
not `language-python highlight`); `test_code_on_notebook_pages_is_code_these_tests_run`
below covers them instead.
"""

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from pathlib import Path

import nbformat
import pytest
from pytest_codeblocks import extract_from_file

from sitebuild.generate import figures as figure_drawing
from sitebuild.generate import notebook_cache, notebook_cells, notebook_modules, notebook_outputs, notebook_page
from conftest import DOCS, ROOT, SNIPPETS, free_port, mkdocs_build, normalise
from sitebuild.inside_page.figures import DIRECTIVE

# The notebooks run in fresh kernels once (the session fixture `executed`), in one worker
# (conftest.SHARED_FIXTURES): the tests that read those runs are slow, as is the live server's.

CHAPTERS = notebook_cells.chapters()
LANGUAGES = ["en", "zh"]
CASES = [(slug, language) for slug in CHAPTERS for language in LANGUAGES]
SITE_URL = "https://example.org/"


def case_id(case):
    return "-".join(case)


def source(slug, language):
    return notebook_cells.chapter_source(slug, language)


def run_in_fresh_kernel(notebook):
    """Execute a copy of `notebook` top to bottom in a new kernel in an empty folder, as Jupyter would."""
    from nbclient import NotebookClient

    notebook = nbformat.from_dict(nbformat.reads(nbformat.writes(notebook), as_version=4))
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # Jupyter's default: inline figures
    with tempfile.TemporaryDirectory(prefix="notebook-test-") as folder:
        client = NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=False,
                                resources={"metadata": {"path": folder}},
                                extra_arguments=["--IPKernelApp.log_level=ERROR"])
        client.execute(env=env, cwd=folder)
        written = {p.name for p in Path(folder).iterdir() if p.suffix == ".py"}
        needed = {p.name for p in notebook_modules.needed_modules([c.source for c in notebook.cells if c.cell_type == "code"])}
        assert "attention.py" in written and needed <= written, (written, needed)
    return notebook


@pytest.fixture(scope="session")
def generated():
    return {case: notebook_cells.build_notebook(*case, SITE_URL) for case in CASES}


def code_of(notebook):
    """What a run depends on: the code cells, the figure cells' language left out.

    A chapter's notebooks differ only there (`draw();`, `draw("zh");`), so its English notebook's
    run is its Chinese notebook's too; `zh_figures` runs the Chinese figure cells themselves.
    """
    return tuple("draw();" if "figure" in c.metadata.get("tags", []) else c.source
                 for c in notebook.cells if c.cell_type == "code")


@pytest.fixture(scope="session")
def executed(generated):
    """Each case's notebook after a run in a fresh kernel (two kernels at a time), or the error it raised.

    One run per chapter: its English notebook. The Chinese notebook gets that run's outputs, which
    are its own (the same code), but for its figures: `zh_figures` draws those in a kernel.
    """
    runs = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for notebook in generated.values():
            key = code_of(notebook)
            if key not in runs:
                runs[key] = pool.submit(run_in_fresh_kernel, notebook)
        results = {}
        for case, notebook in generated.items():
            future = runs[code_of(notebook)]
            error = future.exception()
            results[case] = error if error else notebook_outputs.with_outputs(notebook, [
                {"outputs": cell.outputs, "execution_count": cell.execution_count}
                for cell in future.result().cells if cell.cell_type == "code"])
    return results


@pytest.fixture(scope="session")
def zh_figures(generated):
    """Every Chinese figure cell of every chapter, run in one fresh kernel after its snippet's cell, as the
    Chinese notebooks run them: {(slug, snippet): the figure cell's outputs}, or the error raised."""
    cells, seen, where = [], set(), []
    for (slug, language), notebook in generated.items():
        if language != "zh":
            continue
        code = [c for c in notebook.cells if c.cell_type == "code"]
        for cell in code:
            if "module" in cell.metadata.get("tags", []) and cell.metadata["module"] not in seen:
                seen.add(cell.metadata["module"])
                cells.append(cell)
        for snippet_cell, figure_cell in zip(code, code[1:]):
            if "figure" in figure_cell.metadata.get("tags", []):
                cells += [snippet_cell, figure_cell]
                where.append((slug, figure_cell.metadata["snippet"], len(cells) - 1))
    cells = [nbformat.v4.new_code_cell(c.source, metadata=c.metadata) for c in cells]  # ids of their own
    notebook = nbformat.v4.new_notebook(cells=cells, metadata=next(iter(generated.values())).metadata)
    try:
        ran = run_in_fresh_kernel(notebook).cells
    except Exception as error:  # noqa: BLE001 - reported by the test that reads it
        return error
    return {(slug, snippet): ran[index].outputs for slug, snippet, index in where}


def stdout(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


# --- The notebooks themselves --------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("case", [case for case in CASES if case[1] == "en"], ids=case_id)
def test_notebook_runs_top_to_bottom_in_a_fresh_kernel(executed, case):
    result = executed[case]
    if isinstance(result, Exception):
        pytest.fail(f"{case_id(case)}.ipynb failed in a fresh kernel:\n{result}")
    for cell in result.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None
            assert not [o for o in cell.outputs if o.output_type == "error"]
            assert not [o for o in cell.outputs if o.get("name") == "stderr"], stdout(cell)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_notebook_prints_the_numbers_of_the_chapter(executed, case):
    """Every expected-output block of the page is what the same code prints in the notebook."""
    result = executed[case]
    if isinstance(result, Exception):
        pytest.skip("the notebook did not run")
    cells = {normalise(c.source): c for c in result.cells if c.cell_type == "code"}
    for block in extract_from_file(source(*case)):
        if block.syntax == "python" and block.expected_output is not None:
            cell = cells[normalise(block.code)]
            assert normalise(stdout(cell)) == normalise(block.expected_output), block.code


def text_outputs(cell):
    """What a code cell shows as text: its streams (a kernel may send one in pieces) and its results."""
    shown = []
    for output in cell.outputs:
        if output.output_type == "stream" and shown and shown[-1][:2] == ("stream", output.name):
            shown[-1] = ("stream", output.name, shown[-1][2] + output.text)
        elif output.output_type == "stream":
            shown.append(("stream", output.name, output.text))
        elif output.output_type == "execute_result":
            shown.append(("execute_result", None, output.data.get("text/plain")))
    return shown


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_site_publishes_what_a_fresh_kernel_prints(executed, built_site, case):
    """The outputs the build computed without a kernel are a kernel's: every cell's text, one image per figure."""
    result = executed[case]
    if isinstance(result, Exception):
        pytest.fail(f"{case_id(case)}.ipynb failed in a fresh kernel:\n{result}")
    slug, language = case
    published = nbformat.read(site_path(built_site, language, "notebooks", f"{slug}.ipynb"), as_version=4)
    ran = [c for c in result.cells if c.cell_type == "code"]
    for mine, kernel in zip([c for c in published.cells if c.cell_type == "code"], ran, strict=True):
        assert mine.source == kernel.source
        assert text_outputs(mine) == text_outputs(kernel), mine.source[:200]
        if "figure" in mine.metadata.get("tags", []):
            assert [list(o.data) for o in mine.outputs] == [["image/svg+xml"]]
            assert len([o for o in kernel.outputs if "image/png" in o.get("data", {})]) == 1


@pytest.mark.parametrize("slug", CHAPTERS)
def test_a_chinese_notebook_runs_the_code_of_the_english_one(generated, slug):
    """What lets the English notebook's kernel run stand for the Chinese one's: the same code cells,
    but for the figure cells, which draw the Chinese figures (`zh_figures` runs those)."""
    english, chinese = generated[(slug, "en")], generated[(slug, "zh")]
    assert code_of(english) == code_of(chinese)
    assert all(c.source == 'draw("zh");' for c in chinese.cells if "figure" in c.metadata.get("tags", []))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_notebook_draws_every_figure_of_the_chapter(executed, zh_figures, case):
    result = executed[case]
    if isinstance(result, Exception):
        pytest.skip("the notebook did not run")
    if case[1] == "zh" and isinstance(zh_figures, Exception):
        pytest.fail(f"the Chinese figure cells failed in a fresh kernel:\n{zh_figures}")
    figures = DIRECTIVE.findall(source(*case).read_text(encoding="utf-8"))
    drawn = [c for c in result.cells if "figure" in c.metadata.get("tags", [])]
    assert len(drawn) == len(figures)
    for cell in drawn:
        outputs = cell.outputs if case[1] == "en" else zh_figures[(case[0], cell.metadata["snippet"])]
        images = [o for o in outputs if "image/png" in o.get("data", {})]
        assert len(images) == 1, "one figure per draw() cell"
        printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
        assert "missing from font" not in printed and "does not have a glyph" not in printed, printed
        assert base64.b64decode(images[0].data["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_notebook_follows_the_page(generated, case):
    """Headings, prose and code of the page, in page order, and nothing the site's Markdown needs."""
    notebook = generated[case]
    nbformat.validate(notebook)
    text = source(*case).read_text(encoding="utf-8")
    without_code = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)
    ids = re.findall(r"^#{1,6} .*\{ #([\w-]+) \}$", without_code, re.M)
    markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert re.findall(r'^#{1,6} .* <a id="([\w-]+)"></a>$', markdown, re.M) == ids
    for leftover in ("{ #", "--8<--", "pytest-codeblocks", "](fig_", "!!! "):
        assert leftover not in markdown
    # Code in page order: every fence that pytest-codeblocks runs, and every figure snippet.
    expected = []
    for kind, *rest in notebook_cells.parse_page(text):
        if kind == "code":
            expected.append(rest[0])
        elif kind == "figure":
            expected += [notebook_cells.without_main_block((SNIPPETS / rest[1]).read_text(encoding="utf-8")),
                         "draw();" if case[1] == "en" else 'draw("zh");']
    code = [c.source for c in notebook.cells if c.cell_type == "code" and "module" not in c.metadata.get("tags", [])]
    assert code == expected
    fences = [normalise(b.code) for b in extract_from_file(source(*case))
              if b.syntax == "python" and not any("skip" in m for m in b.marks)]
    assert [normalise(c) for c in code if normalise(c) in fences] == fences
    # The first words of every paragraph reached the notebook.
    def plain(text):
        return re.sub(r"\]\([^)]*\)|\[|\*\*|</?strong>", "", text)
    for paragraph in re.findall(r"\n\n(?!\?\?\?)([^\n#!`<|> \t-][^\n]{30,})\n", without_code):
        assert plain(paragraph)[:25] in plain(markdown), paragraph


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_notebook_page_links_the_modules_that_its_download_saves(built_site, language):
    """The page shows each module cell as a link to the served file; the .ipynb keeps the cells."""
    folder = built_site / ("zh/" if language == "zh" else "") / "notebooks"
    ipynb = json.loads((folder / "trained-decoder.ipynb").read_text(encoding="utf-8"))
    saved = [c["metadata"]["module"] for c in ipynb["cells"] if "module" in c["metadata"].get("tags", [])]
    assert "smollm.py" in saved and "attention.py" in saved
    page = (folder / "trained-decoder" / "index.html").read_text(encoding="utf-8")
    assert "write_text(" not in page and "celltag_module" not in page
    linked = re.findall(r'<a href="((?:\.\./)+)snippets/(\w+\.py)"><code>\2</code></a>', page)
    assert [name for _, name in linked] == saved
    for up, name in linked:  # each link leads to the served copy
        assert (folder / "trained-decoder" / up / "snippets" / name).resolve().is_file()


def test_module_cells_write_the_snippets_exactly(generated, tmp_path, monkeypatch):
    """The first code cells recreate snippets/*.py byte for byte, with plain Python."""
    monkeypatch.chdir(tmp_path)
    written = set()
    for notebook in generated.values():
        for cell in notebook.cells:
            if "module" in cell.metadata.get("tags", []):
                assert not cell.source.lstrip().startswith("%")
                exec(compile(cell.source, "<module cell>", "exec"), {})
                written.update(p.name for p in tmp_path.iterdir())
    assert written, "no chapter imports a module of snippets/"
    for name in written:
        assert (tmp_path / name).read_bytes() == (SNIPPETS / name).read_bytes(), name


def test_figure_snippet_loses_only_its_main_block():
    for path in figure_drawing.figure_snippets():
        code = notebook_cells.without_main_block(path.read_text(encoding="utf-8"))
        assert "__main__" not in code and "def draw" in code
        assert path.read_text(encoding="utf-8").startswith(code)


def test_a_failing_cell_stops_the_build_and_is_named():
    """As with figures: a notebook cell that raises is a build error naming the chapter and the snippet."""
    from sitebuild.generate.errors import GenerationError

    notebook = notebook_cells.build_notebook("input-to-attention", "en", SITE_URL)
    snippet = next(c for c in notebook.cells if "snippet" in c.metadata)
    snippet.source += "\n\nraise RuntimeError('deliberately broken')"
    with pytest.raises(GenerationError) as error:
        notebook_outputs.run_code(notebook, "input-to-attention")
    message = str(error.value)
    assert "input-to-attention" in message and f"snippets/{snippet.metadata['snippet']}" in message
    assert "deliberately broken" in message and "raise RuntimeError" in message  # the cell's line


def test_a_cell_that_leaves_a_figure_open_is_an_error():
    """A kernel would show it and the build would not: figures belong in figure snippets."""
    from sitebuild.generate.errors import GenerationError

    notebook = notebook_cells.build_notebook("input-to-attention", "en", SITE_URL)
    cell = next(c for c in notebook.cells if c.cell_type == "code" and "snippet" not in c.metadata
                and "module" not in c.metadata.get("tags", []))
    cell.source += "\nimport matplotlib.pyplot as plt\nplt.figure()"
    with pytest.raises(GenerationError, match="figure open"):
        notebook_outputs.run_code(notebook, "input-to-attention")


def test_outputs_run_in_process_show_the_last_expression_and_restore_state():
    """As in Jupyter: a last expression's value is shown (not after `;`); print options do not leak."""
    import numpy as np

    cells = [{"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
             for source in ("import numpy as np\nnp.set_printoptions(precision=1)\nnp.array([1.2345])",
                            "1 + 1;", "print('printed')")]
    outputs = notebook_outputs.run_code({"cells": cells}, "a-test")
    assert outputs[0]["outputs"] == [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                      "data": {"text/plain": "array([1.2])"}}]
    assert outputs[1]["outputs"] == []
    assert outputs[2]["outputs"] == [{"output_type": "stream", "name": "stdout", "text": "printed\n"}]
    assert np.get_printoptions()["precision"] == 8


def test_outputs_depend_on_code_only(tmp_path, monkeypatch):
    """The outputs' cache key: the same after a prose edit and in the other language, new after a code edit."""
    docs, snippets = tmp_path / "docs", tmp_path / "snippets"
    shutil.copytree(DOCS, docs)
    shutil.copytree(SNIPPETS, snippets, ignore=shutil.ignore_patterns("__pycache__"))
    for module in (notebook_cells, notebook_modules, figure_drawing):
        monkeypatch.setattr(module, "SNIPPETS", snippets)
    monkeypatch.setattr(notebook_cells, "DOCS", docs)
    slug = "input-to-attention"
    key = notebook_cache.outputs_key

    english = notebook_cells.build_notebook(slug, "en", SITE_URL)
    assert key(notebook_cells.build_notebook(slug, "en", "http://127.0.0.1:1/")) == key(english)
    assert key(notebook_cells.build_notebook(slug, "zh", SITE_URL)) == key(english)
    page = docs / f"{slug}.md"
    page.write_text(page.read_text(encoding="utf-8").replace("Before we can ask", "Before we ask"), encoding="utf-8")
    assert key(notebook_cells.build_notebook(slug, "en", SITE_URL)) == key(english)
    plotting = snippets / "plotting.py"
    plotting.write_text(plotting.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    edited = notebook_cells.build_notebook(slug, "en", SITE_URL)
    assert key(edited) != key(english)
    assert any("# an edit" in c.source for c in edited.cells), "the edit reaches the notebook"


@pytest.mark.parametrize("slug", CHAPTERS)
def test_both_languages_share_one_run_and_show_their_own_figures(slug):
    """A chapter's code is the same in both languages, so the build runs it once (one cache key);
    only the figure cells differ, and each shows the drawing in its notebook's language."""
    notebooks = {language: notebook_cells.build_notebook(slug, language, SITE_URL) for language in LANGUAGES}
    assert notebook_cache.outputs_key(notebooks["en"]) == notebook_cache.outputs_key(notebooks["zh"])
    code = notebooks["en"]
    shared = [{"outputs": None if "figure" in cell.metadata.get("tags", []) else [], "execution_count": n}
              for n, cell in enumerate((c for c in code.cells if c.cell_type == "code"), start=1)]
    for language, notebook in notebooks.items():
        drawings = {c.metadata["snippet"]: f'<svg viewBox="0 0 1 1"><text>{c.metadata["snippet"]} {language}</text></svg>'
                    for c in notebook.cells if "figure" in c.metadata.get("tags", [])}
        shown = notebook_outputs.show_figures(notebook, shared, drawings, language)
        cells = [c for c in notebook.cells if c.cell_type == "code"]
        for cell, result in zip(cells, shown, strict=True):
            if "figure" in cell.metadata.get("tags", []):
                svg = result["outputs"][0]["data"]["image/svg+xml"]
                assert f"{cell.metadata['snippet']} {language}</text>" in svg
            else:
                assert result["outputs"] == []


# The build starts no kernel: tests/test_build_checks.py builds a fresh clone from empty caches
# with ipykernel unimportable, and its notebooks hold every output.


# --- The built site ------------------------------------------------------------------------

def site_path(site, language, *parts):
    return (site / "zh" if language == "zh" else site).joinpath(*parts)


def notebook_links(chapter_html):
    found = re.search(r'<p class="notebook-links"[^>]*>(.*?)</p>', chapter_html, re.S)
    return re.findall(r'href="([^"]+)"', found[1]) if found else []


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_chapter_page_links_to_its_notebook(built_site, case):
    slug, language = case
    chapter = site_path(built_site, language, slug, "index.html")
    text = chapter.read_text(encoding="utf-8")
    label = notebook_page.TEXT[language]["run"]
    assert label in text, f"no '{label}' line"
    links = notebook_links(text)
    ipynb = [href for href in links if href.endswith(".ipynb")]
    assert len(ipynb) == 1, links
    target = (chapter.parent / ipynb[0]).resolve()
    assert target.is_file(), f"{ipynb[0]} does not exist"
    notebook = nbformat.read(target, as_version=4)
    nbformat.validate(notebook)
    title = re.search(r"<h1[^>]*>(.*?)<a", text, re.S)[1].strip()
    assert notebook.cells[0].source.startswith(f"# {unescape(title)} ")
    assert any(c.outputs for c in notebook.cells if c.cell_type == "code") or not any(
        c.cell_type == "code" for c in notebook.cells), "the .ipynb holds its outputs"
    pages = [href for href in links if href.endswith("/")]
    assert pages and (chapter.parent / pages[0] / "index.html").resolve().is_file()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rendered_notebook_page_shows_its_outputs(built_site, case, generated):
    slug, language = case
    page = site_path(built_site, language, "notebooks", slug, "index.html")
    text = page.read_text(encoding="utf-8")
    assert f'<html lang="{language}"' in text
    # Printed numbers: each expected-output block of the chapter, in an output area.
    outputs = normalise("".join(unescape(re.sub(r"<[^>]+>", "", o)) for o in
                                  re.findall(r'<div class="jp-RenderedText[^>]*>\s*<pre[^>]*>(.*?)</pre>', text, re.S)))
    for block in extract_from_file(source(*case)):
        if block.syntax == "python" and block.expected_output is not None:
            assert normalise(block.expected_output) in outputs
    # Figures: one SVG file per figure of the chapter, next to the page, with the caption as alt text.
    figures = DIRECTIVE.findall(source(*case).read_text(encoding="utf-8"))
    images = re.findall(r'<img src="([^"]+)" alt="([^"]*)"', text)
    assert len(images) == len(figures)
    for (src, alt), (caption, _) in zip(images, figures):
        assert (page.parent / src).read_text(encoding="utf-8").startswith("<svg ")
        assert unescape(alt) == caption.strip()
    # The chapter's heading ids and a table of contents.
    ids = re.findall(r'<h[1-6] id="([^"]+)"', text)
    chapter_ids = re.findall(r'<h[1-6] id="([^"]+)"', site_path(built_site, language, slug, "index.html")
                             .read_text(encoding="utf-8"))
    assert ids == chapter_ids
    if len(ids) > 1:
        assert f'href="#{ids[1]}"' in text.split('<article', 1)[0] + text.split('</article>', 1)[1]


def test_code_on_notebook_pages_is_code_these_tests_run(built_site, generated):
    """Every code block of every rendered notebook is a cell of a notebook that the tests above execute."""
    cells = {normalise(c.source) for nb in generated.values() for c in nb.cells if c.cell_type == "code"}
    pages = sorted(built_site.glob("notebooks/*/index.html")) + sorted(built_site.glob("zh/notebooks/*/index.html"))
    assert len(pages) == len(CASES)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        blocks = re.findall(r'<div class="highlight-ipynb[^"]*"><pre[^>]*>(.*?)</pre>', text, re.S)
        assert blocks, f"{page}: no code cells found"
        for block in blocks:
            assert normalise(unescape(re.sub(r"<[^>]+>", "", block))) in cells, page


def test_notebook_pages_use_nothing_from_other_hosts(built_site):
    """mkdocs-jupyter would add MathJax, mermaid (and require.js) from CDNs; math is MathML instead."""
    for page in [*built_site.glob("notebooks/*/index.html"), *built_site.glob("zh/notebooks/*/index.html")]:
        text = page.read_text(encoding="utf-8")
        for word in ("mathjax", "mermaid", "require.js", "cdnjs", "jsdelivr", "unpkg", "data:image/png"):
            assert word not in text.lower(), f"{page}: {word}"
        code = r'<pre[^>]*>.*?</pre>|<code[^>]*>.*?</code>|<div [^>]*class="clipboard-copy-txt"[^>]*>.*?</div>'
        prose = re.sub(code, "", text, flags=re.S)
        assert not re.search(r"(?<!\\)\$[^$\n]+\$", prose), f"{page}: TeX left"


@pytest.mark.parametrize("language", LANGUAGES)
def test_notebook_page_in_the_browser(page, served_site, language):
    """No failed request, console error or other host; figures load; a cell's copy button copies its code."""
    from test_browser import Recorder

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    recorder = Recorder(page)
    url = served_site + ("zh/" if language == "zh" else "") + "notebooks/input-to-attention/"
    page.goto(url, wait_until="networkidle")
    for image in page.locator(".jp-RenderedImage img").all():
        image.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=image.element_handle())
    assert not recorder.failures and not recorder.errors, (recorder.failures, recorder.errors)
    assert not [r for r in recorder.requests if not r.startswith(served_site) and not r.startswith("data:")]
    cell = page.locator(".jp-CodeCell:not(.celltag_module) .CodeMirror").first
    cell.scroll_into_view_if_needed()
    cell.locator("clipboard-copy").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert normalise(copied) == normalise(cell.locator("pre").inner_text())


@pytest.mark.slow
def test_mkdocs_serve_serves_both_languages_and_redraws_an_edited_snippet(tmp_path, built_site):
    """`mkdocs serve` in a copy of the project: both languages and the notebooks are served, and an
    edit to a figure snippet reaches the chapter's figure, its notebook and the notebook page.

    It runs on its own, not with the kernels (conftest.SEPARATE), after the run's build
    (`built_site`) has filled the figure cache: what a first serve costs on an empty cache is
    the benchmark's to measure; this test is about serving and redrawing.
    """
    project = tmp_path / "project"  # the working tree, with the figure cache
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(".git", ".venv", "site", "tests", "__pycache__"))
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
                              cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})

    def fetch(path):
        with urllib.request.urlopen(base + path, timeout=30) as response:
            assert response.status == 200, path
            return response.read().decode("utf-8")

    def wait_for(condition, what, seconds=600):
        deadline = time.monotonic() + seconds
        while True:
            try:
                if condition():
                    return
            except OSError:
                pass
            assert server.poll() is None, server.stderr.read()
            assert time.monotonic() < deadline, what
            time.sleep(1)

    try:
        slug = "input-to-attention"
        paths = ["", "zh/", f"{slug}/", f"zh/{slug}/", f"notebooks/{slug}/", f"zh/notebooks/{slug}/",
                 f"notebooks/{slug}.ipynb", f"zh/notebooks/{slug}.ipynb"]
        wait_for(lambda: fetch(paths[-1]), "mkdocs serve did not come up")
        for path in paths:
            body = fetch(path)
            if path.endswith("/"):
                assert f'<html lang="{"zh" if path.startswith("zh/") else "en"}"' in body, path
        assert notebook_page.TEXT["zh"]["run"] in fetch(f"zh/{slug}/")
        # An edit to a snippet, as a reader would make it: the figure and the notebook follow.
        snippet = project / "snippets" / "fig_words_to_qkv.py"
        code = snippet.read_text(encoding="utf-8")
        assert code.count("\n    return fig\n") == 1
        snippet.write_text(code.replace("\n    return fig\n", '\n    fig.text(0, 0, "edited under serve")\n    return fig\n'),
                           encoding="utf-8")
        mark = "edited under serve"
        wait_for(lambda: mark in fetch(f"{slug}/") and mark in fetch(f"zh/{slug}/"), "the figure was not redrawn")
        wait_for(lambda: mark in fetch(f"notebooks/{slug}.ipynb"), "the notebook was not updated")

        def notebook_page_shows_the_edit():  # the server copies the .ipynb before it writes the page
            figures = re.findall(r'<img src="(figure-\d+\.svg)"', fetch(f"notebooks/{slug}/"))
            return any(mark in fetch(f"notebooks/{slug}/{name}") for name in figures)

        wait_for(notebook_page_shows_the_edit, "the notebook page's figure was not redrawn")
    finally:
        server.send_signal(signal.SIGINT)  # as Ctrl+C: mkdocs shuts down and its hooks clean up
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

"""Every chapter as a notebook (hooks/notebooks.py): made from the page, run, rendered, linked.

The notebooks are executed here afresh, with nbclient, each in a new kernel in an
empty folder, as a reader would run the downloaded file (no cache). The English
and the Chinese notebook of a chapter hold the same code cells (the site tests
check that the pages' code matches); a notebook whose code cells are identical
to another's is covered by that one's run, and a notebook with code of its own
gets a run of its own.

Code cells on the rendered notebook pages are not seen by test_site.py's "every
Python block is tested" check (mkdocs-jupyter marks them up as `highlight-ipynb`,
not `language-python highlight`); `test_code_on_notebook_pages_is_code_these_tests_run`
below covers them instead.
"""

import base64
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

import notebooks
import snippet_figures
from conftest import DOCS, ROOT, SNIPPETS, free_port, normalise
from snippet_figures import DIRECTIVE

CHAPTERS = notebooks.chapters()
LANGUAGES = ["en", "zh"]
CASES = [(slug, language) for slug in CHAPTERS for language in LANGUAGES]
SITE_URL = "https://example.org/"


def case_id(case):
    return "-".join(case)


def source(slug, language):
    return notebooks.chapter_source(slug, language)


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
        needed = {p.name for p in notebooks.needed_modules([c.source for c in notebook.cells if c.cell_type == "code"])}
        assert "attention.py" in written and needed <= written, (written, needed)
    return notebook


@pytest.fixture(scope="session")
def generated():
    return {case: notebooks.build_notebook(*case, SITE_URL) for case in CASES}


@pytest.fixture(scope="session")
def executed(generated):
    """Each case's notebook after a run in a fresh kernel (two kernels at a time), or the error it raised."""
    runs = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for notebook in generated.values():
            key = notebooks.code_key(notebook)
            if key not in runs:
                runs[key] = pool.submit(run_in_fresh_kernel, notebook)
        results = {}
        for case, notebook in generated.items():
            future = runs[notebooks.code_key(notebook)]
            error = future.exception()
            results[case] = error if error else notebooks.with_outputs(notebook, [
                {"outputs": cell.outputs, "execution_count": cell.execution_count}
                for cell in future.result().cells if cell.cell_type == "code"])
    return results


def stdout(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


# --- The notebooks themselves --------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_notebook_runs_top_to_bottom_in_a_fresh_kernel(executed, case):
    result = executed[case]
    if isinstance(result, Exception):
        pytest.fail(f"{case_id(case)}.ipynb failed in a fresh kernel:\n{result}")
    for cell in result.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None
            assert not [o for o in cell.outputs if o.output_type == "error"]
            assert not [o for o in cell.outputs if o.get("name") == "stderr"], stdout(cell)


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


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_notebook_draws_every_figure_of_the_chapter(executed, case):
    result = executed[case]
    if isinstance(result, Exception):
        pytest.skip("the notebook did not run")
    figures = DIRECTIVE.findall(source(*case).read_text(encoding="utf-8"))
    drawn = [c for c in result.cells if "figure" in c.metadata.get("tags", [])]
    assert len(drawn) == len(figures)
    for cell in drawn:
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(images) == 1, "one figure per draw() cell"
        printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
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
    for kind, *rest in notebooks.parse_page(text):
        if kind == "code":
            expected.append(rest[0])
        elif kind == "figure":
            expected += [notebooks.without_main_block((SNIPPETS / rest[1]).read_text(encoding="utf-8")),
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
    for path in snippet_figures.figure_snippets():
        code = notebooks.without_main_block(path.read_text(encoding="utf-8"))
        assert "__main__" not in code and "def draw" in code
        assert path.read_text(encoding="utf-8").startswith(code)


def test_a_failing_cell_stops_the_build_and_is_named():
    """As with figures: a notebook cell that raises is a build error naming the chapter and the snippet."""
    from mkdocs.exceptions import PluginError

    notebook = notebooks.build_notebook("input-to-attention", "en", SITE_URL)
    snippet = next(c for c in notebook.cells if "snippet" in c.metadata)
    snippet.source += "\n\ndef draw():\n    raise RuntimeError('deliberately broken')"
    with pytest.raises(PluginError) as error:
        notebooks.execute(notebook, "input-to-attention")
    message = str(error.value)
    assert "input-to-attention" in message and f"snippets/{snippet.metadata['snippet']}" in message
    assert "deliberately broken" in message


def test_outputs_depend_on_code_only(tmp_path, monkeypatch):
    """The execution cache key: the same after a prose edit, new after a snippet edit.

    The two languages differ only in their figure cells (`draw();`, `draw("zh");`)."""
    docs, snippets = tmp_path / "docs", tmp_path / "snippets"
    shutil.copytree(DOCS, docs)
    shutil.copytree(SNIPPETS, snippets, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(notebooks, "DOCS", docs)
    monkeypatch.setattr(notebooks, "SNIPPETS", snippets)
    monkeypatch.setattr(snippet_figures, "SNIPPETS", snippets)
    slug = "input-to-attention"
    key = notebooks.code_key(notebooks.build_notebook(slug, "en", SITE_URL))
    chinese = notebooks.build_notebook(slug, "zh", SITE_URL)
    assert notebooks.code_key(chinese) != key
    english_code = [c.source for c in notebooks.build_notebook(slug, "en", SITE_URL).cells if c.cell_type == "code"]
    chinese_code = [c.source.replace('draw("zh");', "draw();") for c in chinese.cells if c.cell_type == "code"]
    assert chinese_code == english_code
    assert notebooks.code_key(notebooks.build_notebook(slug, "en", "http://127.0.0.1:1/")) == key
    page = docs / f"{slug}.md"
    page.write_text(page.read_text(encoding="utf-8").replace("Before we can ask", "Before we ask"), encoding="utf-8")
    assert notebooks.code_key(notebooks.build_notebook(slug, "en", SITE_URL)) == key
    plotting = snippets / "plotting.py"
    plotting.write_text(plotting.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    edited = notebooks.build_notebook(slug, "en", SITE_URL)
    assert notebooks.code_key(edited) != key
    assert any("# an edit" in c.source for c in edited.cells), "the edit reaches the notebook"


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
    label = notebooks.TEXT[language]["run"]
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
    # Figures: one PNG per figure of the chapter, next to the page, with the caption as alt text.
    figures = DIRECTIVE.findall(source(*case).read_text(encoding="utf-8"))
    images = re.findall(r'<img src="([^"]+)" alt="([^"]*)"', text)
    assert len(images) == len(figures)
    for (src, alt), (caption, _) in zip(images, figures):
        assert (page.parent / src).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
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


def test_mkdocs_serve_serves_both_languages_and_the_notebooks():
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    try:
        slug = CHAPTERS[0]
        paths = ["", "zh/", f"{slug}/", f"zh/{slug}/", f"notebooks/{slug}/", f"zh/notebooks/{slug}/",
                 f"notebooks/{slug}.ipynb", f"zh/notebooks/{slug}.ipynb"]
        deadline = time.monotonic() + 600
        while True:
            try:
                with urllib.request.urlopen(base + paths[-1], timeout=5) as response:
                    assert response.status == 200
                break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                assert time.monotonic() < deadline, "mkdocs serve did not come up"
                time.sleep(1)
        for path in paths:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                body = response.read().decode("utf-8")
            assert response.status == 200, path
            if path.endswith("/"):
                assert f'<html lang="{"zh" if path.startswith("zh/") else "en"}"' in body, path
        assert notebooks.TEXT["zh"]["run"] in urllib.request.urlopen(base + f"zh/{slug}/").read().decode()
    finally:
        server.send_signal(signal.SIGINT)  # as Ctrl+C: mkdocs shuts down and its hooks clean up
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

"""MkDocs hook: every chapter as a Jupyter notebook, in both languages, with its outputs.

For every chapter (each docs/*.md except index and glossary) and each
language, the build makes a notebook from the same sources as the page, runs
it and publishes it twice: rendered, at /notebooks/<slug>/ (/zh/notebooks/<slug>/),
and as a file to download, /notebooks/<slug>.ipynb. No Jupyter kernel is
started. This hook wires five parts, each a module of hooks/ named after its job:

- notebook_cells.py: Markdown to cells, the chapter page as a notebook;
- notebook_modules.py: module inlining, the first cells save the modules of
  snippets/ that the chapter imports, so the .ipynb runs on its own;
- notebook_outputs.py: execution, in the build's own worker processes: the
  cells' printed output (once per chapter when its code is the same in both
  languages, as it is), and the figures that hooks/figure_drawing.py drew
  for the pages;
- notebook_cache.py: caching of the outputs (under the code) and of the
  rendered HTML (under the notebook), in .cache/notebooks/;
- notebook_page.py: clean-up of the rendered page (nothing from other hosts,
  MathML, the chapter's heading ids, figures as files).

When the build starts, every notebook of every language is made, the run of
each chapter's code is taken from the cache or given to a worker process
(hooks/build_pool.py), and each notebook is handed to a thread that waits for
its figures and its outputs, then for its HTML (cached, or rendered by a
worker), while MkDocs renders the pages; a notebook page waits only for its
own notebook (under `mkdocs serve` it does not wait: it says the notebook is
being run, and the server rebuilds when it is; hooks/build_pool.py).
`FIGURES=off` runs nothing and renders the notebooks without outputs. A cell
that raises stops the build with an error that names the chapter and shows
the traceback.

mkdocs-jupyter is used as a library, not as a plugin: its converter renders
each notebook (in a worker, on a cache miss). Its plugin would only wrap the
files, run and cache what this hook runs and caches, and cost every build,
warm ones included, a second to import nbconvert. The notebooks never enter
docs/: mkdocs-static-i18n rebuilds every file of docs/ as a plain `File` in its
`on_files` (which runs last, at priority -100), so a page type given to an
.ipynb there would be lost (static-i18n issue 198). This hook adds the
notebooks of the language being built in `on_files` at priority -200, after
the i18n plugin, as `NotebookPage`s: files that MkDocs builds as pages.
"""

import atexit
import json
import os
import shutil
import tempfile
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import build_pool
import figure_drawing
import languages
import notebook_cache
import notebook_outputs
import notebook_page
from notebook_cells import build_notebook, chapters, figure_captions
from notebook_page import FOLDER

# What mkdocs-jupyter's converter is given: its plugin's defaults, without require.js.
CONVERTER_OPTIONS = {"theme": "", "kernel_name": "", "allow_errors": True, "show_input": True, "no_input": False,
                     "no_prompt": False, "remove_tag_config": {}, "highlight_extra_classes": "",
                     "include_requirejs": False, "custom_mathjax_url": ""}

# Under `mkdocs serve`, the page of a notebook still being run (hooks/build_pool.py).
PENDING = {"en": "This notebook is being run; the page reloads when it is ready.",
           "zh": "这个笔记本正在运行，运行完后页面会自动刷新。"}

_state = SimpleNamespace(notebooks={}, results={}, runs={}, pages={}, threads=None, workdir=None)


class NotebookPage(File):
    """A notebook that MkDocs builds as a page: /notebooks/<slug>/index.ipynb -> /notebooks/<slug>/."""

    def is_documentation_page(self):
        return True


def label(slug, language):
    """A notebook's name in the cache of its HTML: the chapter, and the language unless English."""
    return slug if language == languages.DEFAULT else f"{slug}.{language}"


def run(slug, notebook):
    """A Future of the outputs of a notebook's code (`notebook_outputs.run_code`): cached, or run in a worker.

    One per chapter and code: the other language's notebook of the chapter, whose code is
    the same, gets the same Future, so its code runs once.
    """
    key = notebook_cache.outputs_key(notebook)
    if key not in _state.runs:
        outputs = notebook_cache.load("outputs", slug, key)
        if outputs is not None:
            _state.runs[key] = build_pool.done(outputs)
        else:
            _state.runs[key] = build_pool.on_success(build_pool.submit(notebook_outputs.run_code, notebook, slug),
                                                     lambda ran: notebook_cache.save("outputs", slug, key, ran))
    return _state.runs[key]


def produce(name, language, notebook, figures, outputs, options):
    """The .ipynb text and the HTML of one notebook, from the cache or from a worker process.

    Runs in a thread of this process: it waits for the notebook's figures and the outputs of
    its code (Futures; `outputs` is None for a notebook left unexecuted), then takes its HTML
    from the cache or has a worker render it (notebook_cache.render_html).
    """
    svgs = {snippet: future.result() for snippet, future in figures.items()}
    outputs = [] if outputs is None else notebook_outputs.show_figures(notebook, outputs.result(), svgs, language)
    ipynb = notebook_cache.ipynb_text(notebook, outputs)
    key = notebook_cache.html_key(ipynb, options)
    html = notebook_cache.load("html", name, key)
    if html is None:
        html = build_pool.submit(notebook_cache.render_html, ipynb, name, options).result()
        notebook_cache.save("html", name, key, html)
    return ipynb, html


def _workdir():
    """This process's folder for the notebook files that MkDocs reads (outside docs/)."""
    if _state.workdir is None:
        _state.workdir = Path(tempfile.mkdtemp(prefix="mkdocs-notebooks-"))
        atexit.register(shutil.rmtree, _state.workdir, ignore_errors=True)
    return _state.workdir


def _stop(cancel=False):
    if _state.threads is not None:  # under `mkdocs serve` the threads finish after the build
        _state.threads.shutdown(wait=not (cancel or build_pool.serving()), cancel_futures=cancel)
        _state.threads = None
    build_pool.shutdown(cancel=cancel)


# --- MkDocs events ---------------------------------------------------------------------------

def on_pre_build(config):
    if languages.inside_further_language(config):
        return  # a further language: its notebooks were made with the first one's
    # Every notebook of every language, made now and handed to a thread that gets its outputs
    # and HTML; a notebook page waits for its own only when MkDocs builds it.
    _state.threads = ThreadPoolExecutor(max_workers=8, thread_name_prefix="notebook")
    _state.notebooks, _state.results, _state.runs = {}, {}, {}
    executed = os.environ.get("FIGURES", "on") != "off"
    for language in languages.built(config):
        for slug in chapters():
            notebook = json.loads(json.dumps(build_notebook(slug, language, config.site_url or "/")))
            figures = {cell["metadata"]["snippet"]: figure_drawing.drawing(cell["metadata"]["snippet"][:-3], language)
                       for cell in notebook["cells"] if "figure" in cell["metadata"].get("tags", [])} if executed else {}
            _state.notebooks[slug, language] = notebook
            _state.results[slug, language] = _state.threads.submit(
                produce, label(slug, language), language, notebook, figures,
                run(slug, notebook) if executed else None, CONVERTER_OPTIONS)
            build_pool.track(_state.results[slug, language])


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built the other languages
def on_post_build(config):
    if not languages.inside_further_language(config):
        _stop()


def on_build_error(error):
    _stop(cancel=True)


def on_shutdown():
    _stop(cancel=True)
    if _state.workdir is not None:
        shutil.rmtree(_state.workdir, ignore_errors=True)
        _state.workdir = None


@event_priority(-200)  # after mkdocs-static-i18n (-100), which would turn them back into plain files
def on_files(files, config):
    language = languages.building(config)
    prefix = "" if language == languages.DEFAULT else f"{language}/"
    i18n = config.plugins.get("i18n")
    _state.pages = {}
    for slug, lang in _state.notebooks:
        if lang != language:
            continue
        page = NotebookPage(f"{prefix}{FOLDER}/{slug}/index.ipynb", str(_workdir()), config.site_dir,
                            config.use_directory_urls, inclusion=InclusionLevel.NOT_IN_NAV)
        # What mkdocs-static-i18n reads to point the language selector at the same page.
        page.locale = page.locale_alternate_of = language
        page.localization = None if language == languages.DEFAULT else language
        page.alternates = {other: SimpleNamespace(url=languages.page_url("", f"{FOLDER}/{slug}", other), page=None)
                           for other in languages.built(config)}
        download = File(f"{prefix}{FOLDER}/{slug}.ipynb", str(_workdir()), config.site_dir,
                        config.use_directory_urls, inclusion=InclusionLevel.NOT_IN_NAV)
        files.append(page)
        files.append(download)
        if i18n is not None:  # its sitemap lists the pages it saw, and it saw them before these
            i18n.i18n_files_per_language.setdefault(language, []).append(page)
        _state.pages[page.abs_src_path] = SimpleNamespace(slug=slug, language=language, download=download)
    return files


def on_pre_page(page, config, files):
    found = _state.pages.get(page.file.abs_src_path)
    if found is None:
        return page
    result = _state.results[found.slug, found.language]
    if build_pool.unfinished(result):  # still being run, under `mkdocs serve`: a note, then a rebuild
        notebook = _state.notebooks[found.slug, found.language]
        ipynb = notebook_cache.ipynb_text(notebook, [])
        html = f'<p class="notebook-pending" role="status">{PENDING[found.language]}</p>'
    else:
        ipynb, html = result.result()
    for path in (Path(page.file.abs_src_path), Path(found.download.abs_src_path)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ipynb, encoding="utf-8")
    found.captions = figure_captions(_state.notebooks[found.slug, found.language])

    def render(self, config, files):  # the converter's HTML, not Markdown; the TOC comes in on_page_content
        self.content = html

    page.render = types.MethodType(render, page)
    return page


def on_page_content(html_text, page, config, files):
    found = _state.pages.get(page.file.abs_src_path)
    if found is not None:
        return notebook_page.finish(html_text, page, config, files, found.slug, found.language, found.captions)
    slug, language = page.file.src_uri.split(".")[0], languages.building(config)
    if page.file.src_uri.endswith(".md") and (slug, language) in _state.notebooks:
        return notebook_page.chapter_links(slug, language, html_text)
    return html_text

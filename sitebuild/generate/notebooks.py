"""Every chapter as a Jupyter notebook, in both languages, with its outputs, made before the pages.

For every chapter (each docs/*.md except index and glossary) and each language, a notebook
is made from the same sources as the page, its code run and the result rendered to HTML.
No Jupyter kernel is started. Five modules, each named after its job:

- notebook_cells.py: Markdown to cells, the chapter page as a notebook;
- notebook_modules.py: module inlining, the first cells save the modules of
  snippets/ that the chapter imports, so the .ipynb runs on its own;
- notebook_outputs.py: execution, in the build's own worker processes: the
  cells' printed output (once per chapter when its code is the same in both
  languages, as it is), and the figures that figures.py drew for the pages;
- notebook_cache.py: caching of the outputs (under the code) and of the
  rendered HTML (under the notebook), in .cache/notebooks/;
- notebook_page.py: clean-up of the rendered page (nothing from other hosts, MathML, the
  chapter's heading ids, figures as files), once it is a page of the site.

`start` makes every notebook of every language, takes the run of each chapter's code from
the cache or gives it to a worker process (pool.py), and hands each notebook to a thread
that waits for its figures and its outputs, then for its HTML (cached, or rendered by a
worker); `result` is a Future of a notebook's .ipynb text and HTML. `FIGURES=off` runs
nothing and renders the notebooks without outputs. A cell that raises is a
GenerationError that names the chapter and shows the traceback.

A Jupyter converter renders each notebook (notebook_cache.render_html says which; it loads
no part of MkDocs, as tests/test_layers.py checks). `page_source` is what a notebook page
is made of.
"""

import json
import os
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from ..languages import DEFAULT, folder
from . import figures, notebook_cache, notebook_modules, notebook_outputs
from . import pool as build_pool
from .notebook_cells import build_notebook, chapters, figure_captions
from .notebook_page import FOLDER as PAGE_FOLDER

# What the converter is given: its plugin's defaults, without require.js.
CONVERTER_OPTIONS = {"theme": "", "kernel_name": "", "allow_errors": True, "show_input": True, "no_input": False,
                     "no_prompt": False, "remove_tag_config": {}, "highlight_extra_classes": "",
                     "include_requirejs": False, "custom_mathjax_url": ""}

_state = SimpleNamespace(notebooks={}, results={}, runs={}, threads=None)


def label(slug, language):
    """A notebook's name in the cache of its HTML: the chapter, and the language unless English."""
    return slug if language == DEFAULT else f"{slug}.{language}"


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
            code = [cell["source"] for cell in notebook["cells"] if cell["cell_type"] == "code"]
            work = build_pool.submit(notebook_outputs.run_code, notebook, slug, lane=figures.lane(code))
            _state.runs[key] = build_pool.on_success(work, lambda ran: notebook_cache.save("outputs", slug, key, ran))
    return _state.runs[key]


def produce(name, language, notebook, figures, outputs, options):
    """The .ipynb text and the HTML of one notebook, from the cache or from a worker process.

    The HTML shows the module cells as links (notebook_modules.linked); the .ipynb keeps them.

    Runs in a thread of this process: it waits for the notebook's figures and the outputs of
    its code (Futures; `outputs` is None for a notebook left unexecuted), then takes its HTML
    from the cache or has a worker render it (notebook_cache.render_html).
    """
    svgs = {snippet: future.result() for snippet, future in figures.items()}
    outputs = [] if outputs is None else notebook_outputs.show_figures(notebook, outputs.result(), svgs, language)
    ipynb = notebook_cache.ipynb_text(notebook, outputs)
    depth = f"{folder(language)}{PAGE_FOLDER}/{name}/".count("/")  # the page's folders below the site's root
    shown = notebook_modules.linked(ipynb, language, depth)  # the module cells as links
    key = notebook_cache.html_key(shown, options)
    html = notebook_cache.load("html", name, key)
    if html is None:
        html = build_pool.submit(notebook_cache.render_html, shown, name, options).result()
        notebook_cache.save("html", name, key, html)
    return ipynb, html


def start(languages, site_url):
    """Every notebook of every language in `languages`, made now and handed to a thread for its outputs and HTML."""
    _state.threads = ThreadPoolExecutor(max_workers=8, thread_name_prefix="notebook")
    _state.notebooks, _state.results, _state.runs = {}, {}, {}
    executed = os.environ.get("FIGURES", "on") != "off"
    for language in languages:
        for slug in chapters():
            notebook = json.loads(json.dumps(build_notebook(slug, language, site_url)))
            drawn = {cell["metadata"]["snippet"]: figures.drawing(cell["metadata"]["snippet"][:-3], language)
                     for cell in notebook["cells"] if "figure" in cell["metadata"].get("tags", [])} if executed else {}
            _state.notebooks[slug, language] = notebook
            _state.results[slug, language] = _state.threads.submit(
                produce, label(slug, language), language, notebook, drawn,
                run(slug, notebook) if executed else None, CONVERTER_OPTIONS)
            build_pool.track(_state.results[slug, language])


def made():
    """(slug, language) of every notebook that `start` made."""
    return list(_state.notebooks)


def notebook(slug, language):
    """The notebook (an nbformat dict, without outputs) of a chapter in a language."""
    return _state.notebooks[slug, language]


def result(slug, language):
    """A Future of the .ipynb text and the HTML of a chapter's notebook in a language."""
    return _state.results[slug, language]


# Under the live server (pool.serving()), the page of a notebook still being run.
PENDING = {"en": "This notebook is being run; the page reloads when it is ready.",
           "zh": "这个笔记本正在运行，运行完后页面会自动刷新。"}


def page_source(slug, language):
    """What a chapter's notebook page is made of: its .ipynb text, its HTML and its figures' captions.

    Waits for the notebook, unless the server does not wait (pool.serving()): then a notebook
    still being run is its .ipynb without outputs and a note that the page will reload.
    """
    made_result = result(slug, language)
    if build_pool.unfinished(made_result):
        ipynb = notebook_cache.ipynb_text(notebook(slug, language), [])
        html = f'<p class="notebook-pending" role="status">{PENDING[language]}</p>'
    else:
        ipynb, html = made_result.result()
    return ipynb, html, figure_captions(notebook(slug, language))


def stop(cancel=False):
    """The end of a build (`cancel`: a failed one): the threads and the workers stop."""
    if _state.threads is not None:  # under the live server the threads finish after the build
        _state.threads.shutdown(wait=not (cancel or build_pool.serving()), cancel_futures=cancel)
        _state.threads = None
    build_pool.shutdown(cancel=cancel)

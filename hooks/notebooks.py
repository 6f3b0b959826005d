"""MkDocs hook: every chapter as a Jupyter notebook, in both languages, with its outputs.

The generator (sitebuild/generate/notebooks.py) makes, runs and renders every notebook when
the build starts; this hook publishes each twice: rendered, at /notebooks/<slug>/
(/zh/notebooks/<slug>/), and as a file to download, /notebooks/<slug>.ipynb; it cleans the
rendered page up (sitebuild/generate/notebook_page.py) and links each chapter to its notebook. A notebook
page waits only for its own notebook (under `mkdocs serve` it does not wait: it says the
notebook is being run, and the server rebuilds when it is).

The notebooks never enter docs/: mkdocs-static-i18n rebuilds every file of docs/ as a plain
`File` in its `on_files` (which runs last, at priority -100), so a page type given to an
.ipynb there would be lost (static-i18n issue 198). This hook adds the notebooks of the
language being built in `on_files` at priority -200, after the i18n plugin, as
`NotebookPage`s: files that MkDocs builds as pages.
"""

import atexit
import shutil
import tempfile
import types
from pathlib import Path
from types import SimpleNamespace

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.toc import get_toc

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import languages
import layers
from sitebuild.generate import notebook_page
from sitebuild.generate import notebooks as making
from sitebuild.generate import pool as build_pool
from sitebuild.generate.notebook_cache import ipynb_text
from sitebuild.generate.notebook_cells import figure_captions
from sitebuild.generate.notebook_page import FOLDER

# Under `mkdocs serve`, the page of a notebook still being run.
PENDING = {"en": "This notebook is being run; the page reloads when it is ready.",
           "zh": "这个笔记本正在运行，运行完后页面会自动刷新。"}

_state = SimpleNamespace(pages={}, workdir=None)


class NotebookPage(File):
    """A notebook that MkDocs builds as a page: /notebooks/<slug>/index.ipynb -> /notebooks/<slug>/."""

    def is_documentation_page(self):
        return True


def _workdir():
    """This process's folder for the notebook files that MkDocs reads (outside docs/)."""
    if _state.workdir is None:
        _state.workdir = Path(tempfile.mkdtemp(prefix="mkdocs-notebooks-"))
        atexit.register(shutil.rmtree, _state.workdir, ignore_errors=True)
    return _state.workdir


# --- MkDocs events ---------------------------------------------------------------------------

@layers.stops_the_build
def on_pre_build(config):
    if languages.inside_further_language(config):
        return  # a further language: its notebooks were made with the first one's
    # Every notebook of every language, made now and handed to a thread that gets its outputs
    # and HTML; a notebook page waits for its own only when MkDocs builds it.
    making.start(languages.built(config), config.site_url or "/")


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built the other languages
def on_post_build(config):
    if not languages.inside_further_language(config):
        making.stop()


def on_build_error(error):
    making.stop(cancel=True)


def on_shutdown():
    making.stop(cancel=True)
    if _state.workdir is not None:
        shutil.rmtree(_state.workdir, ignore_errors=True)
        _state.workdir = None


@event_priority(-200)  # after mkdocs-static-i18n (-100), which would turn them back into plain files
def on_files(files, config):
    language = languages.building(config)
    prefix = "" if language == languages.DEFAULT else f"{language}/"
    i18n = config.plugins.get("i18n")
    _state.pages = {}
    for slug, lang in making.made():
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


@layers.stops_the_build
def on_pre_page(page, config, files):
    found = _state.pages.get(page.file.abs_src_path)
    if found is None:
        return page
    result = making.result(found.slug, found.language)
    if build_pool.unfinished(result):  # still being run, under `mkdocs serve`: a note, then a rebuild
        ipynb = ipynb_text(making.notebook(found.slug, found.language), [])
        html = f'<p class="notebook-pending" role="status">{PENDING[found.language]}</p>'
    else:
        ipynb, html = result.result()
    for path in (Path(page.file.abs_src_path), Path(found.download.abs_src_path)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ipynb, encoding="utf-8")
    found.captions = figure_captions(making.notebook(found.slug, found.language))

    def render(self, config, files):  # the converter's HTML, not Markdown; the TOC comes in on_page_content
        self.content = html

    page.render = types.MethodType(render, page)
    return page


def on_page_content(html_text, page, config, files):
    found = _state.pages.get(page.file.abs_src_path)
    if found is not None:
        html_text, contents, page.title, images = notebook_page.finish(
            html_text, found.slug, found.language, found.captions, page.url, config.site_url or "/")
        page.toc = get_toc(contents)
        page.meta["search"] = {"exclude": True}  # the chapter page is the one to find
        folder = Path(page.file.dest_uri).parent.as_posix()
        for name, data in images:  # the figures, next to the page
            files.append(File.generated(config, f"{folder}/{name}", content=data))
        return html_text
    slug, language = page.file.src_uri.split(".")[0], languages.building(config)
    if page.file.src_uri.endswith(".md") and (slug, language) in making.made():
        return notebook_page.chapter_links(slug, language, html_text)
    return html_text

"""MkDocs hook: each chapter's notebook (sitebuild/generate/notebooks.py) as a page and a download.

Publishes /notebooks/<slug>/ (rendered) and /notebooks/<slug>.ipynb, under /zh/ for Chinese,
and links each chapter to its notebook. The notebooks never enter docs/: mkdocs-static-i18n
turns every file of docs/ into a plain File in its on_files (priority -100), so this hook
adds the notebooks of the language being built afterwards, at -200 (static-i18n issue 198).
"""

import tempfile
import types
from pathlib import Path
from types import SimpleNamespace

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.toc import get_toc

import languages  # a neighbour in hooks/: MkDocs runs each hook with its folder on sys.path
import layers
from sitebuild.generate import notebook_page
from sitebuild.generate import notebooks as making

_state = SimpleNamespace(pages={}, workdir=None)  # the notebook files MkDocs reads live in workdir


class NotebookPage(File):
    """A notebook that MkDocs builds as a page: /notebooks/<slug>/index.ipynb -> /notebooks/<slug>/."""

    def is_documentation_page(self):
        return True


@layers.stops_the_build
def on_pre_build(config):
    if not languages.inside_further_language(config):  # every language's notebooks, made with the first
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
        _state.workdir.cleanup()
        _state.workdir = None


@event_priority(-200)  # after mkdocs-static-i18n (-100), which would turn them back into plain files
def on_files(files, config):
    language = languages.building(config)
    prefix = languages.folder(language)
    _state.workdir = _state.workdir or tempfile.TemporaryDirectory(prefix="mkdocs-notebooks-")
    _state.pages = {}
    for slug in (slug for slug, lang in making.made() if lang == language):
        where = (_state.workdir.name, config.site_dir, config.use_directory_urls)
        page = NotebookPage(f"{prefix}{notebook_page.FOLDER}/{slug}/index.ipynb", *where,
                            inclusion=InclusionLevel.NOT_IN_NAV)
        download = File(f"{prefix}{notebook_page.FOLDER}/{slug}.ipynb", *where, inclusion=InclusionLevel.NOT_IN_NAV)
        # What mkdocs-static-i18n reads to point the language selector at the same page.
        page.locale = page.locale_alternate_of = language
        page.localization = None if language == languages.DEFAULT else language
        page.alternates = {other: SimpleNamespace(url=languages.page_url("", f"{notebook_page.FOLDER}/{slug}", other),
                                                  page=None) for other in languages.built(config)}
        files.append(page)
        files.append(download)
        if (i18n := config.plugins.get("i18n")) is not None:  # its sitemap lists the pages it saw before these
            i18n.i18n_files_per_language.setdefault(language, []).append(page)
        _state.pages[page.abs_src_path] = SimpleNamespace(slug=slug, language=language, download=download)
    return files


@layers.stops_the_build
def on_pre_page(page, config, files):
    if (found := _state.pages.get(page.file.abs_src_path)) is None:
        return page
    ipynb, html, found.captions = making.page_source(found.slug, found.language)
    for path in (Path(page.file.abs_src_path), Path(found.download.abs_src_path)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ipynb, encoding="utf-8")

    def render(self, config, files):  # the converter's HTML, not Markdown; the TOC comes in on_page_content
        self.content = html

    page.render = types.MethodType(render, page)
    return page


def on_page_content(html_text, page, config, files):
    if (found := _state.pages.get(page.file.abs_src_path)) is None:  # a chapter: a link to its notebook
        slug, language = page.file.src_uri.split(".")[0], languages.building(config)
        made = page.file.src_uri.endswith(".md") and (slug, language) in making.made()
        return notebook_page.chapter_links(slug, language, html_text) if made else html_text
    html_text, contents, page.title, images = notebook_page.finish(
        html_text, found.slug, found.language, found.captions, page.url, config.site_url or "/")
    page.toc = get_toc(contents)
    page.meta["search"] = {"exclude": True}  # the chapter page is the one to find
    for name, data in images:  # the figures, next to the page
        files.append(File.generated(config, f"{Path(page.file.dest_uri).parent.as_posix()}/{name}", content=data))
    return html_text

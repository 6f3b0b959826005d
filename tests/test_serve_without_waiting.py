"""Under `mkdocs serve` a page does not wait for its figures and notebooks (sitebuild/generate/pool.py).

The server serves as soon as the pages are written; a figure still being drawn is a note on
its page, and when the work is done .cache/serve/ready is written, which the server watches,
so it rebuilds and the browser reloads. `mkdocs build` always waits.
"""

import time
from concurrent.futures import Future

import pytest

from sitebuild.generate import pool as build_pool
from sitebuild.generate import figures as figure_drawing
import snippet_figures


@pytest.fixture
def serving(tmp_path, monkeypatch):
    monkeypatch.setattr(build_pool, "READY", tmp_path)
    build_pool.serving("serve")
    yield tmp_path / "ready"
    build_pool.serving("build")
    build_pool._serve["tracked"].clear()


def wait_for(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_a_page_shows_a_note_for_a_figure_still_being_drawn_and_a_rebuild_follows(serving, monkeypatch):
    drawing = Future()  # a worker is drawing it
    key = figure_drawing.cache_key(figure_drawing.SNIPPETS / "fig_words_to_qkv.py", "zh")
    monkeypatch.setitem(figure_drawing._drawing, key, drawing)
    monkeypatch.setattr(figure_drawing, "_drawn", {})
    build_pool.track(drawing)
    figure = '<figure class="snippet-figure" id="fig-words-to-qkv">'
    page = (figure + '\n<span class="snippet-figure-svg" data-snippet="fig_words_to_qkv" data-lang="zh" data-label="x">'
            '</span><div class="snippet-figure-numbers" data-snippet="fig_words_to_qkv" data-lang="zh"></div>')
    html = snippet_figures.on_post_page(page, None, None)
    assert html == f'{figure}<span class="snippet-figure-pending" role="status">{snippet_figures.PENDING["zh"]}</span>'

    build_pool.shutdown()  # the end of the build: it does not wait
    time.sleep(0.3)
    assert not serving.exists(), "a rebuild was asked for before the figure was drawn"
    drawing.set_result('<svg viewBox="0 0 1 1"></svg>')
    assert wait_for(serving.exists), "no rebuild was asked for once the figure was drawn"


def test_without_a_note_no_rebuild_is_asked_for(serving):
    done = Future()
    build_pool.track(done)
    done.set_result("<svg/>")
    assert not build_pool.unfinished(done)
    build_pool.shutdown()
    assert wait_for(lambda: build_pool._serve["waiter"] is None)
    assert not serving.exists()


def test_mkdocs_build_waits():
    build_pool.serving("build")
    assert not build_pool.unfinished(Future())


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_built_page_lacks_a_figure_or_a_notebook(built_site, language):
    root = built_site / "zh" if language == "zh" else built_site
    pages = list(root.glob("*/index.html")) + list(root.glob("notebooks/*/index.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "snippet-figure-pending" not in text and "notebook-pending" not in text, page

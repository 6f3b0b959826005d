"""The figure cache: an unchanged snippet is not drawn again; a change to it or to what it imports is."""

import shutil

import pytest

from sitebuild.generate import figures as figure_drawing
from conftest import SNIPPETS


@pytest.fixture()
def counted_renders(tmp_path, monkeypatch):
    """figure_drawing working on a copy of snippets/ with an empty cache, counting real renders."""
    snippets = tmp_path / "snippets"
    shutil.copytree(SNIPPETS, snippets, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(figure_drawing, "SNIPPETS", snippets)
    monkeypatch.setattr(figure_drawing, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(figure_drawing, "_drawn", {})
    monkeypatch.delenv("FIGURE_CACHE", raising=False)
    monkeypatch.delenv("FIGURES", raising=False)
    rendered = []
    real_render = figure_drawing._render

    def render(path, lang="en"):
        rendered.append(path.name if lang == "en" else f"{path.name} {lang}")
        return real_render(path, lang)

    monkeypatch.setattr(figure_drawing, "_render", render)

    def new_build():
        figure_drawing._drawn.clear()  # a new `mkdocs build` starts with an empty memory
    return snippets, rendered, new_build


def test_unchanged_snippet_is_taken_from_the_cache(counted_renders):
    snippets, rendered, new_build = counted_renders
    first = figure_drawing.draw_svg("fig_words_to_qkv")
    new_build()
    second = figure_drawing.draw_svg("fig_words_to_qkv")
    assert rendered == ["fig_words_to_qkv.py"]
    assert first == second


def test_edited_snippet_is_drawn_again(counted_renders):
    snippets, rendered, new_build = counted_renders
    figure_drawing.draw_svg("fig_words_to_qkv")
    path = snippets / "fig_words_to_qkv.py"
    source = path.read_text()
    assert '"Q = X·W_Q' in source  # the edit below must change the snippet
    path.write_text(source.replace('"Q = X·W_Q', '"Q = X W_Q'))
    new_build()
    svg = figure_drawing.draw_svg("fig_words_to_qkv")
    assert rendered == ["fig_words_to_qkv.py"] * 2
    assert "Q = X W_Q" in svg


def test_edited_import_redraws_only_the_snippets_that_use_it(counted_renders):
    snippets, rendered, new_build = counted_renders
    figure_drawing.draw_svg("fig_words_to_qkv")
    figure_drawing.draw_svg("fig_learnable_weights")
    plotting = snippets / "plotting.py"
    plotting.write_text(plotting.read_text() + "\n# an edit\n")
    new_build()
    figure_drawing.draw_svg("fig_words_to_qkv")
    figure_drawing.draw_svg("fig_learnable_weights")
    assert rendered.count("fig_words_to_qkv.py") == 2 and rendered.count("fig_learnable_weights.py") == 2
    running_example = snippets / "running_example.py"
    running_example.write_text(running_example.read_text() + "\n# another edit\n")
    new_build()
    figure_drawing.draw_svg("fig_words_to_qkv")
    assert rendered.count("fig_words_to_qkv.py") == 3


def test_each_language_is_drawn_once_and_cached_on_its_own(counted_renders):
    snippets, rendered, new_build = counted_renders
    english = figure_drawing.draw_svg("fig_look_ahead_mask", "en")
    chinese = figure_drawing.draw_svg("fig_look_ahead_mask", "zh")
    assert figure_drawing.draw_svg("fig_look_ahead_mask", "zh") == chinese  # same build: memory
    new_build()
    assert figure_drawing.draw_svg("fig_look_ahead_mask", "en") == english  # next build: cache
    assert figure_drawing.draw_svg("fig_look_ahead_mask", "zh") == chinese
    assert rendered == ["fig_look_ahead_mask.py", "fig_look_ahead_mask.py zh"]
    assert "掩蔽后的分数" in chinese and "掩蔽后的分数" not in english
    assert "masked scores" in english and "masked scores" not in chinese
    assert sorted(p.name.split("-")[1] for p in figure_drawing.CACHE.glob("*.svg")) == ["en", "zh"]


def test_no_figures_mode_draws_placeholders(counted_renders, monkeypatch):
    snippets, rendered, new_build = counted_renders
    monkeypatch.setenv("FIGURES", "off")
    assert "fig_words_to_qkv" in figure_drawing.draw_svg("fig_words_to_qkv")
    assert rendered == []


def test_a_worker_process_draws_what_the_cache_lacks(tmp_path, monkeypatch):
    """The build's workers (sitebuild/generate/pool.py) draw the same SVG as this process; the cache keeps it."""
    from sitebuild.generate import pool as build_pool

    monkeypatch.setattr(figure_drawing, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(figure_drawing, "_drawn", {})
    monkeypatch.setattr(figure_drawing, "_drawing", {})
    monkeypatch.delenv("FIGURE_CACHE", raising=False)
    monkeypatch.delenv("FIGURES", raising=False)
    try:
        svg = figure_drawing.drawing("fig_look_ahead_mask", "zh").result(timeout=300)
    finally:
        build_pool.shutdown()
    assert svg == figure_drawing._render(SNIPPETS / "fig_look_ahead_mask.py", "zh")
    assert [p.read_text(encoding="utf-8") for p in (tmp_path / "cache").glob("fig_look_ahead_mask-zh-*.svg")] == [svg]


def test_a_snippet_that_raises_in_a_worker_is_named(tmp_path, monkeypatch):
    from sitebuild.generate.errors import GenerationError

    from sitebuild.generate import pool as build_pool

    snippets = tmp_path / "snippets"
    shutil.copytree(SNIPPETS, snippets, ignore=shutil.ignore_patterns("__pycache__"))
    (snippets / "fig_broken.py").write_text("def draw(lang='en'):\n    raise RuntimeError('deliberately broken')\n")
    monkeypatch.setattr(figure_drawing, "SNIPPETS", snippets)
    monkeypatch.setattr(figure_drawing, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(figure_drawing, "_drawing", {})
    try:
        with pytest.raises(GenerationError, match=r"snippets/fig_broken\.py \(lang='zh'\).*deliberately broken"):
            figure_drawing.drawing("fig_broken", "zh").result(timeout=300)
    finally:
        build_pool.shutdown()
    assert not (tmp_path / "cache").exists()

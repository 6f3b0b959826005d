"""The figure cache: an unchanged snippet is not drawn again; a change to it or to what it imports is."""

import shutil

import pytest

import snippet_figures
from conftest import SNIPPETS


@pytest.fixture()
def counted_renders(tmp_path, monkeypatch):
    """snippet_figures working on a copy of snippets/ with an empty cache, counting real renders."""
    snippets = tmp_path / "snippets"
    shutil.copytree(SNIPPETS, snippets, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(snippet_figures, "SNIPPETS", snippets)
    monkeypatch.setattr(snippet_figures, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(snippet_figures, "_drawn", {})
    monkeypatch.delenv("FIGURE_CACHE", raising=False)
    monkeypatch.delenv("FIGURES", raising=False)
    rendered = []
    real_render = snippet_figures._render

    def render(path, lang="en"):
        rendered.append(path.name if lang == "en" else f"{path.name} {lang}")
        return real_render(path, lang)

    monkeypatch.setattr(snippet_figures, "_render", render)

    def new_build():
        snippet_figures._drawn.clear()  # a new `mkdocs build` starts with an empty memory
    return snippets, rendered, new_build


def test_unchanged_snippet_is_taken_from_the_cache(counted_renders):
    snippets, rendered, new_build = counted_renders
    first = snippet_figures.draw_svg("fig_words_to_qkv")
    new_build()
    second = snippet_figures.draw_svg("fig_words_to_qkv")
    assert rendered == ["fig_words_to_qkv.py"]
    assert first == second


def test_edited_snippet_is_drawn_again(counted_renders):
    snippets, rendered, new_build = counted_renders
    snippet_figures.draw_svg("fig_words_to_qkv")
    path = snippets / "fig_words_to_qkv.py"
    source = path.read_text()
    assert '"Q = X·W_Q' in source  # the edit below must change the snippet
    path.write_text(source.replace('"Q = X·W_Q', '"Q = X W_Q'))
    new_build()
    svg = snippet_figures.draw_svg("fig_words_to_qkv")
    assert rendered == ["fig_words_to_qkv.py"] * 2
    assert "Q = X W_Q" in svg


def test_edited_import_redraws_only_the_snippets_that_use_it(counted_renders):
    snippets, rendered, new_build = counted_renders
    snippet_figures.draw_svg("fig_words_to_qkv")
    snippet_figures.draw_svg("fig_learnable_weights")
    plotting = snippets / "plotting.py"
    plotting.write_text(plotting.read_text() + "\n# an edit\n")
    new_build()
    snippet_figures.draw_svg("fig_words_to_qkv")
    snippet_figures.draw_svg("fig_learnable_weights")
    assert rendered.count("fig_words_to_qkv.py") == 2 and rendered.count("fig_learnable_weights.py") == 2
    running_example = snippets / "running_example.py"
    running_example.write_text(running_example.read_text() + "\n# another edit\n")
    new_build()
    snippet_figures.draw_svg("fig_words_to_qkv")
    assert rendered.count("fig_words_to_qkv.py") == 3


def test_each_language_is_drawn_once_and_cached_on_its_own(counted_renders):
    snippets, rendered, new_build = counted_renders
    english = snippet_figures.draw_svg("fig_look_ahead_mask", "en")
    chinese = snippet_figures.draw_svg("fig_look_ahead_mask", "zh")
    assert snippet_figures.draw_svg("fig_look_ahead_mask", "zh") == chinese  # same build: memory
    new_build()
    assert snippet_figures.draw_svg("fig_look_ahead_mask", "en") == english  # next build: cache
    assert snippet_figures.draw_svg("fig_look_ahead_mask", "zh") == chinese
    assert rendered == ["fig_look_ahead_mask.py", "fig_look_ahead_mask.py zh"]
    assert "掩蔽后的分数" in chinese and "掩蔽后的分数" not in english
    assert "masked scores" in english and "masked scores" not in chinese
    assert sorted(p.name.split("-")[1] for p in snippet_figures.CACHE.glob("*.svg")) == ["en", "zh"]


def test_no_figures_mode_draws_placeholders(counted_renders, monkeypatch):
    snippets, rendered, new_build = counted_renders
    monkeypatch.setenv("FIGURES", "off")
    assert "fig_words_to_qkv" in snippet_figures.draw_svg("fig_words_to_qkv")
    assert rendered == []

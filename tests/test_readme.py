"""The README's two commands are the ones CI and readers run."""

import re

from conftest import ROOT


def readme_commands():
    return re.findall(r"```bash\n(.+?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))


def test_readme_gives_a_serve_command_and_a_test_command():
    serve, test = readme_commands()[:2]
    assert serve.endswith("mkdocs serve")
    assert test.endswith("pytest")
    assert "pip install -r requirements.txt" in serve and "pip install -r requirements.txt" in test


def test_ci_runs_the_readme_test_command_unchanged():
    test = readme_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()


def test_every_requirement_is_pinned():
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            assert re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[0-9][\w.]*", line), line

"""The README's two commands are the ones CI and readers run."""

import re

from conftest import INSTALL, INSTALL_BUILD_CODE, INSTALL_WITH_TESTS, ROOT


def readme_commands():
    return re.findall(r"```bash\n(.+?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))


def test_readme_gives_a_serve_command_and_a_test_command():
    serve, test = readme_commands()[:2]
    assert serve.endswith("mkdocs serve")
    assert test.endswith("pytest")
    assert INSTALL in serve and INSTALL_WITH_TESTS in test  # the locks, hash-checked
    assert "requirements-tests.txt" not in serve  # a reader who only serves installs no test tool
    assert INSTALL_BUILD_CODE in serve and INSTALL_BUILD_CODE in test  # then sitebuild/


def test_ci_runs_the_readme_test_command_unchanged():
    test = readme_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()


def test_the_home_page_gives_the_readme_commands():
    for page in ("index.md", "index.zh.md"):
        shown = re.findall(r"```console\n(.+?)\n```", (ROOT / "docs" / page).read_text(encoding="utf-8"))
        assert shown[:2] == readme_commands()[:2], page


def test_the_readme_stays_short_and_documents_both_tiers():
    """Issue 47: at most 1,800 words (the details live in tests/README.md and sitebuild/README.md),
    with the quick tier under "While you write" and the full suite's command."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.split()) <= 1800, len(text.split())
    while_you_write = text.split("## While you write", 1)[1].split("\n## ", 1)[0]
    assert 'pytest -m "not slow"' in while_you_write
    assert readme_commands()[1].endswith("&& pytest")

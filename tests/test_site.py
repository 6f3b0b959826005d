"""The built site: strict build, both languages, parity, no other hosts, every code block tested."""

import re
import shutil
import subprocess
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pytest_codeblocks import extract_from_file

from conftest import DOCS, ROOT, SNIPPETS, mkdocs_build

SITE_URL = "https://why-attention.github.io/"
PAGES = sorted(p.relative_to(DOCS).as_posix()[:-3] for p in DOCS.glob("*.md") if not p.name.endswith(".zh.md"))
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp", ".avif"}


def html_path(site, page, language):
    prefix = site / "zh" if language == "zh" else site
    return prefix / ("index.html" if page == "index" else f"{page}/index.html")


def code_blocks(html_text, language="python"):
    """The text of every highlighted code block of one language in a built page."""
    blocks = re.findall(rf'<div class="language-{language} highlight">.*?<code>(.*?)</code>', html_text, re.S)
    return [normalise(unescape(re.sub(r"<[^>]+>", "", b))) for b in blocks]


def normalise(code):
    return "\n".join(line.rstrip() for line in code.strip("\n").splitlines())


def heading_ids(html_text):
    return re.findall(r'<h[1-6][^>]* id="([^"]+)"', html_text)


def figure_ids(html_text):
    return re.findall(r'<figure class="snippet-figure" id="([^"]+)"', html_text)


def test_every_page_exists_in_both_languages():
    for page in PAGES:
        assert (DOCS / f"{page}.zh.md").is_file(), f"docs/{page}.zh.md is missing"
    for zh in DOCS.glob("*.zh.md"):
        assert (DOCS / zh.name.replace(".zh.md", ".md")).is_file(), f"{zh.name} has no English page"


@pytest.mark.parametrize("page", PAGES)
def test_every_heading_has_an_explicit_id(page):
    for name in (f"{page}.md", f"{page}.zh.md"):
        text = re.sub(r"^(```|~~~).*?^\1", "", (DOCS / name).read_text(encoding="utf-8"), flags=re.S | re.M)
        for heading in re.findall(r"^#{1,6} .*$", text, re.M):
            assert re.search(r"\{ #[a-z0-9-]+ \}$", heading), f"{name}: heading without {{ #id }}: {heading}"


@pytest.mark.parametrize("page", PAGES)
def test_languages_match_headings_figures_and_code(built_site, page):
    en = html_path(built_site, page, "en").read_text(encoding="utf-8")
    zh = html_path(built_site, page, "zh").read_text(encoding="utf-8")
    assert heading_ids(en) == heading_ids(zh)
    assert figure_ids(en) == figure_ids(zh)
    assert code_blocks(en) == code_blocks(zh)
    assert '<html lang="zh"' in zh and '<html lang="en"' in en


def test_language_selector_can_find_the_same_page(built_site):
    """Material looks the page up in the other language's sitemap.xml."""
    for sitemap in (built_site / "sitemap.xml", built_site / "zh" / "sitemap.xml"):
        text = sitemap.read_text(encoding="utf-8")
        for page in PAGES:
            slug = "" if page == "index" else f"{page}/"
            assert f"<loc>{SITE_URL}{slug}</loc>" in text
            assert f"<loc>{SITE_URL}zh/{slug}</loc>" in text


class _Resources(HTMLParser):
    """Collect every URL a browser would fetch while loading the page (not plain links)."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in {"script", "img", "iframe", "audio", "video", "source", "embed"} and attrs.get("src"):
            self.urls.append(attrs["src"])
        if tag == "link" and attrs.get("href") and attrs.get("rel") not in {"canonical", "alternate"}:
            self.urls.append(attrs["href"])
        if tag in {"image", "use"}:
            self.urls += [v for k, v in attrs.items() if k in {"href", "xlink:href"} and v]


def test_built_site_loads_nothing_from_other_hosts(built_site):
    offenders = []
    for page in built_site.rglob("*.html"):
        parser = _Resources()
        text = page.read_text(encoding="utf-8")
        parser.feed(text)
        urls = parser.urls + re.findall(r"@import\s+url\(([^)]+)\)", text)
        offenders += [(page.name, u) for u in urls if re.match(r"(https?:)?//", u)]
    for css in built_site.rglob("*.css"):
        for url in re.findall(r"url\(['\"]?((?:https?:)?//[^'\")]+)", css.read_text(encoding="utf-8")):
            offenders.append((css.name, url))
    assert not offenders


def test_math_is_rendered_to_mathml_at_build_time(built_site):
    page = html_path(built_site, "input-to-attention", "en").read_text(encoding="utf-8")
    assert "<math" in page and 'class="arithmatex"' not in page


def test_no_image_files_are_committed_under_docs():
    tracked = subprocess.run(["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True).stdout
    images = [f for f in tracked.splitlines() if Path(f).suffix.lower() in IMAGE_SUFFIXES]
    assert not images


def blocks_under_test():
    """Code that a test executes: plain Python fences (pytest-codeblocks) and snippet files."""
    tested = {normalise(p.read_text(encoding="utf-8")) for p in SNIPPETS.glob("*.py")}
    for md in DOCS.rglob("*.md"):
        for block in extract_from_file(md):
            if block.syntax == "python" and not any("skip" in m for m in block.marks):
                tested.add(normalise(block.code))
    return tested


def test_every_python_block_on_the_site_is_tested(built_site):
    tested = blocks_under_test()
    untested = []
    for page in built_site.rglob("*.html"):
        for block in code_blocks(page.read_text(encoding="utf-8")):
            if block not in tested:
                untested.append(f"{page.relative_to(built_site)}: {block.splitlines()[0][:60]}")
    assert not untested, "Python blocks that no test runs:\n" + "\n".join(untested)


def test_coverage_check_notices_an_untested_block(tmp_path):
    """The check above can fail: a fence with attributes is invisible to pytest-codeblocks."""
    page = tmp_path / "page.md"
    page.write_text('```python title="x.py"\nprint("not run by pytest-codeblocks")\n```\n')
    assert not [b for b in extract_from_file(page) if b.syntax == "python"]
    html_text = '<div class="language-python highlight"><pre><code>print("not run by pytest-codeblocks")</code></pre></div>'
    assert code_blocks(html_text)[0] not in blocks_under_test()


def copy_project(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(".git", ".venv", "site", ".cache", "__pycache__"))
    return project


def test_a_failing_snippet_fails_the_build_and_is_named(tmp_path):
    project = copy_project(tmp_path)
    (project / "snippets" / "fig_broken_example.py").write_text(
        "def draw():\n    raise RuntimeError('deliberately broken')\n")
    page = project / "docs" / "glossary.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n![Broken](fig_broken_example.py)\n", encoding="utf-8")
    result = mkdocs_build(project / "mkdocs.yml", tmp_path / "out", strict=False)
    assert result.returncode != 0
    assert "snippets/fig_broken_example.py" in result.stderr + result.stdout
    assert "deliberately broken" in result.stderr + result.stdout

"""The built site: strict build, both languages, parity, no other hosts, every code block tested."""

import re
import subprocess
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pytest_codeblocks import extract_from_file

from conftest import DOCS, PAGES, ROOT, SNIPPETS, normalise
from sitebuild.inside_page.figures import DIRECTIVE

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp", ".avif"}


def html_path(site, page, language):
    prefix = site / "zh" if language == "zh" else site
    return prefix / ("index.html" if page == "index" else f"{page}/index.html")


def code_blocks(html_text, language="python"):
    """The text of every highlighted code block of one language in a built page."""
    blocks = re.findall(rf'<div class="language-{language} highlight"[^>]*>.*?<code[^>]*>(.*?)</code>', html_text, re.S)
    return [normalise(unescape(re.sub(r"<[^>]+>", "", b))) for b in blocks]


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


def internal_links(html_text):
    """Relative links inside the article (not the theme's navigation), in order."""
    article = re.search(r'<article class="md-content__inner md-typeset">(.*?)</article>', html_text, re.S)
    hrefs = re.findall(r'<a [^>]*href="([^"]+)"', article[1] if article else "")
    hrefs = [h for h in hrefs if not re.match(r"[a-z]+:|//", h) and "headerlink" not in h]
    # The modules in snippets/ are served once, at /snippets/, for both languages (hooks/snippet_files.py):
    # from /zh/<page>/ that is one folder further up.
    lang_zh = re.search(r'<html lang="zh"', html_text) is not None
    return [h.replace("../../snippets/", "../snippets/", 1) if lang_zh else h for h in hrefs]


def parity_problems(en, zh):
    """What differs between the English and the Chinese HTML of one page (empty when they match)."""
    checks = {"heading ids": heading_ids, "figures": figure_ids, "code blocks": code_blocks,
              "internal links": internal_links}
    return [f"{name}: {get(en)} != {get(zh)}" for name, get in checks.items() if get(en) != get(zh)]


@pytest.mark.parametrize("page", PAGES)
def test_languages_match_headings_figures_code_and_links(built_site, page):
    en = html_path(built_site, page, "en").read_text(encoding="utf-8")
    zh = html_path(built_site, page, "zh").read_text(encoding="utf-8")
    assert not parity_problems(en, zh)
    assert '<html lang="zh"' in zh and '<html lang="en"' in en


def test_parity_check_notices_each_kind_of_drift(built_site):
    en = html_path(built_site, "input-to-attention", "en").read_text(encoding="utf-8")
    assert internal_links(en) and figure_ids(en) and code_blocks(en) and heading_ids(en)
    drifted = {
        "heading ids": en.replace('id="one-row-per-word"', 'id="one-row"'),
        "figures": en.replace('id="fig-learnable-weights"', 'id="fig-other"'),
        "code blocks": en.replace("x_changed", "x_new", 1),
        "internal links": en.replace('href="../glossary/#embedding"', 'href="../glossary/#mask"'),
    }
    for kind, zh in drifted.items():
        problems = parity_problems(en, zh)
        assert len(problems) == 1 and problems[0].startswith(kind), (kind, problems)


def test_language_selector_links_to_the_same_page(built_site):
    """Each selector entry points at this page in that language, and no head link makes Material fetch a sitemap."""
    for page in PAGES:
        for language, other in (("en", "zh"), ("zh", "en")):
            html_text = html_path(built_site, page, language).read_text(encoding="utf-8")
            link = re.search(rf'<a href="([^"]*)" hreflang="{other}" class="md-select__link">', html_text)
            base = built_site if link[1].startswith("/") else html_path(built_site, page, language).parent
            target = (base / link[1].lstrip("/")).resolve()
            assert target / "index.html" == html_path(built_site, page, other).resolve()
            assert '<link rel="alternate" href=' not in html_text


def test_the_404_page_serves_readers_of_both_languages(built_site):
    """The server answers every missing address with the root 404.html: the English page (the
    default language's, not the last one built), with a line in Chinese to the Chinese home page."""
    html_text = (built_site / "404.html").read_text(encoding="utf-8")
    assert re.search(r'<html lang="en"', html_text)
    note = re.search(r'<h1>404 - Not found</h1><p lang="zh">这个页面不存在。<a href="/zh/">回到中文首页</a></p>', html_text)
    assert note, "no Chinese line under the 404 heading"
    assert html_path(built_site, "index", "zh").exists()
    assert 'role="dialog" aria-label="Search"' in html_text and 'classList.replace("no-js","js")' in html_text


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


def markdown_source(site, html_file):
    """docs/<slug>[.zh].md for site/[zh/]<slug>/index.html, or None (404 page)."""
    if html_file.name != "index.html":
        return None
    parts = list(html_file.relative_to(site).parts[:-1])
    suffix = ".md"
    if parts[:1] == ["zh"]:
        parts, suffix = parts[1:], ".zh.md"
    source = DOCS / f"{parts[0] if parts else 'index'}{suffix}"
    return source if source.is_file() else None


def blocks_under_test():
    """Code that a test executes: plain Python fences (pytest-codeblocks) and snippet files."""
    tested = {normalise(p.read_text(encoding="utf-8")) for p in SNIPPETS.glob("*.py")}
    for md in DOCS.rglob("*.md"):
        for block in extract_from_file(md):
            if block.syntax == "python" and not any("skip" in m for m in block.marks):
                tested.add(normalise(block.code))
    return tested


def test_a_figure_caption_may_hold_bracketed_words():
    match = DIRECTIVE.search("![Most weight is on [CLS], little on [SEP]](fig_name.py)\n")
    assert match["caption"] == "Most weight is on [CLS], little on [SEP]" and match["file"] == "fig_name.py"
    assert DIRECTIVE.search("![an unopened ] bracket](fig_name.py)\n") is None


def test_every_python_block_on_the_site_is_tested(built_site):
    tested = blocks_under_test()
    untested = []
    for page in built_site.rglob("*.html"):
        blocks = code_blocks(page.read_text(encoding="utf-8"))
        markdown = markdown_source(built_site, page)
        if markdown is not None:
            text = markdown.read_text(encoding="utf-8")
            expected = len(re.findall(r"^\s*```python", text, re.M)) + len(DIRECTIVE.findall(text))
            assert len(blocks) >= expected, f"{page}: found {len(blocks)} Python blocks, expected {expected}"
        for block in blocks:
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


def test_our_css_and_javascript_are_served_without_their_comments_and_nothing_else(built_site):
    """sitebuild/after_pages/asset_comments.py: the served copy is the file in docs/ without its comments."""
    from sitebuild.after_pages import asset_comments

    sources = [*DOCS.glob("stylesheets/*.css"), *DOCS.glob("javascripts/*.js")]
    assert len(sources) >= 5
    for source in sources:
        served = (built_site / source.relative_to(DOCS)).read_text(encoding="utf-8")
        text = source.read_text(encoding="utf-8")
        assert served == asset_comments.without_comments(text, source.suffix), source.name
        assert "/*" not in served and not re.search(r"^\s*//", served, re.M), source.name
        assert len(served) < len(text), f"{source.name} has no comment to leave out"


def test_stripping_comments_keeps_code_and_strings():
    from sitebuild.after_pages.asset_comments import without_comments

    js = 'var SVG = "http://www.w3.org/2000/svg";\n  // a comment\nf(x);  // after code\nif (/\\/w\\/x/.test(y)) z();\n'
    assert without_comments(js, ".js") == 'var SVG = "http://www.w3.org/2000/svg";\nf(x);\nif (/\\/w\\/x/.test(y)) z();\n'
    assert without_comments("a { color: red; } /* why */\nb {}\n", ".css") == "a { color: red; } b {}\n"


def test_the_modules_the_figures_import_are_served_and_linked(built_site):
    """hooks/snippet_files.py: /snippets/relevance_training.py is the file, and both chapters link to it."""
    assert (built_site / "snippets" / "relevance_training.py").read_bytes() == (SNIPPETS / "relevance_training.py").read_bytes()
    for page, link in [("learning-relevance", "../snippets/"), ("zh/learning-relevance", "../../snippets/")]:
        html = (built_site / page / "index.html").read_text(encoding="utf-8")
        assert f'href="{link}relevance_training.py"' in html, page


def test_no_tracked_file_holds_a_merge_conflict():
    """A conflict committed by mistake (it happened once, in a script) fails here, not in a reader's browser."""
    import subprocess
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    marker = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)
    found = [name for name in tracked if (ROOT / name).suffix in {".py", ".js", ".css", ".md", ".yml", ".in", ".txt"}
             and (ROOT / name).is_file() and marker.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))]
    assert found == []

"""A measured Zensical trial (issue 29, deliverable 5): not a migration, and not a pytest test.

Builds the site with Zensical, one project per language (Zensical builds one language per
project), through the three layers of sitebuild/, and prints what works and what is missing
next to a MkDocs build of the same tree:

1. before the pages: `python -m sitebuild.generate --out` draws the figures and makes the notebooks;
2. a temporary project per language: that language's pages (docs/*.zh.md copied to *.md), a
   config derived from mkdocs.yml (nav titles, theme language, site name; no hooks, no i18n)
   with the inside-page extensions (sitebuild.inside_page.figures for the language, .mathml),
   and the notebooks as pages whose body the after-pass fills in;
3. `zensical build` with Zensical's own Python (its venv needs latex2mathml, and sitebuild
   comes from this tree through PYTHONPATH); English to SITE/, Chinese to SITE/zh/, as MkDocs;
4. after the pages: the figures' SVG put in place (figures.fill_in), the notebooks' HTML, then
   sitebuild.after_pages.page over every page and .site over the whole.

Run with the project's venv active (the repository is the one this script is in):

    python3 -m venv /tmp/zvenv && /tmp/zvenv/bin/pip install zensical latex2mathml==3.81.1
    python tests/zensical_trial.py --zensical /tmp/zvenv/bin/zensical [--mkdocs-site DIR] [--keep DIR]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent  # the repository this script is in
sys.path.insert(0, str(ROOT))
from sitebuild import after_pages  # noqa: E402
from sitebuild.generate import notebook_page  # noqa: E402
from sitebuild.generate.figures import figure_data  # noqa: E402
from sitebuild.generate.notebook_cells import figure_captions  # noqa: E402
from sitebuild.inside_page.figures import PLACEHOLDER, fill_in, figures_in  # noqa: E402
from sitebuild.languages import DEFAULT, LANGUAGES, folder  # noqa: E402

SITE_URL = "https://why-attention.github.io/"
SEARCH_WORDS = [("en", "dot product", "dot-product-similarity/"), ("zh", "点积", "dot-product-similarity/"),
                ("zh", "前瞻掩码", "decoder-self-attention/"), ("zh", "掩码", "decoder-self-attention/")]
NOTEBOOK_MARK = '<div class="zensical-trial-notebook"></div>'


def load_mkdocs_yml():
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)[-1])
    Loader.add_constructor("!relative", lambda loader, node: str(  # `!relative $config_dir/x`: an absolute path
        ROOT / loader.construct_scalar(node).removeprefix("$config_dir").lstrip("/")))
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def project(language, base, site, gen):
    """A Zensical project for `language` alone in `base`; returns its config file and the notebooks."""
    config = load_mkdocs_yml()
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    settings = next(lang for lang in i18n["languages"] if lang["locale"] == language)
    docs = base / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("*.md"))
    suffix = ".md" if language == DEFAULT else f".{language}.md"
    for page in sorted((ROOT / "docs").glob("*.md")):
        if page.name.endswith(suffix) and (language != DEFAULT or page.suffixes == [".md"]):
            shutil.copyfile(page, docs / (page.name[: -len(suffix)] + ".md"))
    if language == DEFAULT:  # the modules served at /snippets/, as the generator wrote them
        shutil.copytree(gen / "snippets", docs / "snippets")
    notebooks = {}  # slug -> the notebook page's HTML, for the after-pass
    for ipynb in sorted((gen / "notebooks").glob("*.ipynb")):
        slug, _, lang = ipynb.stem.partition(".")
        if (lang or DEFAULT) != language:
            continue
        folder = docs / "notebooks" / slug
        folder.mkdir(parents=True)
        shutil.copyfile(ipynb, folder.parent / f"{slug}.ipynb")  # the download
        url = folder(language) + f"notebooks/{slug}/"
        captions = figure_captions(nbformat.reads(ipynb.read_text(encoding="utf-8"), as_version=4))
        html, _, title, images = notebook_page.finish(ipynb.with_suffix(".html").read_text(encoding="utf-8"),
                                                      slug, language, captions, url, SITE_URL)
        for name, data in images:
            (folder / name).write_bytes(data)
        (folder.parent / f"{slug}.md").write_text(f"---\ntitle: {json.dumps(title)}\n---\n\n{NOTEBOOK_MARK}\n",
                                                  encoding="utf-8")
        notebooks[slug] = html
    titles = settings.get("nav_translations", {})
    config["nav"] = [{titles.get(k, k): v} for item in config["nav"] for k, v in item.items()]
    for key in ("site_name", "site_description"):
        config[key] = settings.get(key, config[key])
    config["site_url"] = SITE_URL + folder(language)
    config["docs_dir"] = str(docs.relative_to(site.parent))  # Zensical: site_dir inside the project's folder
    config["site_dir"] = str((site if language == DEFAULT else site / language).relative_to(site.parent))
    config["theme"]["language"] = language
    config["extra"] = {"alternate": [{"name": lang["name"], "lang": lang["locale"],
                                      "link": "/" if lang["locale"] == DEFAULT else f"/{lang['locale']}/"}
                                     for lang in i18n["languages"]]}
    search = next(p["search"] for p in config["plugins"] if isinstance(p, dict) and "search" in p)
    config["plugins"] = [{"search": {**search, "lang": language}}]
    for key in ("hooks", "watch"):
        config.pop(key, None)
    for extension in config["markdown_extensions"]:  # mkdocs.yml's, with the figures in this language
        if isinstance(extension, dict) and "sitebuild.inside_page.figures" in extension:
            extension["sitebuild.inside_page.figures"]["language"] = language
    path = site.parent / f"{language}.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path, notebooks


def after_pass(language, out, gen, notebooks):
    """The generator's figures and notebooks' HTML into the built pages, then sitebuild.after_pages.page."""
    def svg_of(stem, lang):
        path = gen / "figures" / f"{stem}.{lang}.svg"
        return path.read_text(encoding="utf-8") if path.exists() else None

    for page in out.rglob("*.html"):
        if language == DEFAULT and page.relative_to(out).parts[0] in LANGUAGES:
            continue  # the other language's build
        html = fill_in(page.read_text(encoding="utf-8"), svg_of, figure_data)
        slug = page.parent.name
        if page.parent.parent.name == "notebooks" and slug in notebooks:
            html = html.replace(NOTEBOOK_MARK, notebooks[slug])
        elif slug in notebooks:
            html = notebook_page.chapter_links(slug, language, html)
        page.write_text(after_pages.page(html, language, page.parent), encoding="utf-8")


def count(site, language, pattern):
    """Pages of `language` in `site` (its own folder only) and matches of `pattern` in them."""
    pages = [p for p in site.rglob("index.html")
             if (language == DEFAULT) != (p.relative_to(site).parts[0] in LANGUAGES)]
    texts = [p.read_text(encoding="utf-8") for p in pages]
    return len(pages), sum(len(re.findall(pattern, t)) for t in texts)


def run(command, **kwargs):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode:
        sys.exit(f"{' '.join(map(str, command))} failed:\n{result.stderr[-3000:]}")
    return time.perf_counter() - start, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--zensical", required=True, help="the zensical executable of a throwaway venv")
    parser.add_argument("--mkdocs-site", type=Path, help="a MkDocs build to compare with (default: build one)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="zensical-trial-"))
    site, raw, gen = work / "site", work / "raw", work / "gen"
    for folder in (site, raw):
        shutil.rmtree(folder, ignore_errors=True)
    times = {"generate": run([sys.executable, "-m", "sitebuild.generate", "--out", str(gen)], cwd=ROOT)[0]}
    mk_site = args.mkdocs_site
    if mk_site is None:
        mk_site = work / "mkdocs-site"
        times["mkdocs build (both)"] = run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(mk_site)],
                                           cwd=ROOT)[0]
    version = subprocess.run([args.zensical, "--version"], capture_output=True, text=True).stdout.strip()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rows, warnings = [], {}
    for language in LANGUAGES:
        base = work / language
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        config, notebooks = project(language, base, site, gen)  # the notebooks' pages made here
        build = [args.zensical, "build", "-f", str(config)]
        times[f"zensical build {language}, cache cleaned"], log = run(build + ["--clean"], cwd=work, env=env)
        times[f"zensical build {language}, again"] = run(build, cwd=work, env=env)[0]
        warnings[language] = [line for line in log.splitlines() if "warn" in line.lower() or "error" in line.lower()]
        out = site if language == DEFAULT else site / language
        shutil.copytree(out, raw / out.relative_to(site), dirs_exist_ok=True)  # as Zensical wrote it
        placeholders = count(site, language, PLACEHOLDER.pattern)[1]
        start = time.perf_counter()
        after_pass(language, out, gen, notebooks)
        after_pages.site(str(out), [language])  # assets' comments; the index split finds no search/search_index.json
        times[f"after-pass {language}"] = time.perf_counter() - start
        rows += checks(language, site, mk_site, placeholders, len(notebooks))
    try:
        rows += search_in_browser(raw, site, mk_site)
    except Exception as error:  # no Playwright or no Chromium: say so
        rows.append(("search in a browser", "not checked", str(error)[:40]))
    print(f"Zensical {version}, work in {work}\n")
    print(f"{'check':46} {'Zensical':>12} {'MkDocs':>26}")
    for name, zensical, mkdocs in rows:
        print(f"{name:46} {zensical!s:>12} {mkdocs!s:>26}")
    print()
    for name, seconds in times.items():
        print(f"{name:46} {seconds:11.1f}s")
    for language, lines in warnings.items():
        print(f"\nzensical build {language}: {len(lines)} warning lines" + "".join(f"\n  {line}" for line in lines[:5]))
    if not args.keep:
        shutil.rmtree(work)


def search_in_browser(raw, site, mk_site):
    """Rows: links a search for each word finds, Zensical (before / after the after-pass) and MkDocs, in Chromium."""
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    from playwright.sync_api import sync_playwright

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    servers = [ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(s))) for s in (raw, site, mk_site)]
    for server in servers:
        Thread(target=server.serve_forever, daemon=True).start()
    # Zensical's search is a dialog in a shadow root (Playwright's CSS reaches into it); Material's is in the page.
    zensical = ("button.md-search__button", "dialog input[role=combobox]", "ol[role=listbox] li")
    material = ("label.md-search__icon, .md-search__input", "input.md-search__input", ".md-search-result__item")
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"])
        for language, word, chapter in SEARCH_WORDS:
            found = []
            for server, (button, field, result) in zip(servers, (zensical, zensical, material)):
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{server.server_port}/" + ("" if language == DEFAULT else "zh/"))
                page.locator(button).first.click()
                page.locator(field).fill(word)
                page.locator(field).press("End")
                try:
                    page.wait_for_selector(result, timeout=5000)
                except Exception:
                    pass  # no result
                links = page.eval_on_selector_all(f"{result} a", "els => els.map(e => e.href)")
                found.append(f"{len(links)}{'+' if any(chapter in link for link in links) else ''}")
                page.close()
            rows.append((f"{language}: search {word}: links (+: right page)", f"{found[0]} / {found[1]}", found[2]))
        browser.close()
    for server in servers:
        server.shutdown()
    return rows


def checks(language, site, mk_site, placeholders, notebooks):
    def both(pattern):
        return count(site, language, pattern)[1], count(mk_site, language, pattern)[1]

    rows = [(f"{language}: pages", count(site, language, "")[0], count(mk_site, language, "")[0])]
    directives = sum(len(figures_in(p.read_text(encoding="utf-8"))) for p in (ROOT / "docs").glob("*.md")
                     if p.suffixes == ([".md"] if language == DEFAULT else [f".{language}", ".md"]))
    rows.append((f"{language}: figure directives in the Markdown", directives, directives))
    rows.append((f"{language}: figure placeholders Zensical wrote", placeholders, ""))
    rows.append((f"{language}: figures as inline SVG", *both(r'<svg role="img" aria-label=')))
    rows.append((f"{language}: figures as <img> (broken)", *both(r"<img[^>]*src=\"[^\"]*fig_\w+\.py")))
    rows.append((f"{language}: Figure/Code tab sets", *both(r'class="tabbed-set')))
    rows.append((f"{language}: MathML formulas", *both(r"<math[ >]")))
    rows.append((f"{language}: raw TeX left (arithmatex)", *both(r'class="arithmatex"')))
    rows.append((f"{language}: modules served at snippets/", *(len(list(
        (s if language == DEFAULT else s / language).glob("snippets/*.py"))) for s in (site, mk_site))))
    rows.append((f"{language}: notebooks (.ipynb)", notebooks, len(list(
        (mk_site if language == DEFAULT else mk_site / language).glob("notebooks/*.ipynb")))))
    rows.append((f"{language}: notebook cells on notebook pages", *both(r'class="jp-Cell ')))
    other = "zh" if language == DEFAULT else DEFAULT
    selector = rf'<a href="([^"]*)" hreflang="{other}" class="md-select__link"'
    rows.append((f"{language}: pages linking to {other} (selector)", *both(selector)))
    chapter = folder(language) + "input-to-attention/index.html"
    rows.append((f"{language}: selector's {other} link on a chapter", *(
        re.search(selector, (s / chapter).read_text(encoding="utf-8"))[1] for s in (site, mk_site))))
    index = {s: (s if language == DEFAULT else s / language) / name
             for s, name in ((site, "search.json"), (mk_site, "search/search_index.json"))}
    rows.append((f"{language}: search index KiB", *(p.stat().st_size // 1024 for p in index.values())))
    rows.append((f"{language}: index words marked by jieba (U+200B)",
                 *(p.read_text(encoding="utf-8").count("\u200b") for p in index.values())))
    return rows


if __name__ == "__main__":
    main()

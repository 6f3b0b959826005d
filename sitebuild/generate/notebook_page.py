"""Clean-up of the rendered page: the converter's HTML of a notebook, made to follow the site's rules.

Part of notebooks.py; hooks/notebooks.py calls it on each notebook page. The Jupyter converter
writes a page for JupyterLab; on this site it loses what comes from other hosts
(MathJax, mermaid and require.js), gets TeX as MathML, the chapter's heading
ids and table of contents, Material's code colours instead of JupyterLab's
600 KB stylesheet, and figures as SVG files next to the page, loaded when
scrolled to, with their caption as alt text, instead of base64 in the page.
Each chapter page, and each notebook page, gets a line under its title:
"Run this chapter as a notebook" / 「以笔记本运行本章」.
"""

import base64
import html
import posixpath
import re

from ..inside_page.figures import PHONE_COLUMN_PX, readable_width
from ..inside_page.mathml import tex_to_mathml
from ..languages import page_url

FOLDER = "notebooks"  # /notebooks/<slug>/ (rendered page), /notebooks/<slug>.ipynb (download)

TEXT = {
    "en": {
        "run": "Run this chapter as a notebook: ",
        "download": "download",
        "view": "see it executed",
        "chapter": "the chapter page",
        "page_title": "{title} (notebook)",
    },
    "zh": {
        "run": "以笔记本运行本章：",
        "download": "下载",
        "view": "查看运行结果",
        "chapter": "本章网页",
        "page_title": "{title}（笔记本）",
    },
}


def chapter_links(slug, language, html_text):
    """A chapter page's HTML with a line under its title: the .ipynb, and the notebook as executed."""
    text = TEXT[language]
    name = f"{slug}.ipynb" if language == "en" else f"{slug}.{language}.ipynb"
    line = (f'\n<p class="notebook-links" data-search-exclude>{text["run"]}'
            f'<a href="../{FOLDER}/{slug}.ipynb" download="{name}">{text["download"]} <code>{slug}.ipynb</code></a>'
            f' · <a href="../{FOLDER}/{slug}/">{text["view"]}</a></p>')
    return re.sub(r"</h1>", lambda m: m[0] + line, html_text, count=1)


# --- The rendered notebook page --------------------------------------------------------------

STYLE_BLOCK = re.compile(r"<style[^>]*>.*?</style>\s*", re.S)
SCRIPT_BLOCK = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>\s*", re.S)
COMMENT = re.compile(r"<!--.*?-->\s*", re.S)
HEADING_HTML = re.compile(r"<h(?P<level>[1-6])[^>]*>(?P<body>.*?)</h(?P=level)>", re.S)
SVG_IMAGE = re.compile(r'<img [^>]*src="data:image/svg\+xml;base64,(?P<data>[^"]+)"[^>]*>')
VIEWBOX = re.compile(r'viewBox="0 0 (?P<width>[\d.]+) (?P<height>[\d.]+)"')
MATH = re.compile(r"\$\$(?P<block>.+?)\$\$|\$(?P<inline>[^$\n]+?)\$", re.S)
# Instead of JupyterLab's stylesheet: code in the site's colours (Material's `.highlight` token
# rules and code background, in the light and the dark scheme), outputs set off by a rule.
NOTEBOOK_CSS = """
.jupyter-wrapper .jp-Cell { margin: 0 0 1em; }
.jupyter-wrapper .jp-InputPrompt, .jupyter-wrapper .jp-OutputPrompt, .jupyter-wrapper .jp-Collapser,
.jupyter-wrapper .celltoolbar, .jupyter-wrapper .clipboard-copy-txt { display: none; }
.jupyter-wrapper pre { font-size: .85em; }
.jupyter-wrapper .CodeMirror { position: relative; }
.jupyter-wrapper .highlight-ipynb pre { margin: 0; padding: .77em 1.18em; overflow-x: auto; white-space: pre;
  background: var(--md-code-bg-color); border-radius: .1rem; }
.jupyter-wrapper .zeroclipboard-container { position: absolute; top: .3em; right: .3em; z-index: 1; }
.jupyter-wrapper clipboard-copy { display: inline-block; padding: .2em; cursor: pointer;
  color: var(--md-default-fg-color--light); }
.jupyter-wrapper clipboard-copy:hover { color: var(--md-accent-fg-color); }
.jupyter-wrapper .clipboard-copy-icon { width: 1em; height: 1em; vertical-align: middle; }
.jupyter-wrapper .notice { margin-right: .3em; font-size: .7rem; }
.jupyter-wrapper .jp-OutputArea-output pre { margin: .3em 0 0; padding: .4em 1.18em; overflow-x: auto;
  white-space: pre; border-left: .2rem solid var(--md-default-fg-color--lightest); }
.jupyter-wrapper .jp-RenderedImage img, .jupyter-wrapper .jp-RenderedSVG img { display: block; max-width: 100%;
  height: auto; margin: .4em auto; border-radius: .1rem; }
.jupyter-wrapper .notebook-figure { overflow-x: auto; }
"""


def finish(html_text, slug, language, captions, url, site_url):
    """The converter's HTML of the notebook of `slug` in `language`, made to follow the site's rules.

    `url` is the page's address below the site (notebooks/<slug>/, zh/notebooks/<slug>/),
    `site_url` the site's. Returns the page's HTML, its table of contents (nested tokens:
    level, id, name, children), its title, and its figures as files to write next to it
    ([(name, SVG bytes)]).
    """
    # No stylesheet (JupyterLab's is 600 KB, on every page) and no script from elsewhere (MathJax,
    # mermaid); the converter's copy button, inline, stays.
    html_text = STYLE_BLOCK.sub("", html_text)
    html_text = SCRIPT_BLOCK.sub(_keep_local_script, html_text)
    html_text = COMMENT.sub("", html_text)
    html_text = html_text.replace('<div class="highlight-ipynb hl-python">',
                                  '<div class="highlight-ipynb hl-python highlight">')
    # TeX in the Markdown cells: MathML, as on the chapter pages (sitebuild/inside_page/mathml.py).
    html_text = _markdown_cells(html_text, _tex_to_mathml)
    # Headings: the chapter's ids (kept in the notebook as <a id>), and the table of contents.
    toc = []

    def heading(match):
        level, body = int(match["level"]), match["body"]
        anchor = re.search(r'<a id="([\w-]+)"></a>', body)
        if not anchor:
            return match[0]
        body = re.sub(r'<a class="anchor-link"[^>]*>.*?</a>', "", body.replace(anchor[0], "")).strip()
        toc.append({"level": level, "id": anchor[1], "name": re.sub(r"<[^>]+>", "", body), "children": []})
        return (f'<h{level} id="{anchor[1]}">{body}'
                f'<a class="headerlink" href="#{anchor[1]}" title="Permanent link">&para;</a></h{level}>')

    html_text = HEADING_HTML.sub(heading, html_text)
    contents = _nest(toc[1:])
    title = TEXT[language]["page_title"].format(title=toc[0]["name"] if toc else slug)
    # Links to the site: relative, so that they work wherever the site is served.
    html_text = re.sub(r'href="' + re.escape(site_url) + r'([^"]*)"',
                       lambda m: f'href="{relative_url(m[1] or ".", url)}"', html_text)
    # Figures: SVG files next to the page, loaded when scrolled to, described by their caption.
    captions = iter(captions)

    def image(match):
        data = base64.b64decode(match["data"])
        name = f"figure-{next(counter)}.svg"
        images.append((name, data))
        box = VIEWBOX.search(data.decode("utf-8"))
        width, height = (round(float(box[side]) * 4 / 3) for side in ("width", "height"))  # pt to CSS px
        alt = html.escape(next(captions, ""), quote=True)
        readable = readable_width(data.decode("utf-8"))  # as on the chapter pages: text >= 9 px, else scroll
        style = f' style="min-width: {readable}px"' if readable else ""
        scrolls = ' tabindex="0"' if readable and readable > PHONE_COLUMN_PX else ""
        return (f'<div class="notebook-figure"{scrolls}><img src="{name}" alt="{alt}" width="{width}" height="{height}"'
                f'{style} loading="lazy"></div>')

    counter, images = iter(range(1, 1000)), []
    html_text = SVG_IMAGE.sub(image, html_text)
    # Under the title: the .ipynb, and back to the chapter.
    text = TEXT[language]
    name = f"{slug}.ipynb" if language == "en" else f"{slug}.{language}.ipynb"
    chapter = relative_url(page_url("", slug, language) or ".", url)
    links = (f'\n<p class="notebook-links">{text["run"]}'
             f'<a href="../{slug}.ipynb" download="{name}">{text["download"]} <code>{slug}.ipynb</code></a>'
             f' · <a href="{chapter}">{text["chapter"]}</a></p>')
    html_text = re.sub(r"</h1>", lambda m: m[0] + links, html_text, count=1)
    return f"<style>{NOTEBOOK_CSS.strip()}</style>\n{html_text}", contents, title, images


def relative_url(url, other):
    """`url` relative to `other`, both paths below the site; as MkDocs' get_relative_url (BSD-2-Clause).

    The last part of `other` is skipped if it holds a dot (a file).
    """
    dirname, _, basename = other.rpartition("/")
    if "." in basename:
        other = dirname
    other_parts, dest_parts = _norm_parts(other), _norm_parts(url)
    common = 0
    for a, b in zip(other_parts, dest_parts):
        if a != b:
            break
        common += 1
    relurl = "/".join([".."] * (len(other_parts) - common) + dest_parts[common:]) or "."
    return relurl + "/" if url.endswith("/") else relurl


def _norm_parts(path):
    path = posixpath.normpath(path if path.startswith("/") else "/" + path)[1:]
    return path.split("/") if path else []


def _keep_local_script(match):
    """The converter's copy button stays; MathJax, mermaid and require.js (from CDNs) go."""
    if "src=" in match["attrs"] or "mathjax" in match["attrs"] or "://" in match["body"]:
        return ""
    return match[0]


def _nest(flat):
    """TOC tokens, nested by heading level."""
    root = {"level": 0, "children": []}
    stack = [root]
    for token in flat:
        while stack[-1]["level"] >= token["level"]:
            stack.pop()
        stack[-1]["children"].append(token)
        stack.append(token)
    return root["children"]


def _markdown_cells(html_text, transform):
    """Apply `transform` to the HTML of each rendered Markdown cell, outside <code> and <pre>."""
    def cell(match):
        parts = re.split(r"(<(?:code|pre)\b.*?</(?:code|pre)>)", match[2], flags=re.S)
        return match[1] + "".join(p if i % 2 else transform(p) for i, p in enumerate(parts)) + match[3]
    return re.sub(r'(<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown[^"]*"[^>]*>)(.*?)(</div>)',
                  cell, html_text, flags=re.S)


def _tex_to_mathml(fragment):
    def math(match):
        if match["block"] is not None:
            return tex_to_mathml(match["block"], "block")
        return tex_to_mathml(match["inline"])
    return MATH.sub(math, fragment)

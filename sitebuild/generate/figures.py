"""Drawing a figure from its snippet: in a worker process, from the cache, or now.

The pages get their figures here (sitebuild/inside_page/figures.py puts them in place)
and so do the notebooks, so each figure is drawn once per build and language.

A figure snippet's ``draw(lang)`` returns a matplotlib figure, saved as SVG in
the site's style: text stays text in the page's font, and what is drawn in
``INK`` takes the page's text colour (``currentColor``), so a figure reads in
the light and the dark scheme. The SVG is kept in ``.cache/figures/`` under
the language and a hash of the snippet, of the local modules it imports and
of this file (`FIGURE_CACHE=off` skips that folder, for clean builds;
`FIGURES=off` draws nothing and gives a placeholder, to measure what figures
cost). What the cache lacks is drawn in the build's worker processes
(pool.py). A snippet that raises is an error naming the snippet
and the language, and so is a character that no installed font has
(matplotlib's "Glyph ... missing from font" warning, or mathtext's "does not
have a glyph" log line): text laid out without its glyphs would overlap.

What the figure's heatmaps show (their numbers, how the cells were computed
and where each grid is, from ``plotting.figure_data``) goes with the SVG, as
JSON in its ``data-figure`` attribute: the page's tables of numbers and
docs/javascripts/cell-explanations.js read it.
"""

import ast
import functools
import hashlib
import html
import importlib.util
import io
import json
import logging
import os
import re
import sys
import warnings
from pathlib import Path

from .. import ROOT
from ..inside_page.figures import figures_in
from ..languages import DEFAULT
from . import cache as build_cache
from . import pool as build_pool
from .errors import GenerationError

SNIPPETS = ROOT / "snippets"
CACHE = build_cache.FOLDER / "figures"

# Text and lines drawn in this colour become `currentColor` in the SVG, so they
# take the page's text colour in both the light and the dark scheme.
INK = "#010203"
SITE_STYLE = {
    "svg.fonttype": "none",  # real <text>: small files, page font, selectable
    "svg.hashsalt": "why-attention",  # stable clip-path ids
    "text.color": INK,
    "axes.labelcolor": INK,
    "axes.edgecolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.transparent": True,
}

# Coordinates to 1/10 pt (0.13 CSS px at a figure's natural size, finer than a line): a third
# smaller files than matplotlib's six decimals, and about 8 % less gzipped than 1/100 pt.
GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|width|height|transform|points|viewBox)=")([^"]*)"')
DIGITS = re.compile(r"(\d\.\d)\d+")
# The figure's data, written by `_render` as the first attribute of the SVG.
FIGURE_DATA = re.compile(r"^<svg data-figure='([^']*)' ")
GROUP_TAG = re.compile(r"<g(?P<attributes>\s[^>]*?)?/?>|</g>")

# Snippets that import one of these modules (directly or not) are drawn in one worker process
# of their own, the lane named after the module, and so are the notebooks whose code imports
# one (pool.py): the module loads a trained model that takes seconds to read (smollm) or trains
# one (tiny_translator), and remembers what it computes, so each forward pass and each training
# runs once in a build.
LANES = ("smollm", "tiny_translator")

_drawn = {}  # cache key -> SVG text, for this process
_drawing = {}  # cache key -> Future of the SVG, drawn by a worker process in this build
_imported = {}  # local module name -> hash of the source it was imported from


def figure_snippets():
    """Every figure snippet in snippets/, sorted by name."""
    return sorted(SNIPPETS.glob("fig_*.py"))


def figures_in_pages(language):
    """The figure snippets that the pages of `language` show, in order of file name and place."""
    pages = [p for p in sorted((ROOT / "docs").glob("*.md"))
             if p.suffixes == ([".md"] if language == DEFAULT else [f".{language}", ".md"])]
    stems = []
    for page in pages:
        for file in figures_in(page.read_text(encoding="utf-8")):
            if file[:-3] not in stems and (SNIPPETS / file).is_file():
                stems.append(file[:-3])
    return stems


def local_imports(path):
    """The modules of snippets/ that `path` imports, directly or not (sorted paths)."""
    found, todo = set(), [Path(path)]
    while todo:
        for name in _imports_of_file(*_stamped(todo.pop())):
            dep = SNIPPETS / f"{name}.py"
            if dep.is_file() and dep not in found:
                found.add(dep)
                todo.append(dep)
    return sorted(found)


def _stamped(path):
    """A file and what tells whether it changed (its modification time and size), for the caches below."""
    stat = path.stat()
    return path, (stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=None)
def _imports_of_file(path, stamp):
    """`imported_names` of a file, read and parsed once per version of it (a build asks hundreds of times)."""
    return imported_names(path.read_text(encoding="utf-8"))


def lane(sources):
    """The lane (pool.py) of work that runs Python `sources`: the first of LANES they import, or None."""
    modules = {name for source in sources for name in imported_names(source)}
    for path in list(modules):
        if (SNIPPETS / f"{path}.py").is_file():
            modules.update(dep.stem for dep in local_imports(SNIPPETS / f"{path}.py"))
    return next((name for name in LANES if name in modules), None)


@functools.lru_cache(maxsize=None)
def imported_names(source):
    """The top-level names of the modules that Python code imports (`import a.b` -> a)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return frozenset(names)


def cache_key(path, lang):
    """A figure's key: this file, the language, the snippet and every local module it imports."""
    files = [Path(path), *local_imports(path)]
    return _key_of(lang, tuple(_stamped(source) for source in files))


@functools.lru_cache(maxsize=None)
def _key_of(lang, stamped_files):
    digest = hashlib.sha256(Path(__file__).read_bytes() + lang.encode())
    for source, _ in stamped_files:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def draw_svg(stem, lang="en"):
    """The SVG of snippets/<stem>.py in `lang`: drawn by a worker, taken from the cache, or drawn now.

    None while a worker is still drawing it under the live server (pool.unfinished): the page
    shows a note, and the server rebuilds when the figure is drawn.
    """
    if os.environ.get("FIGURES", "on") == "off":
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 40"><text x="8" y="24">{stem}</text></svg>'
    path = SNIPPETS / f"{stem}.py"
    key = cache_key(path, lang)
    if key in _drawn:
        return _drawn[key]
    if key in _drawing and build_pool.unfinished(_drawing[key]):
        return None
    svg = _drawing[key].result() if key in _drawing else _cached(stem, lang, key)
    if svg is None:
        svg = _render(path, lang)
        _save(stem, lang, key, svg)
    _drawn[key] = svg
    return svg


def drawing(stem, lang):
    """A Future of the SVG of snippets/<stem>.py in `lang`; a worker draws it if no cache has it."""
    if os.environ.get("FIGURES", "on") == "off":
        return build_pool.done(draw_svg(stem, lang))
    key = cache_key(SNIPPETS / f"{stem}.py", lang)
    if key in _drawn:
        return build_pool.done(_drawn[key])
    if key not in _drawing:
        svg = _cached(stem, lang, key)
        if svg is not None:
            _drawn[key] = svg
            return build_pool.done(svg)
        path = SNIPPETS / f"{stem}.py"
        _drawing[key] = build_pool.on_success(
            build_pool.submit(_render, path, lang, lane=lane([path.read_text(encoding="utf-8")])),
            lambda svg: _save(stem, lang, key, svg))
    return _drawing[key]


def _cached(stem, lang, key):
    return build_cache.read(CACHE / f"{stem}-{lang}-{key}.svg")


def _save(stem, lang, key, svg):
    build_cache.write(CACHE / f"{stem}-{lang}-{key}.svg", svg)


def _render(path, lang="en"):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # Re-import a local module only when its file changed since it was imported, so
    # edits are seen and an unchanged module's state (a cached training run) is shared.
    for dep in local_imports(path):
        digest = hashlib.sha256(dep.read_bytes()).hexdigest()
        if _imported.get(dep.stem) != digest:
            sys.modules.pop(dep.stem, None)
            _imported[dep.stem] = digest
    spec = importlib.util.spec_from_file_location(f"_snippet_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    buffer = io.StringIO()
    missing = _MissingGlyphs()
    logger = logging.getLogger("matplotlib")
    logger.addHandler(missing)
    try:
        with matplotlib.rc_context(SITE_STYLE), warnings.catch_warnings():
            warnings.filterwarnings("error", message="Glyph .* missing from font")
            spec.loader.exec_module(module)
            fig = module.draw(lang)
            fig.savefig(buffer, format="svg", metadata={"Date": None})
            data = sys.modules["plotting"].figure_data(fig) if "plotting" in sys.modules else None
            plt.close(fig)
        if missing.messages:
            raise RuntimeError(missing.messages[0])
    except Exception as error:
        raise GenerationError(
            f"figure snippet snippets/{path.name} (lang={lang!r}) failed: {type(error).__name__}: {error}"
        ) from error
    finally:
        logger.removeHandler(missing)
    svg = _clean_svg(buffer.getvalue(), prefix=path.stem.replace("_", "-"))
    if data is not None:
        # In single quotes, so that JSON's double quotes need no escaping.
        attribute = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        attribute = attribute.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;")
        svg = svg.replace("<svg ", f"<svg data-figure='{attribute}' ", 1)
    return svg


def keep_imported():
    """Count the local modules that code run in this process imported (a notebook's run) as current.

    A notebook's module cells save the same text as snippets/ holds, so the modules its code
    imported are the ones a figure would import: the next figure drawn here keeps them, and what
    they remember (a trained model), instead of importing them again.
    """
    for path in SNIPPETS.glob("*.py"):
        if path.stem in sys.modules and path.stem not in _imported:
            _imported[path.stem] = hashlib.sha256(path.read_bytes()).hexdigest()


def figure_data(svg):
    """What `_render` wrote into an SVG's ``data-figure`` attribute, or None."""
    match = FIGURE_DATA.match(svg)
    return json.loads(html.unescape(match[1])) if match else None


def without_figure_data(svg):
    """The SVG without its ``data-figure`` attribute: the picture alone (for the notebooks)."""
    return FIGURE_DATA.sub("<svg ", svg, count=1)


class _MissingGlyphs(logging.Handler):
    """Collects matplotlib's log lines about characters no font has."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        message = record.getMessage()
        if "does not have a glyph" in message or "missing from font" in message:
            self.messages.append(message)


def _clean_svg(svg, prefix):
    """Inline-ready SVG: no prologue, no unused ids, INK -> currentColor, page font, short numbers."""
    svg = svg[svg.index("<svg "):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    # Ids: keep only the referenced ones, numbered in order of appearance (matplotlib
    # derives some from object addresses), and prefixed to be unique on the page.
    names = {}
    for name in re.findall(r'\sid="([^"]+)"', svg):
        if f"url(#{name})" in svg or f'xlink:href="#{name}"' in svg:
            names[name] = f"{prefix}-{len(names) + 1}"
    svg = re.sub(r'\sid="([^"]+)"', lambda m: f' id="{names[m[1]]}"' if m[1] in names else "", svg)
    svg = re.sub(r'url\(#([^)]+)\)|xlink:href="#([^"]+)"',
                 lambda m: f"url(#{names[m[1]]})" if m[1] else f'xlink:href="#{names[m[2]]}"', svg)
    svg = svg.replace(INK, "currentColor")
    svg = re.sub(r"font-family: [^;\"]*;? ?", "", svg)  # the page's font, set in extra.css
    svg = re.sub(r' transform="rotate\(-?0 [^)]*\)"', "", svg)
    svg = GEOMETRY.sub(lambda m: m[1] + DIGITS.sub(r"\1", m[2]) + '"', svg)
    svg = _without_bare_groups(svg)
    return "\n".join(line.strip() for line in svg.splitlines() if line.strip())


def _without_bare_groups(svg):
    """The SVG without its <g> elements that have no attribute, their children kept in place.

    matplotlib wraps every artist in a <g> (two around each tick label), and most of them
    lose their only attribute, the id, in `_clean_svg`. A bare group changes nothing that is
    drawn, but it is an element the browser styles and lays out: a chapter's figures held
    about a thousand of them.
    """
    out, kept, last = [], [], 0
    for tag in GROUP_TAG.finditer(svg):
        out.append(svg[last:tag.start()])
        last = tag.end()
        if tag[0] == "</g>":
            if kept.pop():
                out.append(tag[0])
        elif tag[0].endswith("/>"):
            out.append(tag[0] if (tag["attributes"] or "").strip() else "")
        else:
            kept.append(bool((tag["attributes"] or "").strip()))
            if kept[-1]:
                out.append(tag[0])
    out.append(svg[last:])
    return "".join(out)


def forget():
    """The end of a build: what the workers drew is in the cache; their futures go.

    Those still being drawn (the build did not wait, under the live server) stay, for the next build.
    """
    for key, future in list(_drawing.items()):
        if future.done():
            del _drawing[key]

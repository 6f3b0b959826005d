"""MkDocs hook: every figure is drawn from its snippet at build time.

A page asks for a figure with an image whose target is a figure snippet:

    ![Caption, in the page's language](fig_words_to_qkv.py)

and gets two tabs in its place: "Figure", with the SVG that the snippet's
``draw()`` returns, inlined so that its text follows the light or dark scheme;
and "Code", the snippet itself, included from ``snippets/`` by
pymdownx.snippets (so both languages show the same file, never a copy).

A snippet draws its labels in the page's language, ``draw(lang="en")`` or
``draw(lang="zh")``. Each snippet is drawn once per build and language, and
the SVG is kept in ``.cache/figures/`` under the language and a hash of the
snippet, of the local modules it imports and of this file, so an unchanged
snippet is not drawn again
(`FIGURE_CACHE=off` in the environment skips that folder, for clean builds;
`FIGURES=off` draws nothing and puts a placeholder in each figure's place,
to measure what figures cost).
A snippet that raises stops the build with an error naming the snippet, and
so does a character that no installed font has (matplotlib's "Glyph ...
missing from font" warning, or mathtext's "does not have a glyph" log line):
text laid out without its glyphs would overlap.
"""

import ast
import hashlib
import html
import importlib.util
import io
import logging
import os
import re
import sys
import warnings
from pathlib import Path

from mkdocs.exceptions import PluginError

import languages  # hooks/languages.py: MkDocs runs each hook with its folder on sys.path

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
CACHE = ROOT / ".cache" / "figures"

# `![caption](fig_name.py)` alone on a line.
DIRECTIVE = re.compile(r"^!\[(?P<caption>[^\]]*)\]\((?P<file>fig_\w+\.py)\)[ \t]*$", re.M)
FENCE = re.compile(r"^(```|~~~)")
PLACEHOLDER = re.compile(
    r'<span class="snippet-figure-svg" data-snippet="(?P<stem>fig_\w+)" data-lang="(?P<lang>\w+)"'
    r' data-label="(?P<label>[^"]*)"></span>'
)

FIGURE_CODE = re.compile(r'(<div class="language-python highlight")(><span class="filename">snippets/fig_)')

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

# Coordinates to 1/100 pt, finer than any screen: a third smaller files.
GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|width|height|transform|points|viewBox)=")([^"]*)"')
DIGITS = re.compile(r"(\d\.\d{2})\d+")

TAB_LABELS = {"en": ("Figure", "Code"), "zh": ("图", "代码")}

_drawn = {}  # cache key -> SVG text, for this process
_imported = {}  # local module name -> hash of the source it was imported from


def on_config(config):
    # Snippets import their neighbours (attention, plotting, ...).
    if str(SNIPPETS) not in sys.path:
        sys.path.insert(0, str(SNIPPETS))
    # `--8<-- "x.py"` finds snippets/x.py whatever the working directory.
    config.mdx_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(SNIPPETS)]
    return config


def on_page_markdown(markdown, page, config, files):
    language = languages.building(config)
    figure_tab, code_tab = TAB_LABELS[language]

    def replace(match):
        stem = match["file"][:-3]
        if not (SNIPPETS / match["file"]).is_file():
            raise PluginError(f"{page.file.src_uri}: figure snippet snippets/{match['file']} does not exist")
        caption = html.escape(match["caption"].strip())
        return (
            f'=== "{figure_tab}"\n\n'
            f'    <figure class="snippet-figure" id="{stem.replace("_", "-")}">\n'
            f'    <span class="snippet-figure-svg" data-snippet="{stem}" data-lang="{language}"'
            f' data-label="{caption}"></span>\n'
            f"    <figcaption>{caption}</figcaption>\n"
            f"    </figure>\n\n"
            f'=== "{code_tab}"\n\n'
            f'    ```python title="snippets/{match["file"]}"\n'
            f'    --8<-- "{match["file"]}"\n'
            f"    ```\n"
        )

    return _outside_fences(markdown, lambda text: DIRECTIVE.sub(replace, text))


def on_page_content(html_text, page, config, files):
    # A figure's code is on the page, but not in the search index: it would
    # double the index that every page loads, and the prose finds the chapter.
    return FIGURE_CODE.sub(r'\1 data-search-exclude\2', html_text)


def on_post_page(output, page, config):
    # After the search plugin has indexed the page: figure text stays out of the index.
    def inline(match):
        svg = draw_svg(match["stem"], match["lang"])
        return svg.replace("<svg ", f'<svg role="img" aria-label="{match["label"]}" ', 1)

    return PLACEHOLDER.sub(inline, output)


def figure_snippets():
    """Every figure snippet in snippets/, sorted by name."""
    return sorted(SNIPPETS.glob("fig_*.py"))


def local_imports(path):
    """The modules of snippets/ that `path` imports, directly or not (sorted paths)."""
    found, todo = set(), [Path(path)]
    while todo:
        tree = ast.parse(todo.pop().read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                dep = SNIPPETS / f"{name.split('.')[0]}.py"
                if dep.is_file() and dep not in found:
                    found.add(dep)
                    todo.append(dep)
    return sorted(found)


def cache_key(path, lang):
    digest = hashlib.sha256(Path(__file__).read_bytes() + lang.encode())
    for source in [Path(path), *local_imports(path)]:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def draw_svg(stem, lang="en"):
    """The SVG of snippets/<stem>.py in `lang`, drawn now or taken from the cache."""
    if os.environ.get("FIGURES", "on") == "off":
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 40"><text x="8" y="24">{stem}</text></svg>'
    path = SNIPPETS / f"{stem}.py"
    key = cache_key(path, lang)
    if key in _drawn:
        return _drawn[key]
    cached = CACHE / f"{stem}-{lang}-{key}.svg"
    use_cache = os.environ.get("FIGURE_CACHE", "on") != "off"
    if use_cache and cached.is_file():
        svg = cached.read_text(encoding="utf-8")
    else:
        svg = _render(path, lang)
    if use_cache and not cached.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(svg, encoding="utf-8")
        tmp.replace(cached)
    _drawn[key] = svg
    return svg


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
            plt.close(fig)
        if missing.messages:
            raise RuntimeError(missing.messages[0])
    except Exception as error:
        raise PluginError(
            f"figure snippet snippets/{path.name} (lang={lang!r}) failed: {type(error).__name__}: {error}"
        ) from error
    finally:
        logger.removeHandler(missing)
    return _clean_svg(buffer.getvalue(), prefix=path.stem.replace("_", "-"))


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
    for _ in range(3):  # groups left empty once their ids are gone
        svg = re.sub(r"<g>\s*</g>|<g\s*/>", "", svg)
    return "\n".join(line.strip() for line in svg.splitlines() if line.strip())


def _outside_fences(markdown, transform):
    """Apply `transform` to the parts of `markdown` that are not fenced code."""
    parts, chunk, fence = [], [], None
    for line in markdown.splitlines(keepends=True):
        marker = FENCE.match(line.lstrip())
        if fence is None and marker:
            parts.append(transform("".join(chunk)))
            chunk, fence = [line], marker[1]
        elif fence is not None and line.lstrip().startswith(fence):
            chunk.append(line)
            parts.append("".join(chunk))
            chunk, fence = [], None
        else:
            chunk.append(line)
    parts.append(transform("".join(chunk)) if fence is None else "".join(chunk))
    return "".join(parts)

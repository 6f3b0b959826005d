"""The build's cache folder, .cache/: an entry read or written, unless `FIGURE_CACHE=off`.

figures.py keeps the SVGs there and notebook_cache.py the notebooks' outputs and HTML, each under a hash of
what made it. An entry is written to a temporary name and then renamed, so two builds side
by side never read half a file. `FIGURE_CACHE=off` (clean builds) neither reads nor writes.
"""

import os

from .. import ROOT

FOLDER = ROOT / ".cache"
MODELS = FOLDER / "models"  # the trained models' runs and weights (snippets/trained_models.py)


def enabled():
    return os.environ.get("FIGURE_CACHE", "on") != "off"


def read(path):
    """The text of the entry at `path`, or None when there is none (or the cache is off)."""
    return path.read_text(encoding="utf-8") if enabled() and path.is_file() else None


def write(path, text):
    if not enabled():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.{id(text)}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)

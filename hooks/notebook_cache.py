"""Caching: a notebook's outputs and its rendered HTML, kept between builds in .cache/notebooks/.

Part of hooks/notebooks.py (not a hook itself). Each notebook has two entries:

- its outputs, under a hash of its code cells, of the SVGs its figure cells
  show, and of what runs them (hooks/notebook_outputs.py and the versions of
  Python, NumPy, matplotlib and IPython): a prose edit or a translation runs
  nothing;
- its HTML, made by mkdocs-jupyter's converter from the notebook with its
  outputs, under a hash of that notebook file and of what renders it (the
  converter's options, the versions of mkdocs-jupyter, nbconvert, Pygments and
  mistune).

`make` is the work a worker process (hooks/build_pool.py) does for an entry
the cache lacks. `FIGURE_CACHE=off` skips the folder (clean builds).
"""

import functools
import hashlib
import inspect
import json
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

# Neighbours in hooks/: MkDocs runs each hook with its folder on sys.path.
import build_cache
import notebook_outputs

CACHE = Path(__file__).resolve().parent.parent / ".cache" / "notebooks"


def outputs_key(notebook, figures):
    """What a notebook's outputs depend on: its code, its figures, and what runs them."""
    digest = hashlib.sha256(_runtime("numpy", "matplotlib", "ipython", source=notebook_outputs))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            digest.update(b"\0cell\0" + cell["source"].encode())
            if "figure" in cell["metadata"].get("tags", []):
                digest.update(b"\0figure\0" + figures[cell["metadata"]["snippet"]].encode())
    return digest.hexdigest()[:16]


def html_key(ipynb, options):
    """What a notebook page's HTML depends on: the notebook file, and what renders it."""
    digest = hashlib.sha256(_runtime("mkdocs-jupyter", "nbconvert", "pygments", "mistune", source=None))
    digest.update(json.dumps(options, sort_keys=True).encode() + b"\0" + ipynb.encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _runtime(*packages, source):
    text = sys.version + "".join(f"\0{name}=={version(name)}" for name in packages)
    return (text + (inspect.getsource(source) if source else "") + inspect.getsource(make)).encode()


def load(kind, label, key):
    """A cached entry ("outputs" or "html") of the notebook `label`, or None."""
    text = build_cache.read(CACHE / f"{label}-{kind}-{key}.json")
    return None if text is None else json.loads(text)


def save(kind, label, key, value):
    build_cache.write(CACHE / f"{label}-{kind}-{key}.json", json.dumps(value, sort_keys=True))


def ipynb_text(notebook, outputs):
    """The .ipynb file of a notebook (an nbformat dict) with `outputs` ([]: as it is)."""
    import nbformat

    if outputs:
        notebook = notebook_outputs.with_outputs(notebook, outputs)
    return nbformat.writes(nbformat.from_dict(notebook)) + "\n"


def make(notebook, figures, label, language, outputs, options):
    """What a cache miss costs, in a worker: the outputs (unless given), the .ipynb text, its HTML.

    `notebook` is an nbformat dict without outputs; `outputs` None runs it, [] leaves it
    unexecuted (FIGURES=off); `options` are mkdocs-jupyter's converter options.
    """
    from mkdocs_jupyter.convert import nb2html

    if outputs is None:
        outputs = notebook_outputs.run(notebook, figures, label, language)
    ipynb = ipynb_text(notebook, outputs)
    with tempfile.TemporaryDirectory(prefix="notebook-") as folder:
        path = Path(folder) / f"{label}.ipynb"
        path.write_text(ipynb, encoding="utf-8")
        html = nb2html(str(path), execute=False, **options)
    return outputs, ipynb, html

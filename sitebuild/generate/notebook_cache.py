"""Caching: a notebook's outputs and its rendered HTML, kept between builds in .cache/notebooks/.

Part of notebooks.py. Each notebook has two entries:

- the outputs of its code, under a hash of its code cells (but for the
  figure cells, which are not run) and of what runs them
  (notebook_outputs.py and the versions of Python, NumPy, matplotlib
  and IPython), kept under the chapter's name: a prose edit or a translation
  runs nothing, and a chapter whose code is the same in both languages is run
  once (its figure cells, which show the language's drawing, are filled in
  afterwards);
- its HTML, made by the Jupyter converter (from the package mkdocs-jupyter, used as a
  library) from the notebook with its outputs, under a hash of that notebook file and of
  what renders it (the converter's options, the versions of that package, nbconvert,
  Pygments and mistune).

`notebook_outputs.run_code` and `render_html` are the work a worker process
(pool.py) does for an entry the cache lacks. `FIGURE_CACHE=off`
skips the folder (clean builds).
"""

import functools
import hashlib
import inspect
import json
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

from . import cache as build_cache
from . import notebook_outputs

CACHE = build_cache.FOLDER / "notebooks"


def outputs_key(notebook):
    """What the outputs of a notebook's code (`notebook_outputs.run_code`) depend on: its code and what runs it."""
    digest = hashlib.sha256(_runtime("numpy", "matplotlib", "ipython", source=notebook_outputs))
    for cell in notebook["cells"]:
        if "figure" in cell["metadata"].get("tags", []):
            digest.update(b"\0figure\0")  # not run: `draw();` in English, `draw("zh");` in Chinese
        elif cell["cell_type"] == "code":
            digest.update(b"\0cell\0" + cell["source"].encode())
    return digest.hexdigest()[:16]


def html_key(ipynb, options):
    """What a notebook page's HTML depends on: the notebook file, and what renders it."""
    digest = hashlib.sha256(_runtime("mkdocs-jupyter", "nbconvert", "pygments", "mistune", source=None))
    digest.update(json.dumps(options, sort_keys=True).encode() + b"\0" + ipynb.encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _runtime(*packages, source):
    text = sys.version + "".join(f"\0{name}=={version(name)}" for name in packages)
    return (text + (inspect.getsource(source) if source else "") + inspect.getsource(render_html)).encode()


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


def render_html(ipynb, label, options):
    """A notebook page's HTML, by the Jupyter converter, from the .ipynb text (in a worker).

    `options` are the converter's options. The converter is mkdocs-jupyter's `nb2html`
    (nbconvert with that package's template), used as a library: it imports no part of
    MkDocs (tests/test_layers.py), and this is the one module of the layers that names it.
    """
    from mkdocs_jupyter.convert import nb2html

    with tempfile.TemporaryDirectory(prefix="notebook-") as folder:
        path = Path(folder) / f"{label}.ipynb"
        path.write_text(ipynb, encoding="utf-8")
        return nb2html(str(path), execute=False, **options)

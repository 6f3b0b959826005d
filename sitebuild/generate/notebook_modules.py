"""Module inlining: the modules of snippets/ that a notebook imports, saved by its first cells.

Part of notebooks.py. A chapter's code imports
attention.py, running_example.py, plotting.py, ...; its notebook starts with one
cell per module that writes the module's file next to the notebook, in plain
Python (no magics), so that the downloaded .ipynb runs with nothing but NumPy
and matplotlib.

On the notebook's page those cells are one line of links instead: each module is
served with the site at /snippets/<name>.py (served_snippets.py), so the page does
not print again files a reader can open with one click (about 35 KiB gzipped on the
decoder's notebook); the downloaded .ipynb keeps the cells whole.
"""

import json

from .figures import SNIPPETS, imported_names, local_imports
from .served_snippets import FOLDER as SERVED

LINKS = {  # what the introduction above says they do, it does not say again: the modules, as links
    "en": "The modules: {links}.",
    "zh": "模块：{links}。",
}
SEPARATOR = {"en": ", ", "zh": "、"}


def needed_modules(sources):
    """The files of snippets/ that some code imports, directly or not (sorted paths)."""
    found = set()
    for source in sources:
        for name in imported_names(source):
            path = SNIPPETS / f"{name}.py"
            if path.is_file():
                found.add(path)
                found.update(local_imports(path))
    return sorted(found)


def module_cell(path):
    """Code that saves snippets/<name>.py next to the notebook: plain Python, no magics."""
    source = path.read_text(encoding="utf-8")
    literal = repr(source) if "'''" in source or source.endswith("\\") else f"r'''{source}'''"
    return (f"# snippets/{path.name}, saved next to this notebook so that `import {path.stem}` works\n"
            f"from pathlib import Path\n\n"
            f"Path({path.name!r}).write_text({literal}, encoding=\"utf-8\");")


def linked(ipynb, language, depth):
    """The .ipynb text as its page shows it: the module cells become one markdown cell of links.

    `depth` is how many folders the page sits below the site's root (notebooks/<slug>/: 2).
    """
    notebook = json.loads(ipynb)
    modules = [cell for cell in notebook["cells"] if "module" in cell["metadata"].get("tags", [])]
    if not modules:
        return ipynb
    names = [cell["metadata"]["module"] for cell in modules]
    links = SEPARATOR[language].join(f"[`{name}`]({'../' * depth}{SERVED}/{name})" for name in names)
    first = notebook["cells"].index(modules[0])
    notebook["cells"][first:first + len(modules)] = [
        {"cell_type": "markdown", "id": "modules", "metadata": {}, "source": LINKS[language].format(links=links)}]
    return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"

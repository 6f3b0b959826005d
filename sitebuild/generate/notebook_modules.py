"""Module inlining: the modules of snippets/ that a notebook imports, saved by its first cells.

Part of notebooks.py. A chapter's code imports
attention.py, running_example.py, plotting.py, ...; its notebook starts with one
cell per module that writes the module's file next to the notebook, in plain
Python (no magics), so that the downloaded .ipynb runs with nothing but NumPy
and matplotlib.
"""

from .figures import SNIPPETS, imported_names, local_imports


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

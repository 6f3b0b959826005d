"""Execution: a notebook's outputs, computed in the build's own processes, without a kernel.

Part of notebooks.py; runs in the build's worker
processes (pool.py). The code cells run in order, in one namespace,
as a kernel runs them:

- what a cell prints is its output (the stdout and stderr streams), and the
  value of a last expression is shown as Jupyter shows it (IPython's pretty
  printer), unless the cell ends with `;`;
- a figure cell (`draw();`) shows the SVG that figures.py drew
  for the page, the same drawing, made to stand on its own (black on white,
  fonts named): the build draws each figure once. It is the only cell whose
  output depends on the page's language, and it is not run, so the rest
  (`run_code`) is run once for both languages' notebooks of a chapter;
- the module cells write their files into an empty temporary folder, the
  working directory of the run, as in a fresh kernel; imports of snippets/
  modules find the same text in snippets/.

What a cell may change for the next notebook is put back after each run:
NumPy's print options and random state, Python's random state, matplotlib's
settings and open figures, the working directory. A cell that raises stops
the build with an error that names the chapter, the cell and the snippet.
What a reader downloads still runs in a real kernel: tests/test_notebooks.py
executes every notebook in a fresh one and checks that it prints the same.
"""

import ast
import builtins
import contextlib
import copy
import io
import linecache
import os
import random
import tempfile
import traceback

from .errors import GenerationError
from .figures import keep_imported, without_figure_data

# Figure text outside the page: the fonts the figure was laid out with first, as in
# docs/stylesheets/extra.css (CJK fonts first in Chinese: Chromium on Linux draws empty
# boxes instead of falling back from Arial).
FONTS = {
    "en": '"DejaVu Sans", "Bitstream Vera Sans", Arial, Helvetica, sans-serif',
    "zh": '"Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans CJK JP", "PingFang SC", '
          '"Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", "DejaVu Sans", Arial, sans-serif',
}


def run_code(notebook, label):
    """The outputs of `notebook`'s code cells, as nbformat dicts: [{"outputs": [...], "execution_count": n}].

    A figure cell's outputs are left as None, for `show_figures`. Nothing here depends on
    the page's language: a figure cell is the only cell whose output does, and it is not
    run. So the two languages' notebooks of a chapter, whose code is the same, share one
    run (notebooks.py).
    """
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    results = []
    with _isolated():
        for index, cell in enumerate(notebook["cells"]):
            if cell["cell_type"] != "code":
                continue
            count = len(results) + 1
            snippet = cell["metadata"].get("snippet")
            if "figure" in cell["metadata"].get("tags", []):
                outputs = None
            else:
                filename = f"<{label} cell {index}>"
                try:
                    outputs = _run_cell(cell["source"], namespace, filename, count)
                except Exception as error:
                    where = f" in cell {index}" + (f" (snippets/{snippet})" if snippet else "")
                    failure = traceback.TracebackException.from_exception(error)
                    failure.stack = traceback.StackSummary.from_list(
                        [frame for frame in failure.stack if frame.filename != __file__])  # the cell's frames
                    shown = "".join(failure.format())
                    raise GenerationError(f"the notebook of {label} failed{where}:\n{shown}") from None
                finally:
                    linecache.cache.pop(filename, None)
            results.append({"outputs": outputs, "execution_count": count})
    keep_imported()  # a figure drawn next in this worker uses the modules as they are (a trained model too)
    return results


def show_figures(notebook, outputs, figures, language):
    """`outputs` (from `run_code`) with each figure cell showing the SVG drawn for the page in `language`.

    `figures` maps a figure cell's snippet (fig_x.py) to that SVG. A notebook left
    unexecuted (`outputs` is [], under FIGURES=off) stays so.
    """
    if not outputs:
        return outputs
    code_cells = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    shown = []
    for cell, result in zip(code_cells, outputs, strict=True):
        if result["outputs"] is None:
            svg = standalone_svg(figures[cell["metadata"]["snippet"]], language)
            result = {**result, "outputs": [{"output_type": "display_data", "metadata": {},
                                             "data": {"image/svg+xml": svg}}]}
        shown.append(result)
    return shown


def _run_cell(source, namespace, filename, count):
    """Run one cell's code in `namespace`; its outputs as nbformat dicts."""
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    tree = ast.parse(source, filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not source.rstrip().endswith(";"):
        last = ast.Expression(tree.body.pop().value)
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        exec(compile(tree, filename, "exec"), namespace)
        value = eval(compile(last, filename, "eval"), namespace) if last else None
    if set(plt.get_fignums()) - before:
        raise RuntimeError("this cell leaves a matplotlib figure open, which a kernel would show: "
                           "figures belong in figure snippets (fig_*.py)")
    outputs = [{"output_type": "stream", "name": name, "text": stream.getvalue()}
               for name, stream in (("stdout", out), ("stderr", err)) if stream.getvalue()]
    if value is not None:
        from IPython.lib.pretty import pretty

        outputs.append({"output_type": "execute_result", "execution_count": count, "metadata": {},
                        "data": {"text/plain": pretty(value)}})
    return outputs


@contextlib.contextmanager
def _isolated():
    """An empty working directory, and the global state cells may change, put back afterwards."""
    import matplotlib
    import matplotlib.pyplot as plt
    import numpy as np

    matplotlib.use("Agg")
    here, printing = os.getcwd(), np.get_printoptions()
    states = np.random.get_state(), random.getstate()
    try:
        with tempfile.TemporaryDirectory(prefix="notebook-") as folder, matplotlib.rc_context():
            os.chdir(folder)
            try:
                yield folder
            finally:
                os.chdir(here)
    finally:
        plt.close("all")
        np.set_printoptions(**printing)
        np.random.set_state(states[0])
        random.setstate(states[1])


def standalone_svg(svg, language):
    """A figure as drawn for the page (text in currentColor, the page's font) made to stand on its own."""
    svg = without_figure_data(svg)  # the page's data, not the picture's
    head_end = svg.index(">", svg.index("<svg ")) + 1
    style = (f'<style>text {{ font-family: {FONTS[language]}; }}</style>'
             '<rect width="100%" height="100%" fill="#ffffff"/>')
    return (svg[:head_end] + style + svg[head_end:]).replace("currentColor", "#000000")


def with_outputs(notebook, outputs):
    """A copy of the notebook (an nbformat dict) with the outputs of its code cells filled in."""
    import nbformat

    notebook = nbformat.from_dict(copy.deepcopy(notebook))
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell, result in zip(code_cells, outputs, strict=True):
        cell.outputs = [nbformat.from_dict(output) for output in result["outputs"]]
        cell.execution_count = result["execution_count"]
    return notebook

"""The build's three layers (sitebuild/) need no MkDocs; the hooks (hooks/) only wire them to it.

Issue 29: another engine that runs Python-Markdown can call the same layers. What matters is
what a layer loads, not the letters "mkdocs" in it: the notebook converter comes from the
package mkdocs-jupyter, used as a library, and loads no part of MkDocs.
"""

import subprocess
import sys

from conftest import ROOT

# The engine and its plugins: MkDocs (or its fork), the theme, the i18n plugin.
ENGINE = ("mkdocs", "properdocs", "material", "mkdocs_static_i18n")

EVERY_LAYER_MODULE = """
import importlib, pkgutil, sitebuild
for module in pkgutil.walk_packages(sitebuild.__path__, "sitebuild."):
    importlib.import_module(module.name)
"""

A_NOTEBOOK_RENDERED = """
import nbformat
from sitebuild.generate.notebook_cache import render_html
from sitebuild.generate.notebooks import CONVERTER_OPTIONS
cells = [nbformat.v4.new_markdown_cell("# A heading"), nbformat.v4.new_code_cell("1 + 1")]
html = render_html(nbformat.writes(nbformat.v4.new_notebook(cells=cells)), "probe", CONVERTER_OPTIONS)
assert "A heading" in html and "anchor-link" in html, html[:500]  # the converter's heading
"""

A_PAGE_THROUGH_THE_MARKDOWN_EXTENSIONS = f"""
import markdown
snippets = {str(ROOT / "snippets")!r}
html = markdown.markdown("$a^2$\\n\\n![A caption](fig_attention_pipeline.py)\\n", extensions=[
    "attr_list", "md_in_html", "pymdownx.arithmatex", "pymdownx.highlight", "pymdownx.superfences", "pymdownx.tabbed", "pymdownx.snippets",
    "sitebuild.inside_page.figures", "sitebuild.inside_page.mathml"], extension_configs={{
    "pymdownx.arithmatex": {{"generic": True}}, "pymdownx.tabbed": {{"alternate_style": True}}, "pymdownx.snippets": {{"base_path": [snippets]}},
    "sitebuild.inside_page.figures": {{"language": "zh", "snippets": snippets}}}})
assert "<math" in html and 'data-snippet="fig_attention_pipeline" data-lang="zh"' in html, html[:2000]
assert "ConnectionPatch" in html  # the Code tab holds the snippet itself
"""


def engine_modules_after(code):
    """The engine's modules that a fresh Python has loaded once `code` has run."""
    probe = code + f"\nimport sys\nprint(*sorted(m for m in sys.modules if m.split('.')[0] in {ENGINE!r}))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT / "tests")
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.split()


def test_the_probe_sees_an_engine_module_loaded():
    assert "mkdocs.plugins" in engine_modules_after("import mkdocs.plugins")
    assert "mkdocs" in engine_modules_after("from mkdocs_static_i18n import plugin")


def test_no_layer_loads_mkdocs_its_theme_or_the_i18n_plugin():
    assert engine_modules_after(EVERY_LAYER_MODULE) == []


def test_rendering_a_notebook_loads_no_part_of_mkdocs():
    assert engine_modules_after(A_NOTEBOOK_RENDERED) == []


def test_the_markdown_extensions_work_in_plain_python_markdown():
    assert engine_modules_after(A_PAGE_THROUGH_THE_MARKDOWN_EXTENSIONS) == []


def test_mkdocs_yml_lists_the_sites_own_markdown_extensions():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    extensions = config.split("\nmarkdown_extensions:\n")[1].split("\n\n")[0]
    for name in ("sitebuild.inside_page.figures", "sitebuild.inside_page.mathml"):
        assert f"  - {name}" in extensions, name
    hooks = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "hooks").glob("*.py"))
    assert "config.markdown_extensions" not in hooks  # no hook adds extensions behind mkdocs.yml's back


def test_every_hook_is_short():
    """A hook says which MkDocs event calls which layer; the work is in sitebuild/."""
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in (ROOT / "hooks").glob("*.py")}
    assert lengths and max(lengths.values()) <= 110, lengths

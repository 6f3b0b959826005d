"""Inside a page: Python-Markdown extensions, each one module with a `makeExtension`.

- sitebuild.inside_page.figures: the figure directive, `![caption](fig_name.py)`, becomes the
  tabs "Figure" and "Code" (and, once the figure is drawn, its SVG and its numbers as tables:
  `figures.fill_in`, with figure_numbers.py);
- sitebuild.inside_page.mathml: TeX, as pymdownx.arithmatex (generic mode) leaves it, becomes
  MathML.
- sitebuild.inside_page.chapter_box: the box that opens a chapter is checked and gets its
  reading time, computed from the page.

Any Python-Markdown host can load them by name, with the repository root on sys.path.
"""

"""The work of building the site, in three plain layers; MkDocs only calls them.

- before the pages (generation): what the pages need, made before any page is
  rendered: the figures of each language with their data, the notebooks and their
  outputs, the modules served at /snippets/;
- inside a page: Python-Markdown extensions (the figure directive, TeX to MathML);
- after the pages (sitebuild.after_pages): one pass over each built page's HTML, and
  one over the files of the built site.

No module here imports MkDocs, Material or the i18n plugin: the hooks in hooks/ are a
few lines each that say which MkDocs event calls which layer, so another engine that
runs Python-Markdown can call the same layers.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository: docs/, snippets/, .cache/

"""MkDocs hook: render TeX as MathML at build time, so no math script is loaded.

pymdownx.arithmatex (generic mode) protects `$...$` and `$$...$$` from
Markdown and wraps them as `<span class="arithmatex">\\(...\\)</span>` and
`<div class="arithmatex">\\[...\\]</div>`. This hook turns each into MathML,
which browsers render natively: nothing comes from a CDN. hooks/notebook_page.py
renders the notebooks' maths with the same `tex_to_mathml`.

The pages of both languages repeat the same formulas (about 830 in a build, 170
of them distinct), and so do the notebooks (770, 160 distinct), so each is
converted once for the pages and once for the notebooks: MkDocs loads this file
as a hook and hooks/notebook_page.py imports it as a module, each with its cache.
"""

import functools
import html
import re

from latex2mathml.converter import convert

INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.S)
BLOCK = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.S)


def on_page_content(html_text, page, config, files):
    html_text = BLOCK.sub(lambda m: tex_to_mathml(m["tex"], "block"), html_text)
    return INLINE.sub(lambda m: tex_to_mathml(m["tex"], "inline"), html_text)


@functools.lru_cache(maxsize=None)
def tex_to_mathml(tex, display="inline"):
    """MathML for TeX as it stands in HTML (entities escaped); a block is wrapped in a div.math-block."""
    mathml = convert(html.unescape(tex).strip(), display=display)
    if display == "block":
        return f'<div class="math-block">{mathml}</div>'
    return mathml

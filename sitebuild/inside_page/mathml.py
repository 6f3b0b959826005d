"""Python-Markdown extension: TeX rendered as MathML at build time, so no math script is loaded.

pymdownx.arithmatex (generic mode) protects `$...$` and `$$...$$` from
Markdown and wraps them as `<span class="arithmatex">\\(...\\)</span>` and
`<div class="arithmatex">\\[...\\]</div>`. This extension's postprocessor, the last
to run, turns each into MathML, which browsers render natively: nothing comes from a
CDN. The notebook pages render their maths with the same `tex_to_mathml`.

The pages of both languages repeat the same formulas (about 830 in a build, 170
of them distinct), and so do the notebooks (770, 160 distinct), so each is
converted once (`tex_to_mathml` keeps what it converted).
"""

import functools
import html
import re

from latex2mathml.converter import convert
from markdown import Extension
from markdown.postprocessors import Postprocessor

INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.S)
BLOCK = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.S)


def in_html(html_text):
    """`html_text` with every formula that arithmatex wrapped as MathML."""
    html_text = BLOCK.sub(lambda m: tex_to_mathml(m["tex"], "block"), html_text)
    return INLINE.sub(lambda m: tex_to_mathml(m["tex"], "inline"), html_text)


@functools.lru_cache(maxsize=None)
def tex_to_mathml(tex, display="inline"):
    """MathML for TeX as it stands in HTML (entities escaped); a block is wrapped in a div.math-block."""
    mathml = convert(html.unescape(tex).strip(), display=display)
    if display == "block":
        return f'<div class="math-block">{mathml}</div>'
    return mathml


class MathMLPostprocessor(Postprocessor):
    """The page's HTML, every other postprocessor done, with MathML for TeX."""

    def run(self, text):
        return in_html(text)


class MathMLExtension(Extension):
    def extendMarkdown(self, md):
        md.postprocessors.register(MathMLPostprocessor(md), "sitebuild_mathml", 1)


def makeExtension(**kwargs):
    return MathMLExtension(**kwargs)

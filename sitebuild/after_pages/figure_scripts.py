"""A page loads the figure scripts that its figures use, and no other page does.

docs/javascripts/cell-grids.js lays a focusable grid over each heatmap, so a page gets
it when one of its figures has a heatmap (the figure's data, written into the SVG by
sitebuild/generate/figures.py, lists them); it loads cell-explanations.js, which
explains the cells, when a reader first uses a grid. docs/javascripts/explorables.js
builds an explorable under its figure, so only a page whose figure asks for one gets
it, after cell-explanations.js (whose dot product and softmax it uses), which that
page therefore loads at once. An explorable of OWN_SCRIPT (the training replay of
learning-relevance) needs only cell-grids.js at load, which loads its script on first use.
As extra_javascript they were on every page: 8.8 KiB
gzipped on the home page, the glossary and the notebooks, which need none of it.

The scripts go right after Material's bundle, where MkDocs puts extra_javascript.
Runs once the SVGs are in the page (hooks/snippet_figures.py puts them there).
"""

import re

SCRIPTS = "javascripts/"
BUNDLE = re.compile(r'<script src="(?P<root>[^"]*)assets/javascripts/bundle\.[^"]+"></script>')
# The figure's data is JSON in a single-quoted attribute: its double quotes stay as they are.
HEATMAPS = re.compile(r"<svg [^>]*?data-figure='\{\"heatmaps\":\[\{")
EXPLORABLE = re.compile(r"<svg [^>]*?data-figure='[^']*\"explorable\":\{\"name\":\"(?P<name>[^\"]+)\"")
# Explorables with a script of their own, which needs neither cell-explanations.js nor explorables.js:
# their controls are in the page (figure_data.controls), and cell-grids.js loads the script on first use.
OWN_SCRIPT = {"training-replay"}


def scripts_for(output):
    """The figure scripts a page's HTML needs, in the order they must run."""
    names = EXPLORABLE.findall(output)
    shared = [name for name in names if name not in OWN_SCRIPT]
    needed = []
    if HEATMAPS.search(output) or names:  # cell-grids.js also loads an OWN_SCRIPT on first use
        needed.append("cell-grids.js")
    if shared:
        needed += ["cell-explanations.js", "explorables.js"]
    return needed


def in_page(output):
    """A page's HTML with the figure scripts it needs after Material's bundle."""
    needed = scripts_for(output)
    if not needed:
        return output

    def after(match):
        tags = "".join(f'\n  <script src="{match["root"]}{SCRIPTS}{name}"></script>' for name in needed)
        return match[0] + tags

    return BUNDLE.sub(after, output, count=1)

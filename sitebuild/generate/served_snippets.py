"""The modules that the figure snippets import, served with the site at /snippets/<name>.py.

snippets/attention.py, relevance_training.py and the others that are not a figure
(fig_*.py) are served; Chinese pages link to the same copy. A chapter links to a module
instead of printing all of it: the whole training program is a link on "How training makes
related words align" (5 KiB gzipped less on the page), and a reader who opens it gets the
file to save or copy. A page links to one as to a page, relative to docs/:
[snippets/relevance_training.py](snippets/relevance_training.py), so the link is checked.
"""

from .figures import SNIPPETS

FOLDER = "snippets"  # where they are served, below the site's root


def modules():
    """The snippets that are not figures: the modules the figures import (file names)."""
    return sorted(p.name for p in SNIPPETS.glob("*.py") if not p.name.startswith("fig_"))

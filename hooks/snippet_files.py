"""MkDocs hook: the modules that the figure snippets import are served with the site.

snippets/attention.py, relevance_training.py and the others that are not a figure
(fig_*.py) are copied to /snippets/<name>.py; Chinese pages link to the same copy. A chapter
links to a module instead of printing all of it: the whole training program is
a link on "How training makes related words align" (5 KiB gzipped less on the
page), and a reader who opens it gets the file to save or copy.

A page links to one as to a page, relative to docs/:
[snippets/relevance_training.py](snippets/relevance_training.py); MkDocs checks the link.
"""

from pathlib import Path

from mkdocs.structure.files import File, InclusionLevel

SNIPPETS = Path(__file__).resolve().parent.parent / "snippets"
FOLDER = "snippets"


def modules():
    """The snippets that are not figures: the modules the figures import."""
    return sorted(p.name for p in SNIPPETS.glob("*.py") if not p.name.startswith("fig_"))


def on_files(files, config):
    for name in modules():  # in each build: MkDocs checks links against them, mkdocs-static-i18n keeps one copy
        files.append(File(f"{FOLDER}/{name}", str(SNIPPETS.parent), config.site_dir, config.use_directory_urls,
                          inclusion=InclusionLevel.NOT_IN_NAV))
    return files

"""The site serves our CSS and JavaScript without their comments.

docs/stylesheets/*.css and docs/javascripts/*.js keep their comments for whoever
maintains them; a reader's browser does not need them. After the build, the copies
in the site lose every CSS comment (/* ... */) and every JavaScript line comment:
a line that is only a comment, and a comment after code ("  // ..."). That is about
2 KiB gzipped of each chapter page. The code itself is left as written: no renaming,
no minifier, so what the browser runs reads like docs/ (tests/test_site.py checks
that the served files differ from docs/ only by comments).
"""

import re
from pathlib import Path

CSS_COMMENT = re.compile(r"/\*.*?\*/\n?", re.S)
# A line that is only a comment; a comment after code, set off by two spaces. Our scripts
# have no "//" in a string other than in "http://...", which neither pattern matches.
JS_COMMENT = re.compile(r"^[ \t]*//.*\n|[ \t]{2,}//[ \t].*$", re.M)


def without_comments(text, suffix):
    """`text` of a .css or .js file without its comments."""
    return (CSS_COMMENT if suffix == ".css" else JS_COMMENT).sub("", text)


def in_site(site_dir):
    """Every stylesheet and script of our own in the built site at `site_dir`, without its comments."""
    site = Path(site_dir)
    for path in [*site.glob("stylesheets/*.css"), *site.glob("javascripts/*.js")]:
        text = path.read_text(encoding="utf-8")
        lighter = without_comments(text, path.suffix)
        if lighter != text:
            path.write_text(lighter, encoding="utf-8")

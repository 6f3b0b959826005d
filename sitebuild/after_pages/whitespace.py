"""Each page's HTML without the blank lines and indentation of its templates.

Material's templates leave runs of spaces and empty lines between tags (the
navigation alone is hundreds of lines of them). A run of whitespace that holds a
line break becomes one line break: the browser shows the page exactly as before
(HTML collapses such runs to one space anyway), and a chapter page is about
0.5 KiB gzipped lighter. <pre>, <textarea>, <script> and the text a notebook
page's copy button copies are left as they are: there whitespace is content.
"""

import re

# Where whitespace is content; the last is the text the notebook converter's copy button copies.
KEPT = re.compile(r"(<pre[\s>].*?</pre>|<textarea[\s>].*?</textarea>|<script[\s>].*?</script>"
                  r'|<div class="clipboard-copy-txt"[^>]*>.*?</div>)', re.S)
RUN = re.compile(r"[ \t\r\f]*\n\s*")


def collapsed(html):
    """`html` with every whitespace run that holds a line break, outside KEPT, one line break."""
    parts = KEPT.split(html)
    return "".join(part if i % 2 else RUN.sub("\n", part) for i, part in enumerate(parts))


"""Highlighted code in fewer elements, so that pages lay out fast on a phone.

Pygments wraps every token of a code block in a `<span>`: a chapter with its
figure snippets in Code tabs held about 4,400 elements of code out of 6,300,
and style and layout of those elements was most of the page's main-thread
work in Lighthouse's mobile run. The page looks the same with far fewer:

- names (`n`), constants such as None (`kc`), whitespace (`w`), and
  punctuation and operators (`p`, `o`, `ow`; docs/stylesheets/extra.css
  draws them in the code's own colour) lose their spans and keep their
  text: punctuation alone was 1,767 of the 2,791 code elements of the
  heaviest chapter;
- neighbouring tokens drawn in one colour become one span (the pieces of
  a string, the lines of a docstring), the whitespace and line ends between
  them included.

Which classes share a colour follows Material's code colours and
docs/stylesheets/extra.css (tests/test_code_spans.py checks every character). The text of every
block is unchanged, so copying, search and the tests that read code see the
same code.
"""

import re

# Tokens in the code's own colour: the span goes, the text stays.
PLAIN = re.compile(r'<span class="(?:n|w|kc|p|o|ow)">([^<]*)</span>')
# Tokens that Material draws in one colour, and the class that stands for the group.
SAME_COLOUR = {
    "s2": ("s", "s1", "s2", "sb", "sc", "si", "ss", "l", "cpf"),  # strings
    "mi": ("m", "mb", "mf", "mh", "mi", "mo", "il"),  # numbers
    "k": ("k", "kd", "kn", "kp", "kr", "kt", "nd", "ni", "nl", "nt"),  # keywords
    "c1": ("c", "c1", "ch", "cm", "cs", "sd"),  # comments and docstrings
}
GROUP = {name: group for group, names in SAME_COLOUR.items() for name in names}
RUN = re.compile(r'(?:<span class="(%s)">[^<]*</span>\s*)+' % "|".join(map(re.escape, GROUP)))
TOKEN = re.compile(r'<span class="([\w-]+)">([^<]*)</span>|(\s+)')
CODE = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)  # a block: <pre><code> on chapters, <pre> in notebooks


def in_page(output):
    """A page's HTML with every highlighted block in fewer spans."""
    return CODE.sub(lambda m: m[1] + fewer_spans(m[2]) + m[3], output)


def fewer_spans(code):
    """The HTML of one highlighted block with the same text and colours in fewer spans."""
    code = PLAIN.sub(r"\1", code)
    return RUN.sub(_merge_run, code)


def _merge_run(match):
    """A run of spans (and the spaces between them): spans of one colour group become one."""
    pieces, out = TOKEN.findall(match[0]), []
    for cls, text, space in pieces:
        group = GROUP.get(cls) if cls else None
        if space:
            if out and out[-1][0] is not None:
                out[-1][1].append(space)  # a space joins the span before it; one at the end is moved out below
            else:
                out.append((None, [space]))
        elif out and out[-1][0] == group:
            out[-1][1].append(text)
        else:
            out.append((group, [text]))
    html = []
    for group, texts in out:
        text = "".join(texts)
        if group is None:
            html.append(text)
        else:
            body = text.rstrip()
            html.append(f'<span class="{group}">{body}</span>{text[len(body):]}')
    return "".join(html)

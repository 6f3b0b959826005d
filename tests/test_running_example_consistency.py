"""The numbers of the running example agree on every page, and with the code.

Pages print numbers of "The ball is blue" in expected-output blocks. Lines in
one of these formats are read as facts about the running example (any other
line is ignored):

    blue -> ball 0.81                attention weight of query "blue" for key "ball"
    blue · ball 4                    q_blue · k_ball, a cell of the factor matrix QKᵀ
    <name>[blue] [-2.  4. -2.  0.]   row "blue" of a matrix, as NumPy prints it

where the words are words of the sentence, the spaces between the parts may
be repeated (for aligned columns), and <name> is one of the keys of
`reference()`: x, q, k, v, factors (QKᵀ), scores (QKᵀ/√d_k), weights
(softmax of the scores), raw_output ((QKᵀ)V), output (weights · V), added
(output · W_O), summed (x + added) or normed (LayerNorm of summed).

Every fact must match what `running_example` and `attention` compute, to
the number of decimals shown; the same quantity must be shown with the same
value on every page; and an English page and its Chinese page must show the
same facts.
"""

import re
from functools import lru_cache

import numpy as np
import pytest

from attention import add_and_norm, layer_norm, scaled_dot_product_attention
from conftest import DOCS
from running_example import D_K, FEATURES, SOURCE_WORDS, W_O, encoder_input, output_projection, source_qkv

WORD = "|".join(re.escape(w) for w in SOURCE_WORDS)
NUMBER = r"-?\d+(?:\.\d*)?"
PAIR = re.compile(rf"^(?P<query>{WORD}) +(?P<op>->|·) +(?P<key>{WORD}) +(?P<value>{NUMBER})$")
ROW = re.compile(rf"^(?P<name>\w+)\[(?P<word>{WORD})\] +\[(?P<values>[-\d.\se+]*)\]$")
OPERATORS = {"->": "weights", "·": "factors"}
EXPECTED_OUTPUT = re.compile(r"<!--pytest-codeblocks:expected-output-->\s*\n```\w*\n(.*?)\n```", re.S)

# Pages that must report running-example numbers in these formats.
PAGES_WITH_FACTS = ["index", "query-key-scores", "weighted-values", "query-key-value"]


@lru_cache(maxsize=None)
def reference():
    """Every quantity a fact may name, computed from the site's own code."""
    q, k, v = source_qkv()
    factors = q @ k.T  # (n, n)
    output, weights = scaled_dot_product_attention(q, k, v)
    x = encoder_input(SOURCE_WORDS)
    return {
        "x": x,
        "q": q,
        "k": k,
        "v": v,
        "factors": factors,
        "scores": factors / np.sqrt(D_K),
        "weights": weights,
        "raw_output": factors @ v,
        "output": output,
        "added": output_projection(output),
        "summed": x + output_projection(output),
        "normed": add_and_norm(x, output_projection(output)),
    }


def decimals(text):
    return len(text.split(".", 1)[1]) if "." in text else 0


def facts_in(text):
    """(quantity, row word, column index, value, decimals, line) for every fact in `text`."""
    facts = []
    for block in EXPECTED_OUTPUT.findall(text):
        for line in block.splitlines():
            line = line.rstrip()
            if m := PAIR.match(line):
                column = SOURCE_WORDS.index(m["key"])
                facts.append((OPERATORS[m["op"]], m["query"], column, float(m["value"]),
                              decimals(m["value"]), line))
            elif (m := ROW.match(line)) and m["name"] in reference():
                values = m["values"].split()
                places = max(decimals(v) for v in values)  # NumPy pads a row to one precision
                for column, value in enumerate(values):
                    facts.append((m["name"], m["word"], column, float(value), places, line))
    return facts


def tolerance(places):
    return 0.5 * 10.0 ** -places + 1e-9


def wrong_facts(facts):
    """Messages for facts that do not match the computed value."""
    wrong = []
    for name, word, column, value, places, line in facts:
        row = reference()[name][SOURCE_WORDS.index(word)]
        if column >= len(row):
            wrong.append(f"{line!r}: {name}[{word}] has only {len(row)} entries")
        elif abs(row[column] - value) > tolerance(places):
            wrong.append(f"{line!r}: entry {column} is {row[column]:.4f}, not {value}")
    return wrong


def disagreements(facts_by_page):
    """Messages for one quantity shown with different values on different pages."""
    seen, wrong = {}, []
    for page, facts in facts_by_page.items():
        for name, word, column, value, places, line in facts:
            key = (name, word, column)
            if key in seen:
                other_page, other_value, other_places, other_line = seen[key]
                if abs(value - other_value) > tolerance(min(places, other_places)):
                    wrong.append(f"{name}[{word}][{column}]: {page} shows {line!r}, "
                                 f"{other_page} shows {other_line!r}")
            else:
                seen[key] = page, value, places, line
    return wrong


def page_facts():
    return {path.name: facts_in(path.read_text(encoding="utf-8")) for path in sorted(DOCS.glob("*.md"))}


def test_the_chapters_report_running_example_numbers():
    """The check below is not vacuous: these pages do print facts, in both languages."""
    facts = page_facts()
    for page in PAGES_WITH_FACTS:
        for name in (f"{page}.md", f"{page}.zh.md"):
            assert facts[name], f"docs/{name} reports no running-example numbers"


def test_every_number_matches_the_code():
    wrong = [f"docs/{page}: {message}" for page, facts in page_facts().items()
             for message in wrong_facts(facts)]
    assert not wrong, "\n".join(wrong)


def test_every_page_shows_the_same_value_for_the_same_quantity():
    wrong = disagreements(page_facts())
    assert not wrong, "\n".join(wrong)


def test_english_and_chinese_pages_show_the_same_numbers():
    facts = page_facts()
    wrong = []
    for zh in sorted(DOCS.glob("*.zh.md")):
        en = zh.name.replace(".zh.md", ".md")
        only_en = sorted({f[-1] for f in facts.get(en, [])} - {f[-1] for f in facts[zh.name]})
        only_zh = sorted({f[-1] for f in facts[zh.name]} - {f[-1] for f in facts.get(en, [])})
        if only_en or only_zh:
            wrong.append(f"{en} only: {only_en}; {zh.name} only: {only_zh}")
    assert not wrong, "\n".join(wrong)


# The checks can fail: doctored pages.

def page(*lines):
    return "<!--pytest-codeblocks:expected-output-->\n\n```text\n" + "\n".join(lines) + "\n```\n"


def test_a_wrong_weight_is_caught():
    facts = facts_in(page("blue -> The  0.04", "blue -> ball 0.70"))
    assert len(facts) == 2
    [message] = wrong_facts(facts)
    assert "blue -> ball 0.70" in message


def test_a_wrong_entry_in_a_printed_row_is_caught():
    facts = facts_in(page("scores[blue]  [-1.   2.  -1.   0.5]", "ignored line 1.23"))
    assert len(facts) == 4
    [message] = wrong_facts(facts)
    assert "entry 3" in message


def test_two_pages_that_disagree_are_caught():
    first = facts_in(page("factors[blue] [-2.  4. -2.  0.]"))
    second = facts_in(page("blue · ball  5"))
    [message] = disagreements({"a.md": first, "b.md": second})
    assert "factors[blue][1]" in message and "ball  5" in message
    assert not disagreements({"a.md": first, "b.md": facts_in(page("blue · ball 4.00"))})


@pytest.mark.parametrize("line", ["blue -> ball 0.81", "blue · is -2", "q[blue] [ 4.  0. -2. -2.]"])
def test_the_formats_are_only_read_inside_expected_output_blocks(line):
    assert facts_in(f"```text\n{line}\n```\n") == []
    assert facts_in(page(line))


def test_a_wrong_entry_of_the_residual_rows_is_caught():
    facts = facts_in(page("normed[blue]  [ 0.93  1.38 -0.21 -0.21 -0.12 -1.76]",
                          "added[blue]   [0.81 0.11 0.04 0.40 0.   0.  ]"))
    assert len(facts) == 12
    [message] = wrong_facts(facts)
    assert "added[blue]" in message and "entry 3" in message


# The story the residual section tells (weighted-values, "Added to the row, not put in its place").

def test_blue_stays_a_colour_and_gains_a_thing_after_add_and_norm():
    ref, blue = reference(), SOURCE_WORDS.index("blue")
    thing, colour = FEATURES.index("thing"), FEATURES.index("colour")
    features = slice(0, len(FEATURES))
    x, added, normed = ref["x"][blue], ref["added"][blue], ref["normed"][blue]
    assert x[features].argmax() == colour and x[thing] == 0
    assert added[features].argmax() == thing  # what attention adds is mostly "a thing" (from "ball")
    assert normed[features].argmax() == colour  # the row keeps its own content
    assert normed[thing] > x[thing] and normed[thing] > 0.5  # and gains "about a thing"
    assert layer_norm(x[None])[0, thing] < 0 < normed[thing]  # compared like with like, normalised too
    assert layer_norm(added[None])[0, features].argmax() == thing  # had it replaced the row: a thing
    # W_O writes each Value column into the feature of its name, and nothing into the position
    assert W_O[0, thing] == 1 and W_O[1, colour] == 1 and not W_O[:, len(FEATURES):].any()
    np.testing.assert_allclose(W_O.sum(axis=1), 1)  # every Value column is written in full


@pytest.mark.parametrize("z", [np.ones((4, 6)), np.ones(3)])
def test_output_projection_wants_rows_as_wide_as_a_value_row(z):
    with pytest.raises(ValueError, match=r"\(n, d_v\)"):
        output_projection(z)

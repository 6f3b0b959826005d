"""Claims made in prose by the chapter "Attention in a trained model".

Its code blocks check the numbers they print; these tests check that the prose
names no number that its code does not print, and the statements it makes
around them about the real weights of all-MiniLM-L6-v2.
"""

import re

import numpy as np
import pytest

from conftest import DOCS
from dependency_heads import best_head
from minilm import attention_weights
from minilm_heads import (BLACK, CAT, CLS, DRANK, MILK, PATTERNS, SENTENCE, SEP, THE, THE_2, WORDS,
                          named_heads, score_products, special_share, strongest_head)

PAGES = ["trained-model.md", "trained-model.zh.md", "trained-heads.md", "trained-heads.zh.md"]
# The number check also covers the decoder's chapters (tests/test_trained_decoder_chapters.py).
NUMBER_PAGES = PAGES + ["trained-decoder.md", "trained-decoder.zh.md", "induction-heads.md", "induction-heads.zh.md"]
FENCE = re.compile(r"^[ ]*```.*?^[ ]*```", re.S | re.M)
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+|%)")  # 0.53, 92%: what a reader would compare with an output


def prose_and_outputs(page):
    """The page's prose (no code, no maths, no figure lines) and the text of its code blocks."""
    text = (DOCS / page).read_text(encoding="utf-8")
    code = "\n".join(FENCE.findall(text))
    prose = FENCE.sub("", text)
    prose = re.sub(r"\$[^$]*\$|`[^`]*`|^[ ]*!\[.*$", "", prose, flags=re.M)
    return prose, code


def prose_numbers(prose):
    return NUMBER.findall(prose)


def not_printed(numbers, code):
    """The numbers that the code's text does not hold as a whole number (0.3 is not in 0.36)."""
    return [n for n in numbers if not re.search(rf"(?<![\d.]){re.escape(n)}(?![\d%])", code)]


def test_the_number_check_notices_a_typed_number():
    prose, code = "It gives 0.53 to drank, 92% of the time, and 0.3 to cat.", "drank 0.53, cat 0.36"
    assert not_printed(prose_numbers(prose), code) == ["92%", "0.3"]


@pytest.mark.parametrize("page", NUMBER_PAGES)
def test_every_number_in_the_prose_is_printed_by_the_page_code(page):
    prose, code = prose_and_outputs(page)
    assert prose_numbers(prose), "the check found no number at all"
    assert not_printed(prose_numbers(prose), code) == []


@pytest.fixture(scope="module")
def weights():
    return attention_weights(SENTENCE)[1]  # (6, 12, 8, 8)


def test_the_named_heads_do_what_the_page_says(weights):
    previous, following, noun, obj = weights[0, 2], weights[1, 8], weights[2, 8], weights[0, 4]
    assert all(previous[i].argmax() == i - 1 for i in WORDS[1:])  # every word, the token before it
    assert following[BLACK].argmax() == CAT and following[BLACK, CAT] > 0.5  # "black" gives "cat" most of its row
    assert [noun[i, 1:-1].argmax() + 1 for i in (THE, THE_2, BLACK)] == [CAT, MILK, CAT]  # skips "black"
    assert obj[DRANK, MILK] > 0.9  # "almost all of its row"


def test_the_same_heads_win_with_the_special_tokens_set_aside(weights):
    """pattern_strength counts [CLS] and [SEP] as the head spends them; set aside, nothing changes the winners."""
    aside = weights[..., 1:-1] / weights[..., 1:-1].sum(axis=-1, keepdims=True)  # keys: the words only
    for name, (layer, head, strength) in named_heads().items():
        queries, keys = np.array(PATTERNS[name]).T
        share = aside[..., queries, keys - 1].mean(axis=-1)  # (layers, heads)
        assert np.unravel_index(share.argmax(), share.shape) == (layer, head), name
        assert share[layer, head] >= strength


def test_named_heads_takes_no_other_sentence():
    with pytest.raises(TypeError):
        named_heads("She opened the door")


def test_milk_averaged_over_heads_goes_mostly_to_cls_in_layers_1_to_4(weights):
    milk = weights[:, :, MILK].mean(axis=1)  # (layers, tokens)
    assert np.all(milk.argmax(axis=1) == CLS)  # in every layer [CLS] gets the most
    assert np.all(milk[1:5, CLS] > 0.5) and milk[0, CLS] < 0.5 and milk[5, CLS] < 0.5
    assert np.all(milk[:, DRANK] < 0.1)  # "drank" never stands out


def test_cls_takes_most_of_the_special_tokens_weight_in_the_middle_layers(weights):
    words = weights[:, :, 1:-1]  # (layers, heads, words, tokens)
    cls, sep = words[..., CLS].mean(axis=(1, 2)), words[..., SEP].mean(axis=(1, 2))
    assert np.all(cls[1:5] > sep[1:5])
    assert np.allclose(cls + sep, special_share(weights).mean(axis=1))


def test_in_the_real_score_cls_outweighs_drank_and_no_product_is_named(weights):
    layer, head = strongest_head(MILK, DRANK)
    row = weights[layer, head, MILK]
    assert row[CLS] > row[DRANK] > row[[i for i in WORDS if i != DRANK]].max()  # "slightly more weight"
    products = np.sort(score_products(layer, head, MILK, DRANK))[::-1]
    assert np.all(products[:10] > 0)  # the ten largest, all positive
    assert 0.2 < products[0] / products.sum() < 0.3  # "about a quarter of the score"
    assert products[:9].sum() < products.sum() < products[:10].sum()  # "it takes ten of them"


def test_the_object_head_over_many_sentences_is_where_milk_gives_drank_most_not_the_drank_milk_head():
    (layer, head), _ = best_head("dobj")
    assert (layer, head) == strongest_head(MILK, DRANK)  # "the head in which milk gave drank the most"
    assert (layer, head) != named_heads()["verb → object"][:2]  # "is not the one that wins here"


# --- Taking a trained head apart (docs/trained-heads.md) ---

def test_the_layer0_parts_add_up_to_the_real_scores_in_every_head():
    import minilm
    from minilm_heads import layer0_score_parts
    _, inputs, _, _ = minilm.run(SENTENCE)
    q, k = minilm.queries_and_keys(inputs[0], 0)  # (12, n, 32) each
    for head in range(minilm.N_HEADS):
        for query in range(len(q[head])):
            np.testing.assert_allclose(sum(layer0_score_parts(head, query).values()), k[head] @ q[head, query],
                                       rtol=1e-9, atol=1e-9)


def test_position_leads_the_previous_token_head_and_tokens_the_collocation_head():
    from minilm_heads import layer0_score_parts
    for head, query, leading in ((2, MILK, "position·position"), (4, DRANK, "token·token")):
        parts = layer0_score_parts(head, query)
        winner = int(sum(parts.values()).argmax())
        lead = {name: part[winner] - part.mean() for name, part in parts.items()}
        assert max(lead, key=lead.get) == leading
        assert lead[leading] > sum(lead.values())  # "almost wholly", the other parts together take from it


def test_the_shared_part_chooses_nothing_and_cls_wins_by_a_near_tie():
    from attention import softmax
    from minilm_heads import keys_and_query, shared_and_own
    shared, own = shared_and_own(2, 0, MILK)
    q, keys = keys_and_query(2, 0, MILK)
    np.testing.assert_allclose(shared + own, keys @ q)
    _, all_weights = attention_weights(SENTENCE)
    np.testing.assert_allclose(softmax(own / np.sqrt(32)), all_weights[2, 0, MILK])
    assert shared > 0.5 * (keys @ q)[DRANK]  # "more than half of the score of drank"
    words = [i for i in WORDS if i != DRANK]
    assert own[CLS] > own[DRANK] > own[words].max()
    assert abs(q @ (keys[DRANK] - keys[CLS])) < 0.05 * (q @ keys[DRANK])  # a near tie


def test_the_special_tokens_add_far_less_than_their_weight(weights):
    from minilm_heads import shares_of_what_is_added, special_share_of_what_is_added, value_lengths
    by_weight, by_length = special_share(weights).mean(axis=1), special_share_of_what_is_added().mean(axis=1)
    assert np.all(by_length < 0.6 * by_weight)
    lengths = value_lengths(2, 0)
    assert lengths[CLS] < lengths[1:-1].min() / 10  # "about a twentieth as long as the words'"
    added = shares_of_what_is_added(weights[2, 0, MILK], lengths)
    np.testing.assert_allclose(added.sum(), 1.0)
    assert added[DRANK] > 0.5 > weights[2, 0, MILK, DRANK]


def test_the_named_heads_matter_less_than_heads_at_random():
    from dependency_heads import SENTENCES
    from minilm_heads import CHAPTER_HEADS, removals
    found = removals([SENTENCE] + [s["text"] for s in SENTENCES[:15]])
    named = [found[name] for name in CHAPTER_HEADS]
    assert max(turn for (turn, _), _ in named) < 0.005  # "a few thousandths"
    assert max(max(zero[1], mean[1]) for zero, mean in named) < 0.015  # "about a hundredth at most"
    fives = [found[f"5 at random, draw {d}"] for d in range(1, 6)]
    for removal in (0, 1):  # zeros, then means
        assert sum(five[removal][0] > found["all five"][removal][0] for five in fives) >= 3  # "most draws"

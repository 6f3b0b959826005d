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


def pinned_by_other_tests(page):
    """Numbers a page states that another test file computes and checks the page states."""
    if page.startswith("trained-model"):
        from test_minilm_in_page import TOLERANCE  # the in-page panel against NumPy's weights
        return {f"{TOLERANCE:g}"}
    return set()


@pytest.mark.parametrize("page", NUMBER_PAGES)
def test_every_number_in_the_prose_is_printed_by_the_page_code(page):
    prose, code = prose_and_outputs(page)
    assert prose_numbers(prose), "the check found no number at all"
    assert not_printed([n for n in prose_numbers(prose) if n not in pinned_by_other_tests(page)], code) == []


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


def test_the_named_heads_removed_change_a_similarity_within_the_random_draws():
    """TH2: zeros, below every draw of five; means, inside the draws' range (not 'less than most')."""
    from dependency_heads import SENTENCES
    from minilm_heads import removals
    found = removals([SENTENCE] + [s["text"] for s in SENTENCES[:15]])
    fives = [found[f"5 at random, draw {d}"] for d in range(1, 6)]
    zero_change, mean_change = found["all five"][0][1], found["all five"][1][1]
    assert zero_change < min(five[0][1] for five in fives)  # "below every draw of five"
    assert min(five[1][1] for five in fives) < mean_change < max(five[1][1] for five in fives)  # "among them"


# --- Heads you can name, on other sentences (docs/trained-model.md#named-heads) ---

@pytest.fixture(scope="module")
def labelled_texts():
    from dependency_heads import SENTENCES
    return [s["text"] for s in SENTENCES]


def test_the_previous_token_head_holds_on_every_row_and_the_next_token_head_on_most(labelled_texts):
    from minilm_heads import weight_at_offset
    weight, wins, rows = weight_at_offset(0, 2, -1, labelled_texts)
    assert wins == 1.0 and weight > 0.99  # "in every row of every sentence"
    weight, wins, rows = weight_at_offset(1, 8, +1, labelled_texts)
    assert 0.75 < wins < 0.95  # "in most rows, not all"
    assert rows == sum(len(text.split()) - 1 for text in labelled_texts)  # every word with a next word


def test_where_the_next_token_head_misses_cls_takes_the_row_often_before_a_verb(labelled_texts):
    from dependency_heads import SENTENCES
    misses, before_a_verb = 0, 0
    for sentence in SENTENCES:
        _, all_weights = attention_weights(sentence["text"])
        rows, verbs = all_weights[1, 8], {verb for _, verb in sentence["dobj"]}  # verbs as word indices
        for i in range(1, len(rows) - 2):  # token i is word i - 1; its next word is word i
            if rows[i].argmax() != i + 1:
                assert rows[i].argmax() == CLS  # "in the others [CLS] gets the most"
                misses, before_a_verb = misses + 1, before_a_verb + (i in verbs)
    assert misses and before_a_verb / misses > 0.4  # "often where a noun stands just before its verb"
    _, weights = attention_weights(SENTENCE)
    assert weights[1, 8, CAT].argmax() == CLS  # "as 'cat' does before 'drank'"


def test_weight_at_offset_refuses_offset_zero_and_sentences_without_such_a_word():
    from minilm_heads import weight_at_offset
    with pytest.raises(ValueError, match="offset"):
        weight_at_offset(0, 2, 0, [SENTENCE])
    with pytest.raises(ValueError, match="no word"):
        weight_at_offset(0, 2, -9, [SENTENCE])


def test_the_determiner_head_takes_determiners_to_their_nouns_and_only_the_word_before_a_noun():
    from dependency_heads import most_attended
    tokens, weights = attention_weights("A very old wooden table stood in the corner of the quiet room")
    words = tokens[1:-1]
    looks_at = [words[j] for j in most_attended(weights[2, 8])]
    found = dict(zip(range(len(words)), looks_at))
    assert [found[i] for i in (0, 7, 10)] == ["table", "corner", "room"]  # a, the, the: their nouns
    assert found[3] == "table" and found[11] == "room"  # wooden, quiet: right before their noun
    assert found[1] == "old" and found[2] == "wooden"  # very, old: the next word, not the noun


def test_the_collocation_head_pairs_words_whatever_their_order():
    def weight(sentence, verb, obj):
        tokens, weights = attention_weights(sentence)
        return weights[0, 4, tokens.index(verb), tokens.index(obj)]
    assert min(weight("She read the book", "read", "book"), weight("He wrote a letter", "wrote", "letter")) > 0.8
    assert weight("The man ate the bread", "ate", "bread") < 0.2 and weight(
        "The black cat drank the car", "drank", "car") < 0.05
    before = weight("The milk that the cat drank was cold", "drank", "milk")  # the object first
    assert 0.85 < before < weight("The black cat drank the milk", "drank", "milk")  # "almost as surely"


# --- What a head brings back: lengths against the sum (docs/trained-heads.md#what-it-carries) ---

def test_what_is_added_sums_to_the_heads_output_and_its_lengths_overstate_it(weights):
    import minilm
    from minilm_heads import shares_along_the_sum, shares_of_what_is_added, value_lengths, what_is_added
    added = what_is_added(2, 0, MILK)  # (8, 384)
    _, inputs, _, _ = minilm.run(SENTENCE)
    (_, _, _, w_o), _ = minilm.attention_parameters(2)
    output = minilm.head_outputs(inputs[2], weights[2], 2)[0, MILK] @ w_o[minilm.head_columns(0)]
    np.testing.assert_allclose(added.sum(axis=0), output)  # the head's output in this row, through W_O
    lengths = np.linalg.norm(added, axis=1)
    np.testing.assert_allclose(lengths / lengths.sum(), shares_of_what_is_added(weights[2, 0, MILK],
                                                                                value_lengths(2, 0)))
    assert lengths.sum() > 1.2 * np.linalg.norm(added.sum(axis=0))  # "partly apart and cancel"
    along = shares_along_the_sum(added)
    np.testing.assert_allclose(along.sum(), 1.0)  # "which the shares do add up to"
    assert along[DRANK] > lengths[DRANK] / lengths.sum() and abs(along[CLS]) < 0.02  # [CLS]: "nothing"


# --- Which head finds a word's partner (docs/trained-heads.md#which-head) ---

@pytest.mark.parametrize("relation", ["det", "dobj"])
@pytest.mark.parametrize("reverse", [False, True])
def test_the_table_of_the_first_split_shows_one_head_and_one_offset_per_row(relation, reverse):
    """The page prints one head and one offset for split 1: both of its folds chose them."""
    from dependency_heads import held_out_spread
    spread = held_out_spread(relation, reverse=reverse)
    split = spread["runs"][0]
    assert split["heads"][0] == split["heads"][1] == next(iter(spread["heads"]))  # the most chosen head, too
    assert split["folds"][0]["offset"] == split["folds"][1]["offset"]


def test_the_heads_beat_the_offset_where_it_cannot_be_right_and_weaken_with_distance():
    from dependency_heads import accuracy_by_distance, pairs, predictions
    det = accuracy_by_distance("det", 2, 8)
    assert det[1][0] / det[1][1] > 0.95 and 0.75 < det[2][0] / det[2][1] < 0.9 and det[3][0] / det[3][1] < 0.5
    for text, determiner, noun in pairs("det"):
        predicted = predictions(text)[2, 8, determiner]  # a word index
        if noun - determiner > 1 and predicted != noun:  # "it stops at an adjective"
            assert determiner < predicted < noun, text
    dobj = accuracy_by_distance("dobj", 2, 0)
    shares = [dobj[k][0] / dobj[k][1] for k in (-2, -3, -4, -5)]
    assert shares == sorted(shares, reverse=True) and shares[0] > 0.9  # "less and less often the further back"

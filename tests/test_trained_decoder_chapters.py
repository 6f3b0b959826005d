"""Claims made in prose by the chapters on SmolLM2-135M-Instruct: "Attention in a trained decoder"
and "Induction heads: how a decoder copies".

Their code blocks check the numbers they print; these tests check the statements the pages make
around them about the model's real weights.
"""

import numpy as np
import pytest

import smollm
import smollm_heads as sh


# That their prose names no number their code does not print: tests/test_trained_model_chapter.py.



@pytest.fixture(scope="module")
def sentence():
    tokens, _, weights, _ = smollm.run(sh.SENTENCE)
    return tokens, weights


@pytest.fixture(scope="module")
def scores():
    return (sh.induction_scores(sh.repeated_texts()), sh.induction_scores(sh.unrepeated_texts()),
            sh.previous_token_scores(sh.unrepeated_texts()))


def test_the_heads_are_where_the_pages_say(scores):
    induction, baseline, previous = scores
    assert {layer for layer, _ in sh.top_heads(induction)} == {17, 18}  # "all in layers 17 and 18"
    assert induction[tuple(zip(*sh.top_heads(induction)))].min() > 0.8  # "above 0.8"
    above = sh.heads_above(induction, 0.3)
    assert len(above) == 14 and min(layer for layer, _ in above) == 17  # "none of them in the first 17 layers"
    assert baseline[tuple(zip(*above))].max() < 0.03
    assert [layer for layer, _ in sh.top_heads(previous, 2)] == [11, 16]  # "just below them, in layers 11 and 16"
    named = sh.top_heads(induction) + sh.top_heads(previous)
    assert all(min(induction[h], previous[h]) < 0.15 for h in named)  # "none of the named heads does both"


def test_the_heads_chosen_on_four_texts_hold_on_the_held_out_texts(scores):
    held = sh.induction_scores(sh.held_out_texts())
    assert all(held[h] > 0.75 for h in sh.top_heads(scores[0]))


def test_the_induction_stripe_and_the_first_token_in_the_sentence(sentence):
    tokens, weights = sentence
    layer, head = sh.induction_heads()[0]
    rows = weights[layer, head]
    assert rows[8].argmax() == 2 and rows[11].argmax() == 5  # " black" -> " cat", the last " the" -> " milk"
    assert rows[7, 0] > 0.9  # " The", with its space, never came before: its row stays on the first token
    last = rows[-1]
    assert np.argsort(-last)[:2].tolist() == [sh.MILK, 0]  # " milk", then the first token takes most of the rest
    assert last[sh.MILK] + last[0] > 0.98


def test_the_previous_token_head_looks_one_back_in_the_sentence(sentence):
    _, weights = sentence
    layer, head = sh.previous_token_heads()[0]
    assert weights[layer, head, sh.MILK].argmax() == sh.MILK - 1  # " milk" at " the"


def test_the_other_two_heads_of_the_induction_heads_group_park_on_the_first_token(sentence):
    _, weights = sentence
    layer, head = sh.induction_heads()[0]
    group = [h for h in range(head - head % 3, head - head % 3 + 3) if h != head]
    assert all(weights[layer, h, -1, 0] > 0.9 for h in group)  # "almost everything on the first token"


def test_the_removals_say_what_the_page_says():
    table = {(name, how, tuple(heads)): rest for name, how, heads, *rest in sh.removals()}
    nothing = next(rest for (name, _, _), rest in table.items() if name == "nothing")
    p0, _, copying0, natural0, _ = nothing
    for (name, how, heads), (p, weight, copying, natural, score) in table.items():
        if name in ("induction", "all induction", "previous"):
            assert p >= p0 - 0.01, (name, how)  # the circuit's removals do not lower p(" milk")
            assert abs(natural - natural0) < 0.2, (name, how)  # ordinary text hardly changes
        if name == "random":
            assert copying - copying0 < 0.3  # "at most about a quarter of a nat", fourteen "no more"
            if len(heads) == 4:
                assert 0.15 < p < 0.35  # "between 0.19 and 0.30"
    strongest_previous = tuple(sh.previous_token_heads()[:2])
    assert table[("previous", "zero", strongest_previous)][4] < table[("nothing", "zero", ())][4] / 2
    assert table[("all induction", "zero", tuple(sh.heads_above(sh.induction_scores(sh.repeated_texts()), 0.3)))][2] > 9
    first, _ = sh.losses(sh.held_out_texts())
    assert first > 13  # where nothing can be copied


def test_rope_alone_makes_the_score_depend_on_the_offset():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 64))
    turned_q = sh.rotary_position_embedding(np.tile(q, (40, 1)), smollm.ROPE_BASE)
    turned_k = sh.rotary_position_embedding(np.tile(k, (40, 1)), smollm.ROPE_BASE)
    assert np.isclose(turned_q[30] @ turned_k[27], turned_q[10] @ turned_k[7])


def test_the_models_rows_do_know_their_position():
    """The page says the rows learn where they are in other ways: a probe finds it (Haviv et al. 2022)."""
    texts = sh.unrepeated_texts()
    x = np.concatenate([smollm.run(t)[1][20] for t in texts])  # layer 20's rows, (4 * 26, 576)
    positions = np.concatenate([np.arange(len(smollm.tokenize(t)[0])) for t in texts])
    train, test = slice(0, 78), slice(78, None)  # three texts to fit, one to test
    features = np.c_[x, np.ones(len(x))]
    w = np.linalg.solve(features[train].T @ features[train] + 10 * np.eye(features.shape[1]),
                        features[train].T @ positions[train])
    predicted = features[test] @ w
    assert np.corrcoef(predicted, positions[test])[0, 1] > 0.8

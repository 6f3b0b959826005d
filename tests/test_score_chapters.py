"""Claims that the pages query-key-scores, weighted-values and query-key-value
make in their prose (not in a printed block), checked against the code."""

import numpy as np

from attention import scaled_dot_product_attention, softmax
from running_example import D_K, FEATURES, SOURCE_WORDS, W_Q, source_qkv

Q, K, V = source_qkv()
FACTORS = Q @ K.T
WORD = {w: i for i, w in enumerate(SOURCE_WORDS)}
BLUE, BALL = WORD["blue"], WORD["ball"]


def test_every_key_names_one_kind_so_a_factor_is_an_entry_of_the_query():
    """query-key-scores: "the dot product of a query with a key is simply the entry of the query for that kind"."""
    for j, key in enumerate(K):
        assert sorted(key.tolist()) == [0, 0, 0, 1]
        np.testing.assert_array_equal(FACTORS[:, j], Q[:, key.argmax()])


def test_the_large_factors_are_the_ones_the_text_explains():
    """query-key-scores: blue→ball 4, blue→The/is −2, The→ball 4, ball→blue 3, is→ball 2, is→blue 2, rest 0."""
    explained = {("blue", "ball"): 4, ("blue", "The"): -2, ("blue", "is"): -2, ("The", "ball"): 4,
                 ("ball", "blue"): 3, ("is", "ball"): 2, ("is", "blue"): 2}
    for (query, key), value in explained.items():
        assert FACTORS[WORD[query], WORD[key]] == value
    rest = np.ones_like(FACTORS, dtype=bool)
    for query, key in explained:
        rest[WORD[query], WORD[key]] = False
    assert np.all(FACTORS[rest] == 0)
    assert np.all(FACTORS.diagonal() == 0)  # no word scores itself


def test_the_weights_say_what_the_chapters_say_each_kind_wants():
    """input-to-attention: a thing wants its colour (3); a colour wants a thing (4) and turns away from
    articles and verbs (−2); an article wants its thing (4); a verb wants both (2 each)."""
    kinds = {f: i for i, f in enumerate(FEATURES)}
    wants = W_Q[:len(FEATURES)]
    assert wants[kinds["thing"]].tolist() == [0, 3, 0, 0]
    assert wants[kinds["colour"]].tolist() == [4, 0, -2, -2]
    assert wants[kinds["article"]].tolist() == [4, 0, 0, 0]
    assert wants[kinds["verb"]].tolist() == [2, 2, 0, 0]


def test_only_one_product_of_blue_and_ball_is_not_zero():
    products = Q[BLUE] * K[BALL]
    assert np.count_nonzero(products) == 1 and products[FEATURES.index("thing")] == 4


def test_the_factor_matrix_is_not_symmetric():
    assert not np.allclose(FACTORS, FACTORS.T)
    assert FACTORS[BLUE, WORD["The"]] == -2 and FACTORS[WORD["The"], BLUE] == 0


def test_raw_outputs_leave_the_range_of_the_values():
    """weighted-values: Value entries are 0 or 1; (QKᵀ)V for blue is (4, 0, −4)."""
    assert set(np.unique(V)) == {0.0, 1.0}
    np.testing.assert_array_equal((FACTORS @ V)[BLUE], [4, 0, -4])


def test_attention_output_stays_within_the_range_of_the_values():
    """weighted-values: with softmax weights the output is a weighted average of Value rows."""
    output, _ = scaled_dot_product_attention(Q, K, V)
    assert np.all(output >= V.min(axis=0)) and np.all(output <= V.max(axis=0))


def test_softmax_by_hand_for_blue_and_ball():
    """query-key-value: e^2 / (e^-1 + e^2 + e^-1 + e^0) = 7.39 / 9.12 = 0.81."""
    scores = FACTORS[BLUE] / np.sqrt(D_K)
    np.testing.assert_array_equal(scores, [-1, 2, -1, 0])
    assert round(np.exp(2), 2) == 7.39 and round(np.exp(scores).sum(), 2) == 9.12
    assert round(softmax(scores)[BALL], 2) == 0.81


def test_scaling_and_softmax_keep_the_order_within_every_row():
    """query-key-value: the key with the largest factor gets the largest weight, ties stay ties."""
    weights = softmax(FACTORS / np.sqrt(D_K), axis=-1)
    for factors_row, weights_row in zip(FACTORS, weights):
        for a in range(len(SOURCE_WORDS)):
            for b in range(len(SOURCE_WORDS)):
                assert np.sign(factors_row[a] - factors_row[b]) == np.sign(
                    np.round(weights_row[a] - weights_row[b], 12))


def test_scaling_changes_the_weights():
    """query-key-value: without the division, ball would get 0.98 of blue's attention, not 0.81."""
    assert round(softmax(FACTORS[BLUE])[BALL], 2) == 0.98
    assert round(softmax(FACTORS[BLUE] / np.sqrt(D_K))[BALL], 2) == 0.81


def test_a_second_thing_halves_balls_share():
    """query-key-value: give "The" the key of "ball" and ball's weight falls from 0.81 to 0.46."""
    k = K.copy()
    k[WORD["The"]] = K[BALL]
    weights = softmax(Q @ k.T / np.sqrt(D_K), axis=-1)
    assert round(weights[BLUE, BALL], 2) == round(weights[BLUE, WORD["The"]], 2) == 0.46

"""Claims that the pages query-key-scores, weighted-values and query-key-value
make in their prose (not in a printed block), checked against the code."""

import numpy as np

from attention import scaled_dot_product_attention, softmax
from running_example import D_K, SOURCE_WORDS, source_qkv

Q, K, V = source_qkv()
FACTORS = Q @ K.T
BLUE = SOURCE_WORDS.index("blue")


def test_blue_matches_ball_best_and_the_diagonal_is_not_the_largest():
    """query-key-scores: ball 5.78 > blue 3.72 > is 2.42 > The -3.02."""
    row = FACTORS[BLUE]
    assert [SOURCE_WORDS[j] for j in np.argsort(-row)] == ["ball", "blue", "is", "The"]
    assert row.argmax() != BLUE


def test_blue_dot_ball_has_two_agreeing_components_and_one_disagreeing():
    """query-key-scores: components 2 and 3 share a sign, component 1 does not."""
    signs = np.sign(Q[BLUE]) == np.sign(K[SOURCE_WORDS.index("ball")])
    assert signs.tolist() == [False, True, True]


def test_the_factor_matrix_is_not_symmetric():
    assert not np.allclose(FACTORS, FACTORS.T)


def test_raw_outputs_leave_the_range_of_the_values():
    """weighted-values: Value entries never exceed 1.8 in size, (QKᵀ)V reaches -18.65."""
    assert np.isclose(np.abs(V).max(), 1.8)
    assert (FACTORS @ V)[BLUE].min().round(2) == -18.65


def test_attention_output_stays_within_the_range_of_the_values():
    """weighted-values: with softmax weights the output is a weighted average of Value rows."""
    output, _ = scaled_dot_product_attention(Q, K, V)
    assert np.all(output >= V.min(axis=0)) and np.all(output <= V.max(axis=0))


def test_scaling_and_softmax_keep_the_order_within_every_row():
    """query-key-value: the key with the largest factor gets the largest weight, in every row."""
    weights = softmax(FACTORS / np.sqrt(D_K), axis=-1)
    for factors_row, weights_row in zip(FACTORS, weights):
        assert np.argsort(factors_row).tolist() == np.argsort(weights_row).tolist()


def test_a_key_equal_to_blues_query_takes_the_largest_share():
    """query-key-value: with k_The = q_blue, "The" gets blue's largest weight."""
    k = K.copy()
    k[SOURCE_WORDS.index("The")] = Q[BLUE]
    weights = softmax(Q @ k.T / np.sqrt(D_K), axis=-1)
    assert SOURCE_WORDS[weights[BLUE].argmax()] == "The"

"""Unit and property tests of snippets/attention.py, the code readers copy."""

import doctest

import numpy as np
import pytest

import attention
from attention import scaled_dot_product_attention, softmax

RNG = np.random.default_rng(0)


def naive_attention(q, k, v):
    """The textbook definition, one query and one key at a time (2-D inputs)."""
    n_q, d_k = q.shape
    n_k = k.shape[0]
    weights = np.zeros((n_q, n_k))
    for i in range(n_q):
        scores = [sum(q[i, c] * k[j, c] for c in range(d_k)) / np.sqrt(d_k) for j in range(n_k)]
        exps = [np.exp(s - max(scores)) for s in scores]
        for j in range(n_k):
            weights[i, j] = exps[j] / sum(exps)
    output = np.zeros((n_q, v.shape[1]))
    for i in range(n_q):
        for j in range(n_k):
            output[i] += weights[i, j] * v[j]
    return output, weights


@pytest.mark.parametrize("n_q, n_k, d_k, d_v", [(1, 1, 1, 1), (4, 4, 3, 3), (3, 5, 2, 4), (6, 2, 8, 1)])
def test_attention_equals_double_loop(n_q, n_k, d_k, d_v):
    q, k, v = RNG.normal(size=(n_q, d_k)), RNG.normal(size=(n_k, d_k)), RNG.normal(size=(n_k, d_v))
    output, weights = scaled_dot_product_attention(q, k, v)
    expected_output, expected_weights = naive_attention(q, k, v)
    assert output.shape == (n_q, d_v) and weights.shape == (n_q, n_k)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-12)
    np.testing.assert_allclose(output, expected_output, rtol=1e-12, atol=1e-12)


def test_weight_rows_sum_to_one_and_are_probabilities():
    for _ in range(20):
        n_q, n_k, d = RNG.integers(1, 8, size=3)
        q, k, v = (RNG.normal(scale=5, size=(n, d)) for n in (n_q, n_k, n_k))
        _, weights = scaled_dot_product_attention(q, k, v)
        np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
        assert np.all(weights >= 0) and np.all(weights <= 1)


def test_batched_inputs_match_one_sentence_at_a_time():
    q, k, v = RNG.normal(size=(2, 3, 4, 5)), RNG.normal(size=(2, 3, 6, 5)), RNG.normal(size=(2, 3, 6, 2))
    output, weights = scaled_dot_product_attention(q, k, v)
    assert output.shape == (2, 3, 4, 2) and weights.shape == (2, 3, 4, 6)
    for b in range(2):
        for h in range(3):
            o, w = naive_attention(q[b, h], k[b, h], v[b, h])
            np.testing.assert_allclose(output[b, h], o, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(weights[b, h], w, rtol=1e-12)


def test_softmax_ignores_a_constant_added_along_the_axis():
    x = RNG.normal(size=(4, 7))
    np.testing.assert_allclose(softmax(x + 123.4), softmax(x), rtol=1e-12)
    np.testing.assert_allclose(softmax(x + RNG.normal(size=(4, 1))), softmax(x), rtol=1e-12)
    np.testing.assert_allclose(softmax(x, axis=0), softmax(x + RNG.normal(size=(1, 7)), axis=0), rtol=1e-12)


@pytest.mark.parametrize("scale", [1e4, -1e4, 1e300])
def test_softmax_is_finite_for_huge_inputs(scale):
    x = np.array([[1.0, 2.0, 3.0], [3.0, 3.0, -1.0]]) * scale
    y = softmax(x)
    assert np.all(np.isfinite(y))
    np.testing.assert_allclose(y.sum(axis=-1), 1.0)


def test_attention_is_finite_for_huge_scores():
    q = np.array([[1e4, -1e4]])
    k = np.array([[1e4, 1e4], [-1e4, 1e4]])
    _, weights = scaled_dot_product_attention(q, k, np.eye(2))
    assert np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights.sum(), 1.0)


def test_masked_weights_are_exactly_zero_and_rows_renormalise():
    q, k, v = RNG.normal(size=(5, 3)), RNG.normal(size=(5, 3)), RNG.normal(size=(5, 2))
    causal = np.tril(np.ones((5, 5), dtype=bool))
    output, weights = scaled_dot_product_attention(q, k, v, mask=causal)
    assert np.all(weights[~causal] == 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    # each row equals attention over the keys it may see, computed without a mask
    for i in range(5):
        o, w = scaled_dot_product_attention(q[i:i + 1], k[:i + 1], v[:i + 1])
        np.testing.assert_allclose(weights[i, :i + 1], w[0], rtol=1e-12)
        np.testing.assert_allclose(output[i], o[0], rtol=1e-12, atol=1e-12)


def test_mask_broadcasts_over_batch_dimensions():
    q, k, v = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 3, 4))
    key_mask = np.array([True, True, False])  # (n_k,) -> every query ignores the last key
    _, weights = scaled_dot_product_attention(q, k, v, mask=key_mask)
    assert np.all(weights[..., 2] == 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0)


def test_query_with_every_key_masked_gets_zero_weights_and_zero_output():
    q, k, v = RNG.normal(size=(3, 2)), RNG.normal(size=(4, 2)), RNG.normal(size=(4, 5))
    mask = np.ones((3, 4), dtype=bool)
    mask[1] = False
    output, weights = scaled_dot_product_attention(q, k, v, mask=mask)
    assert not np.any(np.isnan(output)) and not np.any(np.isnan(weights))
    assert np.all(weights[1] == 0.0) and np.all(output[1] == 0.0)
    np.testing.assert_allclose(weights[[0, 2]].sum(axis=-1), 1.0)


@pytest.mark.parametrize("q_shape, k_shape, v_shape, message", [
    ((4,), (4, 3), (4, 3), "q must have at least 2 dimensions"),
    ((4, 3), (3,), (4, 3), "k must have at least 2 dimensions"),
    ((4, 3), (4, 3), (4,), "v must have at least 2 dimensions"),
    ((4, 3), (4, 2), (4, 3), "same last dimension d_k"),
    ((4, 3), (4, 3), (5, 3), "same number of rows n_k"),
    ((4, 0), (4, 0), (4, 3), "d_k must be at least 1"),
    ((4, 3), (0, 3), (0, 3), "at least one row"),
    ((2, 4, 3), (3, 4, 3), (3, 4, 3), "do not broadcast"),
])
def test_mismatched_shapes_raise_a_plain_value_error(q_shape, k_shape, v_shape, message):
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(np.ones(q_shape), np.ones(k_shape), np.ones(v_shape))


@pytest.mark.parametrize("mask, message", [
    (np.ones((3, 3), dtype=bool), "does not broadcast"),
    (np.ones((4, 5, 5), dtype=bool), "does not broadcast"),
    (np.ones((4, 5)), "must be a boolean array"),
    (np.zeros((4, 5)) - np.inf, "must be a boolean array"),
])
def test_bad_masks_raise_a_plain_value_error(mask, message):
    q, k, v = np.ones((4, 2)), np.ones((5, 2)), np.ones((5, 2))
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(q, k, v, mask=mask)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_infinite_inputs_raise_instead_of_returning_nan(bad):
    q = np.ones((2, 2))
    q[0, 1] = bad
    with pytest.raises(ValueError, match="q contains NaN or infinity"):
        scaled_dot_product_attention(q, np.ones((3, 2)), np.ones((3, 2)))


def test_docstring_examples_hold():
    result = doctest.testmod(attention, extraglobs={"np": np})
    assert result.attempted >= 4 and result.failed == 0

"""Unit and property tests of snippets/attention.py, the code readers copy."""

import doctest
import importlib

import numpy as np
import pytest

import attention
from attention import look_ahead_mask, scaled_dot_product_attention, softmax
from conftest import SNIPPETS

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


def test_look_ahead_mask_lets_each_word_see_itself_and_the_words_before():
    mask = look_ahead_mask(4)
    assert mask.dtype == bool and mask.shape == (4, 4)
    assert all(mask[i, j] == (j <= i) for i in range(4) for j in range(4))
    for bad in (0, -1, 2.0, True, "3"):
        with pytest.raises(ValueError, match="positive integer"):
            look_ahead_mask(bad)


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


def test_score_bias_is_added_to_the_scaled_scores_before_masking_and_softmax():
    q, k, v = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 5, 4)), RNG.normal(size=(2, 5, 6))
    bias = RNG.normal(size=(3, 5))  # broadcast over the batch
    mask = RNG.random((2, 3, 5)) < 0.8
    mask[..., 0] = True
    output, weights = scaled_dot_product_attention(q, k, v, mask=mask, score_bias=bias)
    scores = np.where(mask, q @ np.swapaxes(k, -1, -2) / 2.0 + bias, -np.inf)  # sqrt(d_k) = 2
    expected = np.exp(scores - scores.max(axis=-1, keepdims=True))
    expected /= expected.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(weights, expected)
    np.testing.assert_allclose(output, expected @ v)
    unbiased, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    assert not np.allclose(output, unbiased)


@pytest.mark.parametrize("bias, message", [
    (np.ones((3, 4)), "score_bias of shape"),
    (np.full((3, 5), np.nan), "score_bias contains NaN"),
    (np.full((3, 5), -np.inf), "score_bias contains NaN or infinity"),
])
def test_a_score_bias_that_does_not_fit_is_refused(bias, message):
    q, k, v = RNG.normal(size=(3, 2)), RNG.normal(size=(5, 2)), RNG.normal(size=(5, 2))
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(q, k, v, score_bias=bias)


def test_multi_head_attention_adds_a_score_bias_per_head():
    """A T5-style bias, one (n_q, n_k) table per head, reaches each head's scores."""
    x = RNG.normal(size=(4, 6))
    w_q, w_k, w_v, w_o = RNG.normal(size=(4, 6, 6))
    bias = RNG.normal(size=(2, 4, 4))  # (n_heads, n_q, n_k)
    output, weights = multi_head_attention(x, x, w_q, w_k, w_v, w_o, n_heads=2, score_bias=bias)
    for h in range(2):
        columns = slice(3 * h, 3 * h + 3)
        _, expected = scaled_dot_product_attention((x @ w_q)[:, columns], (x @ w_k)[:, columns],
                                                   (x @ w_v)[:, columns], score_bias=bias[h])
        np.testing.assert_allclose(weights[h], expected)
    _, unbiased = multi_head_attention(x, x, w_q, w_k, w_v, w_o, n_heads=2)
    assert not np.allclose(weights, unbiased)


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


# Every snippet whose docstrings show examples; the two models' run in test_minilm.py and test_smollm.py,
# in the worker that has the model loaded.
WITH_EXAMPLES = sorted(p.stem for p in SNIPPETS.glob("*.py") if ">>> " in p.read_text(encoding="utf-8")
                       and p.stem not in ("attention", "minilm", "smollm", "smollm_heads", "minilm_heads"))


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_every_snippets_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_every_snippet_with_examples_is_checked_somewhere():
    assert {"position_encoding", "plotting", "running_example", "trained_models"} <= set(WITH_EXAMPLES)


# --- Multi-head attention -------------------------------------------------------------------

from attention import merge_heads, multi_head_attention, split_heads  # noqa: E402


def heads_by_loop(x_q, x_kv, w_q, w_k, w_v, w_o, n_heads):
    """One head at a time, on the column slices of the projections (2-D inputs)."""
    d_head = x_q.shape[-1] // n_heads
    outputs, weights = [], []
    for h in range(n_heads):
        columns = slice(h * d_head, (h + 1) * d_head)
        out, w = naive_attention(x_q @ w_q[:, columns], x_kv @ w_k[:, columns], x_kv @ w_v[:, columns])
        outputs.append(out)
        weights.append(w)
    return np.concatenate(outputs, axis=-1) @ w_o, np.stack(weights)


def random_weights(d_model):
    return RNG.normal(size=(4, d_model, d_model))  # w_q, w_k, w_v, w_o


@pytest.mark.parametrize("n_q, n_k, d_model, n_heads", [(4, 4, 6, 2), (3, 5, 8, 4), (2, 2, 5, 1), (1, 3, 6, 6)])
def test_multi_head_attention_equals_a_loop_over_heads(n_q, n_k, d_model, n_heads):
    x_q, x_kv = RNG.normal(size=(n_q, d_model)), RNG.normal(size=(n_k, d_model))
    w = random_weights(d_model)
    output, weights = multi_head_attention(x_q, x_kv, *w, n_heads=n_heads)
    expected_output, expected_weights = heads_by_loop(x_q, x_kv, *w, n_heads)
    assert output.shape == (n_q, d_model) and weights.shape == (n_heads, n_q, n_k)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-12)
    np.testing.assert_allclose(output, expected_output, rtol=1e-10, atol=1e-12)


def torch_multihead_attention(query, key, value, in_proj_weight, out_proj_weight, num_heads,
                              attn_mask=None, average_attn_weights=True,
                              in_proj_bias=None, out_proj_bias=None):
    """PyTorch's nn.MultiheadAttention(E, num_heads, bias=False), written out in NumPy
    (with in_proj_bias and out_proj_bias, nn.MultiheadAttention(E, num_heads)).

    Follows the documented computation (torch.nn.functional.multi_head_attention_forward):
    inputs (L, N, E) (batch_first=False); weights stored as for nn.Linear, applied as x @ W.T;
    in_proj_weight (3E, E) stacks the query, key and value projections; heads split the
    projected E columns into num_heads contiguous blocks of E / num_heads; a boolean
    attn_mask (L, S) is True where attention is NOT allowed; weights averaged over heads.
    """
    L, N, E = query.shape
    S = key.shape[0]
    head_dim = E // num_heads
    w_q, w_k, w_v = np.split(in_proj_weight, 3)  # each (E, E)
    b_q, b_k, b_v = np.split(np.zeros(3 * E) if in_proj_bias is None else in_proj_bias, 3)  # each (E,)
    q, k, v = query @ w_q.T + b_q, key @ w_k.T + b_k, value @ w_v.T + b_v  # (L, N, E), (S, N, E), (S, N, E)
    q = q.reshape(L, N * num_heads, head_dim).transpose(1, 0, 2)  # (N*H, L, hd)
    k = k.reshape(S, N * num_heads, head_dim).transpose(1, 0, 2)  # (N*H, S, hd)
    v = v.reshape(S, N * num_heads, head_dim).transpose(1, 0, 2)  # (N*H, S, hd)
    scores = (q / np.sqrt(head_dim)) @ k.transpose(0, 2, 1)  # (N*H, L, S)
    if attn_mask is not None:
        scores = np.where(attn_mask, -np.inf, scores)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).transpose(1, 0, 2).reshape(L, N, E)  # (L, N, E)
    weights = weights.reshape(N, num_heads, L, S)
    out = out @ out_proj_weight.T + (0 if out_proj_bias is None else out_proj_bias)
    return out, weights.mean(axis=1) if average_attn_weights else weights


def test_multi_head_attention_matches_pytorch_conventions_as_the_docstring_maps_them():
    L, S, N, E, H = 4, 5, 2, 8, 4
    query, key = RNG.normal(size=(L, N, E)), RNG.normal(size=(S, N, E))
    in_proj_weight, out_proj_weight = RNG.normal(size=(3 * E, E)), RNG.normal(size=(E, E))
    attn_mask = np.triu(np.ones((L, S), dtype=bool), k=1)  # True = may not attend
    expected, expected_weights = torch_multihead_attention(
        query, key, key, in_proj_weight, out_proj_weight, H, attn_mask, average_attn_weights=False)
    w_q, w_k, w_v = (w.T for w in np.split(in_proj_weight, 3))  # as the docstring says
    output, weights = multi_head_attention(query.transpose(1, 0, 2), key.transpose(1, 0, 2),
                                           w_q, w_k, w_v, out_proj_weight.T, H, mask=~attn_mask)
    np.testing.assert_allclose(output, expected.transpose(1, 0, 2), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-10, atol=1e-15)
    _, averaged = torch_multihead_attention(query, key, key, in_proj_weight, out_proj_weight, H, attn_mask)
    np.testing.assert_allclose(weights.mean(axis=1), averaged, rtol=1e-10, atol=1e-15)


def test_multi_head_attention_with_biases_matches_pytorch_with_bias():
    L, S, N, E, H = 4, 5, 2, 8, 4
    query, key = RNG.normal(size=(L, N, E)), RNG.normal(size=(S, N, E))
    in_proj_weight, out_proj_weight = RNG.normal(size=(3 * E, E)), RNG.normal(size=(E, E))
    in_proj_bias, out_proj_bias = RNG.normal(size=3 * E), RNG.normal(size=E)
    expected, expected_weights = torch_multihead_attention(
        query, key, key, in_proj_weight, out_proj_weight, H, average_attn_weights=False,
        in_proj_bias=in_proj_bias, out_proj_bias=out_proj_bias)
    w_q, w_k, w_v = (w.T for w in np.split(in_proj_weight, 3))
    biases = (*np.split(in_proj_bias, 3), out_proj_bias)
    output, weights = multi_head_attention(query.transpose(1, 0, 2), key.transpose(1, 0, 2),
                                           w_q, w_k, w_v, out_proj_weight.T, H, biases=biases)
    np.testing.assert_allclose(output, expected.transpose(1, 0, 2), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-10, atol=1e-15)
    unbiased, _ = multi_head_attention(query.transpose(1, 0, 2), key.transpose(1, 0, 2),
                                       w_q, w_k, w_v, out_proj_weight.T, H)
    assert not np.allclose(output, unbiased)  # the biases were used


def test_multi_head_attention_takes_batches_and_a_mask_for_every_head():
    x = RNG.normal(size=(3, 4, 6))  # (batch, n, d_model)
    w = random_weights(6)
    causal = np.tril(np.ones((4, 4), dtype=bool))
    output, weights = multi_head_attention(x, x, *w, n_heads=3, mask=causal)
    assert output.shape == (3, 4, 6) and weights.shape == (3, 3, 4, 4)
    assert np.all(weights[..., ~causal] == 0)
    for b in range(3):
        one, one_weights = multi_head_attention(x[b], x[b], *w, n_heads=3, mask=causal)
        np.testing.assert_allclose(output[b], one, rtol=1e-12)
        np.testing.assert_allclose(weights[b], one_weights, rtol=1e-12)
    per_sentence = np.ones((3, 1, 4, 4), dtype=bool)
    per_sentence[1, ..., 3] = False  # sentence 1: key 3 is padding, for every head
    _, weights = multi_head_attention(x, x, *w, n_heads=3, mask=per_sentence)
    assert np.all(weights[1, ..., 3] == 0) and np.all(weights[[0, 2], ..., 3] > 0)


def test_split_heads_takes_contiguous_column_blocks_and_merge_heads_undoes_it():
    x = np.arange(2 * 3 * 6.0).reshape(2, 3, 6)  # (batch, n, d_model)
    heads = split_heads(x, 3)  # (batch, n_heads, n, d_head)
    assert heads.shape == (2, 3, 3, 2)
    np.testing.assert_array_equal(heads[:, 1], x[..., 2:4])
    np.testing.assert_array_equal(merge_heads(heads), x)


@pytest.mark.parametrize("change, message", [
    (dict(n_heads=4), "not divisible by n_heads"),
    (dict(n_heads=0), "positive integer"),
    (dict(n_heads=1.5), "positive integer"),
    (dict(x_kv=np.ones((3, 5))), "same last dimension d_model"),
    (dict(w_k=np.ones((6, 4))), r"w_k must have shape \(d_model, d_model\)"),
    (dict(x_q=np.ones(6)), "at least 2 dimensions"),
    (dict(w_o=np.full((6, 6), np.nan)), "w_o contains NaN"),
    (dict(x_q=np.full((3, 6), np.inf)), "x_q contains NaN or infinity"),
    (dict(mask=np.ones((2, 3, 3))), "mask must be a boolean array"),
    (dict(biases=(np.zeros(6),) * 3), r"four vectors \(b_q, b_k, b_v, b_o\)"),
    (dict(biases=(np.zeros(6), np.zeros(5), np.zeros(6), np.zeros(6))), r"b_k must have shape \(d_model,\)"),
    (dict(biases=(np.zeros(6),) * 3 + (np.full(6, np.nan),)), "b_o contains NaN"),
])
def test_multi_head_attention_rejects_bad_input_with_a_plain_value_error(change, message):
    arguments = dict(x_q=np.ones((3, 6)), x_kv=np.ones((3, 6)), w_q=np.eye(6), w_k=np.eye(6),
                     w_v=np.eye(6), w_o=np.eye(6), n_heads=2)
    with pytest.raises(ValueError, match=message):
        multi_head_attention(**{**arguments, **change})


# --- The residual connection and layer normalisation ----------------------------------------

from attention import add_and_norm, layer_norm  # noqa: E402


def test_layer_norm_gives_each_row_mean_zero_and_variance_one():
    x = RNG.normal(3.0, 5.0, size=(2, 4, 7))  # (batch, n, d_model), far from mean 0, variance 1
    y = layer_norm(x)
    np.testing.assert_allclose(y.mean(axis=-1), 0, atol=1e-12)
    np.testing.assert_allclose(y.var(axis=-1), 1, atol=1e-5)  # 1 / (1 + eps / variance)
    np.testing.assert_allclose(layer_norm(x[1]), y[1])  # row by row: a batch changes nothing


def test_layer_norm_matches_the_written_out_formula_with_and_without_scale_and_shift():
    x = RNG.normal(size=(5, 6))
    scale, shift = RNG.normal(size=6), RNG.normal(size=6)
    by_hand = np.array([(row - row.mean()) / np.sqrt(((row - row.mean()) ** 2).mean() + 1e-5) for row in x])
    np.testing.assert_allclose(layer_norm(x), by_hand, rtol=1e-12)
    np.testing.assert_allclose(layer_norm(x, scale, shift), by_hand * scale + shift, rtol=1e-12)
    np.testing.assert_allclose(layer_norm(x, np.ones(6), np.zeros(6)), layer_norm(x), rtol=1e-12)


def test_a_learned_shift_or_scale_can_change_the_order_that_plain_layer_norm_keeps():
    x = np.array([[3.0, 1.0, 0.0]])  # normalised: about 1.34, -0.27, -1.07
    assert np.argmax(layer_norm(x)) == 0
    assert np.argmax(layer_norm(x, shift=np.array([0.0, 0.0, 3.0]))) == 2
    assert np.argmax(layer_norm(x, scale=np.array([0.1, -4.0, 1.0]))) == 1


def test_layer_norm_ignores_a_shift_and_a_positive_scale_of_a_row_but_keeps_its_order():
    x = RNG.normal(size=(3, 6))
    np.testing.assert_allclose(layer_norm(4.0 * x + 7.0, eps=1e-12), layer_norm(x, eps=1e-12), atol=1e-9)
    np.testing.assert_array_equal(np.argsort(layer_norm(x)), np.argsort(x))


def test_a_row_of_equal_entries_normalises_to_zeros_not_nan():
    np.testing.assert_array_equal(layer_norm(np.full((2, 4), 3.0)), np.zeros((2, 4)))


def test_add_and_norm_adds_before_it_normalises():
    x, out = RNG.normal(size=(4, 6)), RNG.normal(size=(4, 6))
    np.testing.assert_allclose(add_and_norm(x, out), layer_norm(x + out))
    assert not np.allclose(add_and_norm(x, out), layer_norm(out))  # the input row is kept


@pytest.mark.parametrize("call, message", [
    (lambda: layer_norm(np.ones(6)), "at least 2 dimensions"),
    (lambda: layer_norm(np.ones((3, 0))), "at least one column"),
    (lambda: layer_norm(np.full((3, 6), np.nan)), "x contains NaN"),
    (lambda: layer_norm(np.ones((3, 6)), eps=0), "eps must be positive"),
    (lambda: layer_norm(np.ones((3, 6)), scale=np.ones(5)), "scale must hold one number per column"),
    (lambda: layer_norm(np.ones((3, 6)), shift=np.ones((3, 6))), "shift must hold one number per column"),
    (lambda: add_and_norm(np.ones((3, 6)), np.ones((3, 4))), "same shape"),
    (lambda: add_and_norm(np.ones((3, 6)), np.ones((1, 6))), "same shape"),  # no broadcasting
    (lambda: add_and_norm(np.ones((3, 6)), np.full((3, 6), np.inf)), "sublayer_out contains NaN"),
])
def test_layer_norm_and_add_and_norm_reject_bad_input_with_a_plain_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()

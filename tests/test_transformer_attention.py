"""Attention in the Transformer's three places: encoder, decoder, encoder-decoder.

The claims of the chapters encoder-self-attention, decoder-self-attention and
encoder-decoder-attention, checked on the running example's toy vectors.
"""

import numpy as np
import pytest

import running_example as ex
from attention import scaled_dot_product_attention

N_T = len(ex.TARGET_WORDS)
LOOK_AHEAD = np.tril(np.ones((N_T, N_T), dtype=bool))  # True = key j <= query i


def decoder_self_attention(x, mask):
    """Decoder self-attention of the rows x (n, d_model), as on the pages."""
    return scaled_dot_product_attention(*ex.project(x), mask=mask)


# --- the appended running example keeps the toy style --------------------------------

def test_target_vectors_are_toy_sized_and_hand_checkable():
    for word, row in ex.TARGET_EMBEDDINGS.items():
        assert len(row) == ex.D_MODEL, word
        assert np.allclose(np.round(row, 1), row) and np.all(np.abs(row) < 1), word
    assert ex.W_Q_CROSS.shape == (ex.D_MODEL, ex.D_K)
    assert set(np.unique(ex.W_Q_CROSS)) <= {-1.0, 0.0, 1.0}
    assert set(ex.TARGET_WORDS) <= set(ex.TARGET_EMBEDDINGS)
    assert set(ex.LONG_TARGET_WORDS) <= set(ex.TARGET_EMBEDDINGS)
    assert len(ex.LONG_TARGET_WORDS) != len(ex.SOURCE_WORDS)


def test_target_rows_follow_the_source_recipe():
    x = ex.decoder_input(ex.TARGET_WORDS)
    assert x.shape == (N_T, ex.D_MODEL)
    np.testing.assert_allclose(x, np.round(ex.embed_target(ex.TARGET_WORDS) + ex.position_encoding(N_T), 1))
    q, k, v = ex.target_qkv()
    np.testing.assert_allclose(q, x @ ex.W_Q)
    np.testing.assert_allclose(k, x @ ex.W_K)
    np.testing.assert_allclose(v, x @ ex.W_V)


# --- decoder self-attention: the look-ahead mask -------------------------------------

def test_look_ahead_weights_are_zero_above_the_diagonal_and_rows_sum_to_one():
    _, weights = scaled_dot_product_attention(*ex.target_qkv(), mask=LOOK_AHEAD)
    assert weights.shape == (N_T, N_T)
    assert np.all(weights[np.triu_indices(N_T, k=1)] == 0.0)
    assert np.all(weights[np.tril_indices(N_T)] > 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    assert weights[0, 0] == 1.0  # the first word can only attend to itself


def test_changing_the_last_word_leaves_earlier_outputs_unchanged_under_the_mask():
    """The pages' example: "La bola es azul" -> "La bola es roja"."""
    changed = ex.TARGET_WORDS[:-1] + ["roja"]
    z, _ = scaled_dot_product_attention(*ex.target_qkv(ex.TARGET_WORDS), mask=LOOK_AHEAD)
    z_changed, _ = scaled_dot_product_attention(*ex.target_qkv(changed), mask=LOOK_AHEAD)
    np.testing.assert_allclose(z_changed[:-1], z[:-1], rtol=0, atol=1e-12)
    assert not np.allclose(z_changed[-1], z[-1])  # the changed word's own output does move

    z, _ = scaled_dot_product_attention(*ex.target_qkv(ex.TARGET_WORDS))
    z_changed, _ = scaled_dot_product_attention(*ex.target_qkv(changed))
    for i in range(N_T):  # without the mask, every earlier row moves too
        assert np.abs(z_changed[i] - z[i]).max() > 0.1, ex.TARGET_WORDS[i]


@pytest.mark.parametrize("position", range(N_T))
def test_changing_any_target_input_row_affects_only_that_row_and_later_ones(position):
    rng = np.random.default_rng(position)
    x = ex.decoder_input(ex.TARGET_WORDS)
    x_changed = x.copy()
    x_changed[position] += rng.normal(size=ex.D_MODEL)

    z, _ = decoder_self_attention(x, LOOK_AHEAD)
    z_changed, _ = decoder_self_attention(x_changed, LOOK_AHEAD)
    np.testing.assert_allclose(z_changed[:position], z[:position], rtol=0, atol=1e-12)
    assert all(not np.allclose(z_changed[i], z[i]) for i in range(position, N_T))

    z, _ = decoder_self_attention(x, None)
    z_changed, _ = decoder_self_attention(x_changed, None)
    assert all(not np.allclose(z_changed[i], z[i]) for i in range(N_T))


def test_masked_row_equals_attention_over_the_prefix_alone():
    """With the mask, word i sees exactly what it would see if the sentence ended at i."""
    z, _ = scaled_dot_product_attention(*ex.target_qkv(), mask=LOOK_AHEAD)
    for i in range(N_T):
        z_prefix, _ = scaled_dot_product_attention(*ex.target_qkv(ex.TARGET_WORDS[:i + 1]))
        np.testing.assert_allclose(z[i], z_prefix[i], rtol=1e-12, atol=1e-12)


# --- encoder-decoder attention ---------------------------------------------------------

@pytest.mark.parametrize("target", [ex.TARGET_WORDS, ex.LONG_TARGET_WORDS], ids=["4x4", "6x4"])
def test_cross_attention_is_target_rows_by_source_columns(target):
    n_t, n_s = len(target), len(ex.SOURCE_WORDS)
    q, k, v = ex.cross_qkv(target, ex.SOURCE_WORDS)
    assert q.shape == (n_t, ex.D_K) and k.shape == (n_s, ex.D_K) and v.shape == (n_s, ex.D_V)
    output, weights = scaled_dot_product_attention(q, k, v)
    assert weights.shape == (n_t, n_s) and output.shape == (n_t, ex.D_V)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)


def test_the_long_pair_gives_a_six_by_four_matrix():
    q, k, v = ex.cross_qkv(ex.LONG_TARGET_WORDS)
    _, weights = scaled_dot_product_attention(q, k, v)
    assert weights.shape == (6, 4)


def test_cross_attention_keys_and_values_are_the_source_rows():
    _, k, v = ex.cross_qkv()
    _, k_src, v_src = ex.source_qkv()
    np.testing.assert_array_equal(k, k_src)
    np.testing.assert_array_equal(v, v_src)
    q, _, _ = ex.cross_qkv()
    np.testing.assert_allclose(q, ex.decoder_input(ex.TARGET_WORDS) @ ex.W_Q_CROSS)


@pytest.mark.parametrize("target", [ex.TARGET_WORDS, ex.LONG_TARGET_WORDS], ids=["4x4", "6x4"])
def test_azul_attends_most_to_blue_and_bola_to_ball(target):
    _, weights = scaled_dot_product_attention(*ex.cross_qkv(target))
    strongest = {word: ex.SOURCE_WORDS[int(np.argmax(row))] for word, row in zip(target, weights)}
    assert strongest["azul"] == "blue"
    assert strongest["bola"] == "ball"
    assert strongest["La"] == "The"


def test_a_target_row_of_cross_attention_ignores_the_other_target_words():
    """No mask is needed: each target query meets only the source."""
    z, _ = scaled_dot_product_attention(*ex.cross_qkv(ex.TARGET_WORDS))
    z_changed, _ = scaled_dot_product_attention(*ex.cross_qkv(ex.TARGET_WORDS[:-1] + ["roja"]))
    np.testing.assert_allclose(z_changed[:-1], z[:-1], rtol=0, atol=1e-12)
    assert not np.allclose(z_changed[-1], z[-1])


# --- encoder self-attention ------------------------------------------------------------

def test_encoder_self_attention_is_source_by_source_and_unmasked():
    output, weights = scaled_dot_product_attention(*ex.source_qkv())
    n_s = len(ex.SOURCE_WORDS)
    assert weights.shape == (n_s, n_s) and output.shape == (n_s, ex.D_V)
    assert np.all(weights > 0)  # every source word sees every source word, later ones too

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


# --- the running example keeps the toy style -------------------------------------

def test_one_embedding_table_serves_both_languages_with_named_features():
    assert ex.D_MODEL <= 6 and ex.D_K <= 4
    assert ex.DIMENSIONS == ex.FEATURES + ex.POSITION
    for word in ex.SOURCE_WORDS + ex.LONG_TARGET_WORDS:
        row = ex.EMBEDDINGS[word]
        assert len(row) == ex.D_MODEL and set(row) <= {0, 1}, word
        assert row[-2:] == [0, 0], word  # position columns are filled by the position encoding
    for english, spanish in zip(ex.SOURCE_WORDS, ex.TARGET_WORDS):  # a word and its translation
        assert ex.EMBEDDINGS[english] == ex.EMBEDDINGS[spanish]
    for w in (ex.W_Q, ex.W_K, ex.W_V, ex.W_Q_CROSS):
        assert np.all(w == np.round(w)) and np.all(w[-2:] == 0)  # small integers; position unused


def test_target_rows_follow_the_source_recipe():
    x = ex.decoder_input(ex.TARGET_WORDS)
    assert x.shape == (N_T, ex.D_MODEL)
    np.testing.assert_allclose(x, ex.embed(ex.TARGET_WORDS) + ex.position_encoding(N_T))
    q, k, v = ex.target_qkv()
    np.testing.assert_allclose(q, x @ ex.W_Q)
    np.testing.assert_allclose(k, x @ ex.W_K)
    np.testing.assert_allclose(v, x @ ex.W_V)


def test_position_encoding_is_the_first_sine_pair_rounded():
    pe = ex.position_encoding(6)
    np.testing.assert_allclose(pe[:, -2:], np.round(np.stack([np.sin(range(6)), np.cos(range(6))], 1), 1))
    assert np.all(pe[:, :-2] == 0)


def test_decoder_self_attention_scores_are_the_encoders():
    """decoder-self-attention: same features, same positions, same weights: the same table."""
    q_t, k_t, _ = ex.target_qkv()
    q_s, k_s, _ = ex.source_qkv()
    np.testing.assert_array_equal(q_t @ k_t.T, q_s @ k_s.T)


# --- decoder self-attention: the look-ahead mask -------------------------------------

def test_look_ahead_weights_are_zero_above_the_diagonal_and_rows_sum_to_one():
    _, weights = scaled_dot_product_attention(*ex.target_qkv(), mask=LOOK_AHEAD)
    assert weights.shape == (N_T, N_T)
    assert np.all(weights[np.triu_indices(N_T, k=1)] == 0.0)
    assert np.all(weights[np.tril_indices(N_T)] > 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    assert weights[0, 0] == 1.0  # the first word can only attend to itself


def test_the_prefix_gives_the_same_earlier_outputs_under_the_mask():
    """The pages' example: "La bola es" (what the decoder has before it writes "azul") against the whole sentence."""
    prefix = ex.TARGET_WORDS[:-1]
    z, _ = scaled_dot_product_attention(*ex.target_qkv(ex.TARGET_WORDS), mask=LOOK_AHEAD)
    z_prefix, _ = scaled_dot_product_attention(*ex.target_qkv(prefix), mask=LOOK_AHEAD[:-1, :-1])
    np.testing.assert_allclose(z[:-1], z_prefix, rtol=0, atol=1e-12)

    z, _ = scaled_dot_product_attention(*ex.target_qkv(ex.TARGET_WORDS))
    z_prefix, _ = scaled_dot_product_attention(*ex.target_qkv(prefix))
    change = np.abs(z[:-1] - z_prefix).max(axis=1)
    assert np.all(change > 0.05) and change.argmax() == ex.TARGET_WORDS.index("bola")


def test_masked_weights_of_bola_and_es_as_the_page_explains():
    _, weights = scaled_dot_product_attention(*ex.target_qkv(), mask=LOOK_AHEAD)
    np.testing.assert_allclose(weights[1, :2], [0.5, 0.5])  # nothing it may see answers "bola"
    assert weights[2].argmax() == 1 and round(weights[2, 1], 2) == 0.58  # "es" finds "bola"
    _, unmasked = scaled_dot_product_attention(*ex.target_qkv())
    assert unmasked[1].argmax() == 3 and round(unmasked[1, 3], 2) == 0.60  # "bola" wanted "azul"


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
def test_every_target_word_attends_most_to_the_source_word_of_its_kind(target):
    _, weights = scaled_dot_product_attention(*ex.cross_qkv(target))
    strongest = {word: ex.SOURCE_WORDS[int(np.argmax(row))] for word, row in zip(target, weights)}
    assert {w: strongest[w] for w in ex.TARGET_WORDS} == dict(zip(ex.TARGET_WORDS, ex.SOURCE_WORDS))


def test_de_asks_for_nothing_and_color_splits():
    """encoder-decoder-attention: "de" has a zero query (a quarter each); "color" splits ball and blue."""
    q, _, _ = ex.cross_qkv(ex.LONG_TARGET_WORDS)
    _, weights = scaled_dot_product_attention(*ex.cross_qkv(ex.LONG_TARGET_WORDS))
    row = dict(zip(ex.LONG_TARGET_WORDS, weights))
    assert np.all(q[ex.LONG_TARGET_WORDS.index("de")] == 0)
    np.testing.assert_allclose(row["de"], 0.25)
    assert round(row["color"][1], 2) == round(row["color"][3], 2) == 0.44


def test_a_target_row_of_cross_attention_ignores_the_other_target_words():
    """No mask is needed: each target query meets only the source."""
    z, _ = scaled_dot_product_attention(*ex.cross_qkv(ex.TARGET_WORDS))
    z_changed, _ = scaled_dot_product_attention(*ex.cross_qkv(ex.TARGET_WORDS[:-1] + ["bola"]))
    np.testing.assert_allclose(z_changed[:-1], z[:-1], rtol=0, atol=1e-12)
    assert not np.allclose(z_changed[-1], z[-1])


# --- encoder self-attention ------------------------------------------------------------

def test_encoder_self_attention_is_source_by_source_and_unmasked():
    output, weights = scaled_dot_product_attention(*ex.source_qkv())
    n_s = len(ex.SOURCE_WORDS)
    assert weights.shape == (n_s, n_s) and output.shape == (n_s, ex.D_V)
    assert np.all(weights > 0)  # every source word sees every source word, later ones too


# --- which position a decoder row is (issue 28: one convention, said once) ---------

def test_shift_right_puts_the_start_token_first_and_drops_the_last_word():
    assert ex.shift_right(ex.TARGET_WORDS) == [ex.START, "La", "bola", "es"]
    for read, write in zip(ex.shift_right(ex.LONG_TARGET_WORDS)[1:], ex.LONG_TARGET_WORDS):
        assert read == write  # position i + 1 reads the word position i writes


def test_the_position_that_reads_es_is_the_row_that_writes_azul_and_finds_blue():
    # Encoder-decoder rows are named after the word they write: the row of
    # "azul" is the position whose shifted input is "es", and it finds "blue".
    _, weights = scaled_dot_product_attention(*ex.cross_qkv())
    row = ex.TARGET_WORDS.index("azul")
    assert ex.shift_right(ex.TARGET_WORDS)[row] == "es"
    assert ex.SOURCE_WORDS[weights[row].argmax()] == "blue"


@pytest.mark.parametrize("suffix", ["", ".zh"])
def test_the_pages_state_both_row_conventions_and_link_them(suffix):
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs"
    cross = (docs / f"encoder-decoder-attention{suffix}.md").read_text(encoding="utf-8")
    decoder = (docs / f"decoder-self-attention{suffix}.md").read_text(encoding="utf-8")
    assert "{ #which-position-finds-blue }" in cross
    assert "shift_right(TARGET_WORDS)" in cross  # the page prints what each position reads
    assert "reads es      -> writes azul" in cross
    assert "encoder-decoder-attention.md#which-position-finds-blue" in decoder
    assert "decoder-self-attention.md" in cross.split("{ #which-position-finds-blue }")[1].split("\n## ")[0]

"""The chapter "Why this design": the position encoding module and the claims the page makes."""

import numpy as np
import pytest

import running_example as ex
from attention import softmax
from position_encoding import frequencies, rotary_position_embedding, shift_matrix, sinusoidal_position_encoding


def paper_encoding(n, d_model):
    """Section 3.5 of Vaswani et al. (2017), written out one cell at a time."""
    pe = np.zeros((n, d_model))
    for pos in range(n):
        for i in range(d_model // 2):
            pe[pos, 2 * i] = np.sin(pos / 10000 ** (2 * i / d_model))
            pe[pos, 2 * i + 1] = np.cos(pos / 10000 ** (2 * i / d_model))
    return pe


@pytest.mark.parametrize("n, d_model", [(1, 2), (7, 8), (50, 64), (20, 512)])
def test_encoding_is_the_papers_formula(n, d_model):
    np.testing.assert_allclose(sinusoidal_position_encoding(n, d_model), paper_encoding(n, d_model), atol=1e-12)


@pytest.mark.parametrize("bad", [0, 3, 7, -2, 8.0, "8"])
def test_an_odd_or_non_integer_width_is_refused(bad):
    with pytest.raises(ValueError, match="d_model"):
        sinusoidal_position_encoding(4, bad)


@pytest.mark.parametrize("bad", [0, -1, 2.5])
def test_no_positions_is_refused(bad):
    with pytest.raises(ValueError, match="n_positions"):
        sinusoidal_position_encoding(bad, 8)


def test_the_toys_two_columns_are_the_first_pair_rounded():
    n = 12
    np.testing.assert_array_equal(ex.position_encoding(n)[:, -2:],
                                  np.round(sinusoidal_position_encoding(n, 2), 1))


@pytest.mark.parametrize("offset", [-5, -1, 0, 1, 3, 17])
def test_moving_a_position_is_one_fixed_linear_map_from_every_start(offset):
    d_model = 16
    pe = sinusoidal_position_encoding(60, d_model)
    shifted = pe[20:40] @ shift_matrix(offset, d_model)  # positions 20..39 moved by offset
    np.testing.assert_allclose(shifted, pe[20 + offset:40 + offset], atol=1e-9)


def test_the_product_of_two_encodings_depends_only_on_the_offset():
    pe = sinusoidal_position_encoding(40, 64)
    products = pe @ pe.T
    for offset in range(40):
        diagonal = np.diag(products, offset)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-9)
    # ... but it is not a distance: in the figure's row 3, 4 places away beats 3 places away
    small = sinusoidal_position_encoding(8, 8) @ sinusoidal_position_encoding(8, 8).T
    assert small[3, 7] > small[3, 0] == pytest.approx(small[3, 6])


def test_a_query_moved_back_one_place_makes_a_previous_word_head_at_every_position():
    pe = sinusoidal_position_encoding(50, 64)
    scores = (pe @ shift_matrix(-1, 64)) @ pe.T
    np.testing.assert_array_equal(scores.argmax(axis=1)[1:], np.arange(49))


# ---- Rotary position embedding (RoPE), the trained decoder's (trained-decoder.md) ----

def test_rope_turns_each_pair_by_its_position_times_its_frequency():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 8))
    turned = rotary_position_embedding(x, base=100.0)
    for pos in range(6):
        for i, omega in enumerate(frequencies(8, 100.0)):
            c, s = np.cos(pos * omega), np.sin(pos * omega)
            pair = x[pos, 2 * i:2 * i + 2] @ np.array([[c, s], [-s, c]])  # a turn by +pos * omega
            np.testing.assert_allclose(turned[pos, 2 * i:2 * i + 2], pair, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(turned, axis=1), np.linalg.norm(x, axis=1))  # lengths kept


@pytest.mark.parametrize("shift", [1, 7, 30])
def test_with_rope_a_score_depends_on_the_offset_not_on_the_place(shift):
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=(2, 64))
    n = 40 + shift
    queries = rotary_position_embedding(np.tile(q, (n, 1)))  # the same query at every position
    keys = rotary_position_embedding(np.tile(k, (n, 1)))
    for m, j in [(5, 3), (20, 2), (9, 9)]:
        assert np.isclose(queries[m] @ keys[j], queries[m + shift] @ keys[j + shift])
    assert not np.isclose(queries[5] @ keys[3], queries[5] @ keys[4])  # the offset does matter


def test_rope_takes_batches_and_refuses_odd_widths():
    x = np.ones((2, 3, 4, 6))  # (batch, heads, positions, d)
    np.testing.assert_allclose(rotary_position_embedding(x)[1, 2], rotary_position_embedding(x[0, 0]))
    with pytest.raises(ValueError, match="even integer"):
        rotary_position_embedding(np.ones((3, 5)))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        rotary_position_embedding(np.ones(4))


@pytest.mark.parametrize("seed", range(5))
def test_the_gaussian_kernel_equals_the_dot_product_exactly_when_keys_have_one_length(seed):
    rng = np.random.default_rng(seed)
    q, keys = rng.normal(size=6), rng.normal(size=(7, 6))
    unit = 2.0 * keys / np.linalg.norm(keys, axis=1, keepdims=True)  # all of length 2

    def kernel(k):
        return softmax(-0.5 * ((q - k) ** 2).sum(axis=1))

    np.testing.assert_allclose(kernel(unit), softmax(unit @ q), atol=1e-12)
    assert not np.allclose(kernel(keys), softmax(keys @ q))


def test_softmax_ignores_a_shift_and_dividing_by_the_sum_does_not():
    q, k, _ = ex.source_qkv()
    row = q[ex.SOURCE_WORDS.index("blue")] @ k.T / np.sqrt(ex.D_K)
    assert row.sum() == 0  # the page: nothing to divide by
    for shift in (0.5, 1.0, -3.0):
        np.testing.assert_allclose(softmax(row + shift), softmax(row))
    assert not np.allclose((row + 0.5) / (row + 0.5).sum(), (row + 1) / (row + 1).sum())
    assert ((row + 0.5) / (row + 0.5).sum()).min() < 0


@pytest.mark.parametrize("page", ["why-this-design.md", "why-this-design.zh.md"])
def test_the_chapter_sits_between_summary_and_multi_head_in_both_languages(page):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    nav = (root / "mkdocs.yml").read_text(encoding="utf-8")
    assert nav.index("summary.md") < nav.index("why-this-design.md") < nav.index("multi-head-attention.md")
    text = (root / "docs" / page).read_text(encoding="utf-8")
    assert "(fig_position_encoding_offsets.py)" in text
    assert "](multi-head-attention.md)" in text.split("{ #what-comes-next }")[1]

"""Claims made in prose by the chapters "The dot product measures similarity", "Summary" and "Why this design".

The code blocks on those pages check the numbers they print; these tests check
the statements the text makes around them, and that the figure of aligned,
opposed and unrelated vectors uses the same vectors as the page's code.
"""

import numpy as np
import pytest

from attention import scaled_dot_product_attention
from conftest import DOCS
from fig_aligned_opposed_unrelated import KEYS, Q
from running_example import D_K, SOURCE_WORDS, W_K, W_Q, embed, encoder_input, source_qkv

BLUE, BALL = (SOURCE_WORDS.index(w) for w in ("blue", "ball"))


@pytest.mark.parametrize("page", ["dot-product-similarity.md", "dot-product-similarity.zh.md"])
def test_page_prints_the_sums_of_the_vectors_in_the_figure(page):
    """The expected output on the page is what the figure's own vectors give."""
    text = (DOCS / page).read_text(encoding="utf-8")
    for name, k in KEYS.items():
        assert f"{name:9}  products {Q * k}  sum {Q @ k:5.2f}" in text, name


def test_the_three_keys_are_what_their_names_say():
    assert np.all(np.sign(KEYS["aligned"]) == np.sign(Q))
    assert np.all(np.sign(KEYS["opposed"]) == -np.sign(Q))
    agree = np.sign(KEYS["unrelated"]) == np.sign(Q)
    assert agree.any() and not agree.all()
    sums = {name: Q @ k for name, k in KEYS.items()}
    assert sums["aligned"] > sums["unrelated"] > sums["opposed"]
    assert sums["opposed"] == -sums["aligned"]
    assert sums["unrelated"] == 0


@pytest.mark.parametrize("page", ["dot-product-similarity.md", "dot-product-similarity.zh.md"])
def test_the_arrows_stand_at_the_angles_the_caption_gives(page):
    """The figure draws each pair in its own plane with its true lengths and angle: 11°, 169° and 90°."""
    from fig_aligned_opposed_unrelated import angle_degrees, in_their_plane

    angles = {name: round(angle_degrees(Q, k)) for name, k in KEYS.items()}
    assert angles == {"aligned": 11, "opposed": 169, "unrelated": 90}
    for k in KEYS.values():
        q2, k2 = in_their_plane(Q, k)
        assert np.linalg.norm(q2) == pytest.approx(np.linalg.norm(Q))
        assert np.linalg.norm(k2) == pytest.approx(np.linalg.norm(k))
        assert q2 @ k2 == pytest.approx(Q @ k)  # the drawn arrows keep the dot product
    caption = next(line for line in (DOCS / page).read_text(encoding="utf-8").splitlines()
                   if line.endswith("(fig_aligned_opposed_unrelated.py)"))
    for degrees in angles.values():
        assert f"{degrees}°" in caption


def test_the_largest_component_supplies_two_thirds_of_the_aligned_sum():
    products = Q * KEYS["aligned"]
    assert products.argmax() == np.abs(Q).argmax()
    assert products.max() / products.sum() == pytest.approx(2 / 3)


def test_a_longer_key_scores_as_high_with_a_smaller_cosine():
    """dot-product-similarity: the key of "color" (1, 1, 0, 0) scores 4 like ball's, at cosine 0.58 against 0.82."""
    q, k, _ = source_qkv()
    k_color = (embed(["color"]) @ W_K)[0]
    np.testing.assert_array_equal(k_color, [1, 1, 0, 0])
    for key, cosine in [(k[BALL], 0.82), (k_color, 0.58)]:
        assert q[BLUE] @ key == 4
        assert round(q[BLUE] @ key / (np.linalg.norm(q[BLUE]) * np.linalg.norm(key)), 2) == cosine
    assert np.allclose(np.linalg.norm(k, axis=1), 1)  # every key of the sentence has length 1


def test_blues_row_by_kind_of_word():
    """dot-product-similarity: +4 for ball, −2 for The and is (opposed), 0 for blue (unrelated)."""
    q, k, _ = source_qkv()
    products = q[BLUE] * k  # (n, d_k)
    assert [np.count_nonzero(row) for row in products] == [1, 1, 1, 0]
    assert products.sum(axis=1).tolist() == [-2, 4, -2, 0]


def test_dot_products_of_random_vectors_spread_like_the_square_root_of_d_k():
    rng = np.random.default_rng(0)
    for d_k in (4, 64, 512):
        q = rng.standard_normal((20_000, d_k))
        k = rng.standard_normal((20_000, d_k))
        spread = np.einsum("nd,nd->n", q, k).std()
        assert spread == pytest.approx(np.sqrt(d_k), rel=0.05), d_k
        aligned = np.einsum("nd,nd->n", q, q).mean()  # a key equal to the query
        assert aligned == pytest.approx(d_k, rel=0.05), d_k


def test_summary_numbers_for_blue():
    q, k, v = source_qkv()
    z, weights = scaled_dot_product_attention(q, k, v)
    assert weights[BLUE].round(2).tolist() == [0.04, 0.81, 0.04, 0.11]
    assert weights[BLUE].argmax() == BALL
    assert (q @ k.T / np.sqrt(D_K))[BLUE, BALL] == 2


def test_scores_are_a_bilinear_form_of_rank_at_most_d_k():
    """why-this-design (#shared-query-key): q_i · k_j = x_i (W_Q W_Kᵀ) x_jᵀ, and W_Q W_Kᵀ has rank at most d_k."""
    x = encoder_input(SOURCE_WORDS)
    a = W_Q @ W_K.T  # (d_model, d_model)
    np.testing.assert_allclose(x @ a @ x.T, (x @ W_Q) @ (x @ W_K).T)
    assert a.shape == (x.shape[1], x.shape[1]) and np.linalg.matrix_rank(a) <= D_K
    assert not np.allclose(a, a.T)


def test_shared_query_key_weights_make_a_symmetric_positive_semidefinite_form():
    x = encoder_input(SOURCE_WORDS)
    shared = (x @ W_Q) @ (x @ W_Q).T
    assert np.allclose(shared, shared.T)
    assert np.all(np.linalg.eigvalsh(W_Q @ W_Q.T) > -1e-9)
    assert np.all(shared.diagonal() >= 0)
    n = len(SOURCE_WORDS)
    for i in range(n):  # no score exceeds the larger of the two self-scores
        for j in range(n):
            assert shared[i, j] <= max(shared[i, i], shared[j, j]) + 1e-9
    assert shared[BLUE].argmax() == BLUE and shared[BLUE, BLUE] == 24
    assert shared[BLUE, BALL] == shared[BALL, BLUE] == 0
    # With separate weights the pair is asymmetric and "blue" favours "ball".
    separate = (x @ W_Q) @ (x @ W_K).T
    assert (separate[BLUE, BALL], separate[BALL, BLUE]) == (4, 3)
    assert separate[BLUE].argmax() == BALL

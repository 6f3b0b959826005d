"""Claims made in prose by the chapters "The dot product measures similarity" and "Summary".

The code blocks on those pages check the numbers they print; these tests check
the statements the text makes around them, and that the figure of aligned,
opposed and unrelated vectors uses the same vectors as the page's code.
"""

import numpy as np
import pytest

from attention import scaled_dot_product_attention
from conftest import DOCS
from fig_aligned_opposed_unrelated import KEYS, Q
from running_example import D_K, SOURCE_WORDS, W_K, W_Q, encoder_input, source_qkv

BLUE, BALL, IS = (SOURCE_WORDS.index(w) for w in ("blue", "ball", "is"))


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


def test_the_largest_component_supplies_two_thirds_of_the_aligned_sum():
    products = Q * KEYS["aligned"]
    assert products.argmax() == np.abs(Q).argmax()
    assert products.max() / products.sum() == pytest.approx(2 / 3)


def test_is_points_closer_to_blue_than_blue_does_but_scores_lower():
    q, k, _ = source_qkv()
    cosine = k @ q[BLUE] / (np.linalg.norm(k, axis=1) * np.linalg.norm(q[BLUE]))
    scores = k @ q[BLUE]
    assert cosine[IS] > cosine[BLUE] and scores[IS] < scores[BLUE]
    assert scores.argmax() == cosine.argmax() == BALL


def test_dot_products_of_random_vectors_spread_like_the_square_root_of_d_k():
    rng = np.random.default_rng(0)
    for d_k in (4, 64, 512):
        q = rng.standard_normal((20_000, d_k))
        k = rng.standard_normal((20_000, d_k))
        spread = np.einsum("nd,nd->n", q, k).std()
        assert spread == pytest.approx(np.sqrt(d_k), rel=0.05), d_k


def test_summary_numbers_for_blue():
    q, k, v = source_qkv()
    z, weights = scaled_dot_product_attention(q, k, v)
    assert weights[BLUE].round(3).tolist() == [0.004, 0.688, 0.099, 0.209]
    assert weights[BLUE].argmax() == BALL
    assert (q @ k.T / np.sqrt(D_K))[BLUE, BALL].round(2) == 3.34


def test_shared_query_key_weights_make_every_word_favour_itself():
    x = encoder_input(SOURCE_WORDS)
    shared = (x @ W_Q) @ (x @ W_Q).T
    assert np.allclose(shared, shared.T)
    assert np.all(shared.diagonal() >= 0)
    favours_itself = shared.argmax(axis=1) == np.arange(len(SOURCE_WORDS))
    assert favours_itself.sum() == 3 and favours_itself[BLUE]
    # With separate weights the pair is asymmetric and "blue" favours "ball".
    separate = (x @ W_Q) @ (x @ W_K).T
    assert separate[BLUE, BALL] != separate[BALL, BLUE]
    assert separate[BLUE].argmax() == BALL


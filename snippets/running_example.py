"""The running example of the site: "The ball is blue" / "La bola es azul" and its toy vectors.

Every chapter uses these numbers, so the "blue" row you meet on one page is
the same row on the next. The sizes are tiny on purpose, so that any cell can
be checked by hand:

    d_model = 4   width of a word's embedding (and of its position encoding)
    d_k = 3       width of a Query or Key row
    d_v = 3       width of a Value row

The "learned" parameters below are made up: one decimal for the embeddings,
-1, 0 or 1 for the weight matrices. In a real Transformer they come from
training, and d_model is 512 or more.
"""

import numpy as np

SOURCE_WORDS = ["The", "ball", "is", "blue"]
D_MODEL = 4
D_K = 3
D_V = 3

# W_e: one learned embedding row per word of the vocabulary.  (vocab, d_model)
EMBEDDINGS = {
    "The": [-0.8, 0.8, 0.6, -0.9],
    "ball": [0.9, -0.2, 0.3, 0.4],
    "is": [-0.8, 0.7, 0.5, -0.2],
    "blue": [-0.1, 0.8, 0.4, 0.4],
}

# The three linear layers of the attention module.  (d_model, d_k or d_v)
W_Q = np.array([[-1, 0, 1], [1, 0, 1], [-1, 0, -1], [0, 1, -1]], dtype=float)
W_K = np.array([[0, 0, -1], [1, -1, 0], [0, 1, -1], [0, 1, 0]], dtype=float)
W_V = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, -1, 1]], dtype=float)


def embed(words):
    """Look up each word's embedding row.  Returns (n, d_model)."""
    return np.array([EMBEDDINGS[w] for w in words], dtype=float)


def position_encoding(n, d_model=D_MODEL):
    """Sinusoidal position encoding, rounded to one decimal.  Returns (n, d_model).

    Even columns hold sin(pos / 10000**(2i/d_model)), odd columns the cosine.
    The rounding keeps the toy numbers easy to add by hand.
    """
    pos = np.arange(n)[:, None]  # (n, 1)
    freq = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)  # (d_model/2,)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(pos * freq)
    pe[:, 1::2] = np.cos(pos * freq)
    return np.round(pe, 1)


def encoder_input(words):
    """Embedding plus position encoding: the rows that enter attention.  (n, d_model)"""
    return np.round(embed(words) + position_encoding(len(words)), 1)


def project(x):
    """The three linear layers: Q = X W_Q, K = X W_K, V = X W_V.

    Returns q (n, d_k), k (n, d_k) and v (n, d_v); row i belongs to word i.
    """
    return x @ W_Q, x @ W_K, x @ W_V


def source_qkv():
    """Q, K and V for "The ball is blue", one row per word."""
    return project(encoder_input(SOURCE_WORDS))


# ---------------------------------------------------------------------------
# The target side: "La bola es azul", read by the decoder.
#
# Made up in the same style as above (one decimal for the embeddings, -1, 0
# or 1 for the weights). The values come from a small seeded random search,
# written out here: in encoder-decoder attention they make "azul" attend most
# to "blue" and "bola" to "ball", in both translations below.

TARGET_WORDS = ["La", "bola", "es", "azul"]

# A longer translation of the same source sentence, "the ball is of the colour
# blue": 6 target words against 4 source words, so encoder-decoder attention
# between them is a 6 x 4 matrix.
LONG_TARGET_WORDS = ["La", "bola", "es", "de", "color", "azul"]

# The decoder's own embedding table, for the target vocabulary.  (vocab, d_model)
# "roja" (red) lets a page swap the last word: "La bola es roja".
TARGET_EMBEDDINGS = {
    "La": [-0.5, 0.6, -0.3, 0.6],
    "bola": [0.9, -0.2, -0.6, -0.5],
    "es": [-0.7, 0.4, -0.7, 0.2],
    "azul": [-0.7, -0.8, -0.4, -0.7],
    "de": [0.8, -0.6, 0.7, -0.2],
    "color": [-0.5, 0.6, -0.7, -0.2],
    "roja": [0.2, 0.6, 0.3, 0.2],
}

# The Query layer of encoder-decoder attention: it turns the decoder's rows
# into queries that are compared with the source's keys.  (d_model, d_k)
W_Q_CROSS = np.array([[0, 0, -1], [0, -1, -1], [0, -1, 0], [1, 1, 1]], dtype=float)


def embed_target(words):
    """Look up each target word in the decoder's embedding table.  Returns (n, d_model)."""
    return np.array([TARGET_EMBEDDINGS[w] for w in words], dtype=float)


def decoder_input(words):
    """Target embedding plus position encoding: the rows the decoder starts from.  (n, d_model)"""
    return np.round(embed_target(words) + position_encoding(len(words)), 1)


def target_qkv(words=TARGET_WORDS):
    """Q, K and V of decoder self-attention, one row per target word.

    To keep the toy small, the decoder's self-attention reuses W_Q, W_K and
    W_V; in a trained Transformer every attention module has its own.
    Returns q (n, d_k), k (n, d_k) and v (n, d_v).
    """
    return project(decoder_input(words))


def cross_qkv(target_words=TARGET_WORDS, source_words=SOURCE_WORDS):
    """Q, K and V of encoder-decoder attention: queries from the target,
    keys and values from the source.

    The queries are the target rows times W_Q_CROSS; the keys and values are
    the source's K and V rows from `source_qkv` (a full model computes them
    from the last encoder's output, with weights of their own).
    Returns q (n_target, d_k), k (n_source, d_k) and v (n_source, d_v).
    """
    q = decoder_input(target_words) @ W_Q_CROSS  # (n_target, d_k)
    _, k, v = project(encoder_input(source_words))  # (n_source, d_k), (n_source, d_v)
    return q, k, v

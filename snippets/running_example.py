"""The running example of the site: "The ball is blue" / "La bola es azul" and its toy vectors.

Every chapter uses these numbers, so the row of "blue" you meet on one page
is the same row on the next. Every number is chosen by hand so that it can be
read, not only computed: each column of an embedding has a name, and each
weight says what one kind of word looks for.

    d_model = 6   width of a word's row in X: four named features and two
                  columns of position encoding
    d_k = 4       width of a Query or Key row: one entry per feature
    d_v = 3       width of a Value row: what a word hands over

W_O (d_v, d_model) brings attention's output back to the width of X, so that
a Transformer can add it to each word's row; see `output_projection`.

In a trained Transformer nobody names the columns: d_model is 512 in the
original paper, the embeddings and weights are learned, and the position
encoding is added to all 512 columns rather than kept in two of its own.
"""

import numpy as np

SOURCE_WORDS = ["The", "ball", "is", "blue"]
TARGET_WORDS = ["La", "bola", "es", "azul"]
# A longer translation, "the ball is of (the) colour blue": 6 target words
# against 4 source words, so encoder-decoder attention is a 6 x 4 matrix.
LONG_TARGET_WORDS = ["La", "bola", "es", "de", "color", "azul"]
START = "<start>"  # what the decoder reads before the first target word

FEATURES = ["thing", "colour", "article", "verb"]  # what kind of word it is
POSITION = ["sin(pos)", "cos(pos)"]  # where it stands
DIMENSIONS = FEATURES + POSITION  # the columns of X
# A column of Q says how much a word wants a word of that kind; the same
# column of K says how much a word is of that kind.
VALUES = ["thing", "colour", "function"]  # the columns of V: what a word hands over
D_MODEL = len(DIMENSIONS)
D_K = len(FEATURES)
D_V = len(VALUES)

# W_e: one embedding row per word, the four features only (the position
# columns are 0 until the position encoding is added). One table serves both
# languages, as in the original Transformer, which shares its embeddings
# between source and target.  (vocab, d_model)
EMBEDDINGS = {
    #          thing colour article verb  sin  cos
    "The":    [0,    0,     1,      0,    0,   0],
    "ball":   [1,    0,     0,      0,    0,   0],
    "is":     [0,    0,     0,      1,    0,   0],
    "blue":   [0,    1,     0,      0,    0,   0],
    "La":     [0,    0,     1,      0,    0,   0],
    "bola":   [1,    0,     0,      0,    0,   0],
    "es":     [0,    0,     0,      1,    0,   0],
    "azul":   [0,    1,     0,      0,    0,   0],
    "de":     [0,    0,     0,      0,    0,   0],  # "of": none of the four kinds
    "color":  [1,    1,     0,      0,    0,   0],  # "colour", a thing that is about colour
}

# The three linear layers of self-attention.  (d_model, d_k or d_v)
# W_Q: what a word of each kind looks for. A thing wants its colour; a colour
# wants the thing it describes and turns away from articles and verbs; an
# article wants its thing; a verb wants both the thing and its colour.
W_Q = np.array([
    # wants: thing colour article verb
    [0, 3, 0, 0],     # thing
    [4, 0, -2, -2],   # colour
    [4, 0, 0, 0],     # article
    [2, 2, 0, 0],     # verb
    [0, 0, 0, 0],     # sin(pos)
    [0, 0, 0, 0],     # cos(pos)
], dtype=float)
# W_K: a key says what kind of word it belongs to: "is a thing", ...
W_K = np.array([
    # is a: thing colour article verb
    [1, 0, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 1, 0],
    [0, 0, 0, 1],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
], dtype=float)
# W_V: what a word hands over when it is attended to: that it is a thing, a
# colour, or a function word (an article and a verb hand over the same).
W_V = np.array([
    # thing colour function
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [0, 0, 1],
    [0, 0, 0],
    [0, 0, 0],
], dtype=float)
# The position columns get zero weight in all three: in this toy, attention
# looks at what the words are, not where they stand.

# W_O: the output projection. Attention's output Z has one row of d_v = 3 per
# word; W_O turns it into a row of d_model = 6, as wide as the word's own row,
# so that the two can be added (the residual connection). Each Value column is
# written into the feature of the same name: "thing" into thing, "colour" into
# colour. "function" says "a function word" without saying which kind, so
# half of it goes to article and half to verb. Nothing is written into the
# position columns.  (d_v, d_model)
W_O = np.array([
    # thing colour article verb  sin  cos
    [1,    0,     0,      0,    0,   0],   # thing
    [0,    1,     0,      0,    0,   0],   # colour
    [0,    0,     0.5,    0.5,  0,   0],   # function
], dtype=float)

# The Query layer of encoder-decoder attention: a target word looks for the
# source word of its own kind.  (d_model, d_k)
W_Q_CROSS = np.array([
    # wants: thing colour article verb
    [4, 0, 0, 0],
    [0, 4, 0, 0],
    [0, 0, 4, 0],
    [0, 0, 0, 4],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
], dtype=float)


def embed(words):
    """Look up each word's embedding row.  Returns (n, d_model)."""
    return np.array([EMBEDDINGS[w] for w in words], dtype=float)


def position_encoding(n, d_model=D_MODEL):
    """Sinusoidal position encoding in the last two columns, rounded to one decimal.  (n, d_model)

    Position pos gets sin(pos) and cos(pos): the first pair of the original
    Transformer's encoding, whose frequency is 1. The other columns stay 0.
    """
    pos = np.arange(n)  # (n,)
    pe = np.zeros((n, d_model))
    pe[:, -2] = np.sin(pos)
    pe[:, -1] = np.cos(pos)
    return np.round(pe, 1)


def encoder_input(words):
    """Embedding plus position encoding: the rows X that enter attention.  (n, d_model)"""
    return embed(words) + position_encoding(len(words))


def project(x):
    """The three linear layers: Q = X W_Q, K = X W_K, V = X W_V.

    Returns q (n, d_k), k (n, d_k) and v (n, d_v); row i belongs to word i.
    """
    return x @ W_Q, x @ W_K, x @ W_V


def output_projection(z):
    """Attention's output times W_O: what attention adds to each word's row.

    z is (n, d_v), one row per query word; returns (n, d_model), the width of X.
    """
    z = np.asarray(z, dtype=float)
    if z.ndim != 2 or z.shape[1] != D_V:
        raise ValueError(f"z must have shape (n, d_v) = (n, {D_V}), got {z.shape}")
    return z @ W_O  # (n, d_model)


def source_qkv(words=SOURCE_WORDS):
    """Q, K and V of encoder self-attention, one row per source word."""
    return project(encoder_input(words))


def decoder_input(words):
    """The decoder's rows: the same embedding table and position encoding.  (n, d_model)"""
    return encoder_input(words)


def shift_right(words, start=START):
    """The words a decoder reads in training: the target moved one place right.

    Position i reads ``words[i - 1]`` (the start token at i = 0) and is
    trained to write ``words[i]``, so no position reads the word it must
    write.

    >>> shift_right(["La", "bola", "es", "azul"])
    ['<start>', 'La', 'bola', 'es']
    """
    return [start, *words[:-1]]


def target_qkv(words=TARGET_WORDS):
    """Q, K and V of decoder self-attention, one row per target word.

    To keep the toy small, decoder self-attention reuses W_Q, W_K and W_V;
    in a real Transformer every attention module has weights of its own.
    Returns q (n, d_k), k (n, d_k) and v (n, d_v).
    """
    return project(decoder_input(words))


def cross_qkv(target_words=TARGET_WORDS, source_words=SOURCE_WORDS):
    """Q, K and V of encoder-decoder attention: queries from the target,
    keys and values from the source.

    The queries are the target rows times W_Q_CROSS. The keys and values are
    made from the source rows X with W_K and W_V; a real decoder layer makes
    them from the output of the last encoder, with a W_K and W_V of its own.
    Returns q (n_target, d_k), k (n_source, d_k) and v (n_source, d_v).
    """
    q = decoder_input(target_words) @ W_Q_CROSS  # (n_target, d_k)
    _, k, v = project(encoder_input(source_words))  # (n_source, d_k), (n_source, d_v)
    return q, k, v

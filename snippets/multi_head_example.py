"""Two attention heads for "The ball is blue", with hand-written weights.

The chapter on multi-head attention uses these numbers: its figures and its
code blocks import them. Each projection is one (d_model, d_model) matrix,
applied as ``x @ w`` like every weight on this site; head h uses its columns
h·d_head ... (h+1)·d_head − 1, which is how `attention.multi_head_attention`
splits them.

    n_heads = 2
    d_head = 3    width of one head's query, key and value: d_model / n_heads

Head 0, "what do I describe, who describes me": a colour wants the thing it
describes and turns away from function words, a thing wants its colour, an
article wants its thing. The verb describes nothing, so in this head it has
no wish at all.

Head 1, "where is the verb": every other word wants the verb, and the verb
wants the thing. This head needs two of its three columns; the third is 0.

Every column of a head's query says what the word wants, the same column of
its key what a word is (see `Q_COLUMNS`). As in `running_example`, the
position columns get zero weight: the heads look at what the words are, not
where they stand. Both heads hand over the same value as the single head of
the earlier chapters (thing, colour, function), and W_O is the identity, so
the output shows the two heads' answers side by side. In a trained model all
four matrices are learned and nobody names their columns.
"""

import numpy as np

from attention import multi_head_attention
from running_example import D_MODEL, SOURCE_WORDS, W_V, encoder_input

N_HEADS = 2
D_HEAD = D_MODEL // N_HEADS  # 3
HEAD_NAMES = ["what do I describe", "where is the verb"]
# What each column of a head's query wants, and the same column of its key is.
Q_COLUMNS = [["thing", "colour", "function"],  # head 0: a thing, a colour, a function word
             ["verb", "thing", "unused"]]  # head 1: a verb, a thing; the third column is 0

# W_Q, head 0 and head 1 side by side.  (d_model, n_heads·d_head) = (6, 6)
W_Q_HEADS = np.array([
    # head 0, wants a:        head 1, wants a:
    # thing colour function   verb thing unused
    [0,    3,     0,          4,   0,    0],   # thing: its colour; the verb
    [4,    0,     -2,         4,   0,    0],   # colour: a thing, not a function word; the verb
    [4,    0,     0,          4,   0,    0],   # article: its thing; the verb
    [0,    0,     0,          0,   4,    0],   # verb: nothing in head 0; the thing
    [0,    0,     0,          0,   0,    0],   # sin(pos)
    [0,    0,     0,          0,   0,    0],   # cos(pos)
], dtype=float)
# W_K: what kind of word a key belongs to, in each head's own columns.  (6, 6)
W_K_HEADS = np.array([
    # head 0, is a:           head 1, is a:
    # thing colour function   verb thing unused
    [1,    0,     0,          0,   1,    0],   # thing
    [0,    1,     0,          0,   0,    0],   # colour
    [0,    0,     1,          0,   0,    0],   # article: a function word
    [0,    0,     1,          1,   0,    0],   # verb: a function word; the verb
    [0,    0,     0,          0,   0,    0],   # sin(pos)
    [0,    0,     0,          0,   0,    0],   # cos(pos)
], dtype=float)
# W_V: each head hands over what the single head did: thing, colour, function.  (6, 6)
W_V_HEADS = np.hstack([W_V, W_V])
# W_O: the identity, so the output keeps head 0 in columns 0-2 and head 1 in 3-5.  (6, 6)
W_O = np.eye(D_MODEL)


def self_attention(words=SOURCE_WORDS, n_heads=N_HEADS):
    """Multi-head self-attention of `words` with the weights above.

    Returns output (n, d_model) and weights (n_heads, n, n).
    """
    x = encoder_input(words)  # (n, d_model)
    return multi_head_attention(x, x, W_Q_HEADS, W_K_HEADS, W_V_HEADS, W_O, n_heads)

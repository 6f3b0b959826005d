"""What the heads of all-MiniLM-L6-v2 do with "The black cat drank the milk".

The trained-model chapter's numbers, computed from the real weights by
`minilm`. A head "does" a pattern as strongly as the average weight its
rows put on the pattern's keys: the previous token, the next token, a
determiner's noun, a verb's object. [CLS] and [SEP] are BERT's special
tokens, first and last in every input.

    tokens, weights = minilm.attention_weights(SENTENCE)
    named_heads()            # {"previous word": (layer, head, strength), ...}
    special_share(weights)   # (layers, heads): weight on [CLS] and [SEP]
"""

import numpy as np

import minilm

SENTENCE = "The black cat drank the milk"
TOKENS = ["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"]
WORDS = range(1, len(TOKENS) - 1)  # the sentence's own tokens, between [CLS] and [SEP]
THE, BLACK, CAT, DRANK, THE_2, MILK = WORDS
CLS, SEP = 0, len(TOKENS) - 1

# Each pattern: the (query, key) token pairs it looks for in SENTENCE.
PATTERNS = {
    "previous word": [(i, i - 1) for i in WORDS if i - 1 in WORDS],
    "next word": [(i, i + 1) for i in WORDS if i + 1 in WORDS],
    "determiner → noun": [(THE, CAT), (THE_2, MILK)],
    "verb → object": [(DRANK, MILK)],
}


def pattern_strength(weights, pairs):
    """The mean weight that each head puts on a pattern's keys: (..., n, n) -> (...).

    The weight as the head spends it, [CLS] and [SEP] included: with them set
    aside (set_aside_special) each strength is higher, and the same four heads
    win (tests/test_trained_model_chapter.py checks both).
    """
    queries, keys = np.array(pairs).T
    return weights[..., queries, keys].mean(axis=-1)


def named_heads():
    """For each pattern, the head that does it most on SENTENCE: {pattern: (layer, head, strength)}.

    The patterns are token positions in SENTENCE, so no other sentence is taken.
    """
    _, weights = minilm.attention_weights(SENTENCE)  # (layers, heads, n, n)
    found = {}
    for name, pairs in PATTERNS.items():
        strength = pattern_strength(weights, pairs)  # (layers, heads)
        layer, head = np.unravel_index(np.argmax(strength), strength.shape)
        found[name] = (int(layer), int(head), float(strength[layer, head]))
    return found


def special_share(weights):
    """How much of each word's row goes to [CLS] and [SEP], averaged over the words: (..., n, n) -> (...)."""
    words = weights[..., 1:-1, :]  # the rows of the sentence's own tokens
    return (words[..., 0] + words[..., -1]).mean(axis=-1)


def set_aside_special(row):
    """A row of weights with [CLS] and [SEP] set aside: the words' weights, scaled to sum to 1."""
    words = np.asarray(row)[..., 1:-1]
    return words / words.sum(axis=-1, keepdims=True)


def strongest_head(query, key, sentence=SENTENCE):
    """The (layer, head) whose row of `query` puts the most weight on `key` (token indices)."""
    _, weights = minilm.attention_weights(sentence)
    layer, head = np.unravel_index(np.argmax(weights[:, :, query, key]), weights.shape[:2])
    return int(layer), int(head)


def query_and_key(layer, head, query, key, sentence=SENTENCE):
    """The query row of token `query` and the key row of token `key` in one head: (d_head,) each."""
    _, inputs, _, _ = minilm.run(sentence)
    q, k = minilm.queries_and_keys(inputs[layer], layer)  # (heads, n, d_head) each
    return q[head, query], k[head, key]


def score_products(layer, head, query, key, sentence=SENTENCE):
    """The d_head products q[m]·k[m] whose sum is the score of (query, key) in one head (before ÷√d_head)."""
    q, k = query_and_key(layer, head, query, key, sentence)
    return q * k  # (d_head,)

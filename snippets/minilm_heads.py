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


def weight_at_offset(layer, head, offset, sentences):
    """How much one head looks `offset` tokens away (−1: the token before), over every word of `sentences`.

    Only the rows of words that have a word `offset` tokens away count ([CLS] and
    [SEP] are not words). Returns (mean weight there, share of those rows whose
    largest weight is there, number of rows).
    """
    if offset == 0:
        raise ValueError("offset must not be 0: a word is not its own neighbour")
    weights, wins = [], []
    for sentence in sentences:
        _, all_weights = minilm.attention_weights(sentence)
        rows = all_weights[layer, head]  # (n, n)
        last = len(rows) - 2  # the last word; [SEP] is n - 1
        for i in range(max(1, 1 - offset), min(last, last - offset) + 1):
            weights.append(rows[i, i + offset])
            wins.append(rows[i].argmax() == i + offset)
    if not weights:
        raise ValueError(f"no word of these sentences has a word {offset:+d} tokens away")
    return float(np.mean(weights)), float(np.mean(wins)), len(weights)


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


def keys_and_query(layer, head, query, sentence=SENTENCE):
    """The query row of token `query` and every key row in one head: (d_head,), (n, d_head)."""
    _, inputs, _, _ = minilm.run(sentence)
    q, k = minilm.queries_and_keys(inputs[layer], layer)  # (heads, n, d_head) each
    return q[head, query], k[head]


def query_and_key(layer, head, query, key, sentence=SENTENCE):
    """The query row of token `query` and the key row of token `key` in one head: (d_head,) each."""
    q, keys = keys_and_query(layer, head, query, sentence)
    return q, keys[key]


def score_products(layer, head, query, key, sentence=SENTENCE):
    """The d_head products q[m]·k[m] whose sum is the score of (query, key) in one head (before ÷√d_head)."""
    q, k = query_and_key(layer, head, query, key, sentence)
    return q * k  # (d_head,)


# --- Why this key: the part of a score that every key of the row shares, and the part that chooses ---

def shared_and_own(layer, head, query, sentence=SENTENCE):
    """One row's scores (before ÷√d_head) as q·k̄, which every key gets, plus q·(k_j − k̄), each key's own.

    Softmax ignores what every score of a row shares, so only the own parts choose.
    Returns (shared, own): a float and an (n,) array; shared + own[j] = q·k_j.
    """
    q, keys = keys_and_query(layer, head, query, sentence)
    mean_key = keys.mean(axis=0)  # (d_head,): k̄, the row's mean key
    return float(q @ mean_key), (keys - mean_key) @ q  # (n,)


# --- What a head carries: what each key adds to a row is its weight times its value, after W_O ---

def value_lengths(layer, head, sentence=SENTENCE):
    """‖v_j W_O‖ for every key token j of one head: how long what it would add is, (n,)."""
    _, inputs, _, _ = minilm.run(sentence)
    (_, _, _, w_o), _ = minilm.attention_parameters(layer)
    values = minilm.values(inputs[layer], layer)[head]  # (n, d_head)
    return np.linalg.norm(values @ w_o[minilm.head_columns(head)], axis=-1)  # (n,)


def shares_of_what_is_added(weights, lengths):
    """Each key's share of what a head adds to a row, ‖α_j v_j W_O‖ / Σ_j: (..., n) from (..., n) and (n,).

    Kobayashi et al. (2020) weigh attention this way: a key with a short value adds
    little, whatever its weight.
    """
    added = np.asarray(weights) * lengths  # (..., n): ‖α_j v_j W_O‖, since α_j ≥ 0
    return added / added.sum(axis=-1, keepdims=True)


def what_is_added(layer, head, query, sentence=SENTENCE):
    """What each key adds to the row of `query` in one head, α_j v_j W_O: (n, d_model).

    The head's output in that row, through W_O, is the sum of these rows (W_O's bias aside).
    Their lengths are Kobayashi et al.'s measure; vectors of different keys can point
    apart and partly cancel, so the lengths add up to more than the sum's length.
    """
    _, inputs, weights, _ = minilm.run(sentence)
    (_, _, _, w_o), _ = minilm.attention_parameters(layer)
    values = minilm.values(inputs[layer], layer)[head]  # (n, d_head)
    return weights[layer, head, query][:, None] * (values @ w_o[minilm.head_columns(head)])  # (n, d_model)


def shares_along_the_sum(added):
    """Each key's share of what a head adds, measured along the sum: (n,) from (n, d_model); they add up to 1.

    Key j's vector projected on the direction of Σ_k α_k v_k W_O, divided by the sum's
    length. Unlike shares of length, one can be negative (a key pulling against the rest).
    """
    total = added.sum(axis=0)  # (d_model,)
    return added @ total / (total @ total)


def special_share_of_what_is_added(sentence=SENTENCE):
    """Like `special_share`, but by what [CLS] and [SEP] add, ‖α_j v_j W_O‖: (layers, heads)."""
    _, weights = minilm.attention_weights(sentence)  # (layers, heads, n, n)
    shares = np.empty(weights.shape[:2])
    for layer in range(weights.shape[0]):
        for head in range(weights.shape[1]):
            added = shares_of_what_is_added(weights[layer, head, 1:-1], value_lengths(layer, head, sentence))
            shares[layer, head] = (added[:, 0] + added[:, -1]).mean()  # the words' rows
    return shares


# --- What and where: layer 0's scores split by where the rows came from ---

def layer0_parts(sentence=SENTENCE):
    """Layer 0's input rows split exactly into a token part, a position part and the rest: three (n, d_model).

    A row is LayerNorm(token + position + segment): centred, divided by its own
    standard deviation, times the scale, plus the shift. Centring and dividing
    act on each summand alike, so the row is T + P + R with T the token
    embedding's share, P the position embedding's, and R the segment's and the shift.
    """
    w = minilm.weights()
    _, ids = minilm.tokenize(sentence)
    parts = minilm.embedding_parts(ids)  # token, position, segment: (n, d_model) each
    whole = sum(parts)
    deviation = np.sqrt(whole.var(axis=-1, keepdims=True) + minilm.LAYER_NORM_EPS)  # (n, 1)
    scale, shift = w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"]
    token, position, segment = ((p - p.mean(axis=-1, keepdims=True)) / deviation * scale for p in parts)
    return token, position, segment + shift


def layer0_score_parts(head, query, sentence=SENTENCE):
    """One row of layer 0's scores (before ÷√d_head) split by the parts of query and key rows.

    Returns {"token·token": (n,), "token·position": ..., "position·token": ...,
    "position·position": ..., "the rest": ...}: the first word of each name is
    the query's part, the second the key's; "the rest" holds every product with
    a segment, shift or bias part. The five add up to the row of scores.
    """
    token, position, rest = layer0_parts(sentence)
    (w_q, w_k, _, _), (b_q, b_k, _, _) = minilm.attention_parameters(0)
    columns = minilm.head_columns(head)
    queries = {"token": token[query] @ w_q[:, columns], "position": position[query] @ w_q[:, columns],
               "rest": rest[query] @ w_q[:, columns] + b_q[columns]}  # each (d_head,)
    keys = {"token": token @ w_k[:, columns], "position": position @ w_k[:, columns],
            "rest": rest @ w_k[:, columns] + b_k[columns]}  # each (n, d_head)
    parts = {f"{a}·{b}": keys[b] @ queries[a] for a in ("token", "position") for b in ("token", "position")}
    parts["the rest"] = sum(keys[b] @ queries[a] for a in queries for b in keys if "rest" in (a, b))
    return parts


# --- Whether it matters: the sentence embeddings with heads removed ---

# The heads these chapters name, and the one in which "milk" gives "drank" the most.
CHAPTER_HEADS = {"previous token": (0, 2), "next token": (1, 8), "determiner → noun": (2, 8),
                 "drank → milk": (0, 4), "object → verb": (2, 0)}
# The sentence-transformers documentation's three sentences (trained-model.md#the-model).
DOCUMENTED = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]

def embedding_drift(sentences, removed, replacement=None):
    """1 − cos(embedding with `removed` heads, intact embedding) for each sentence: (len(sentences),).

    0 means the head made no difference to what the model outputs for that sentence.
    """
    intact = [minilm.sentence_embedding(s) for s in sentences]  # before the removed runs fill the cache
    return np.array([1 - minilm.sentence_embedding(s, removed, replacement) @ e for s, e in zip(sentences, intact)])


def similarity_change(removed, replacement=None, sentences=DOCUMENTED):
    """The largest change, with `removed` heads, in the cosine of any two of `sentences`."""
    intact = np.array([minilm.sentence_embedding(s) for s in sentences])  # (m, 384)
    changed = np.array([minilm.sentence_embedding(s, removed, replacement) for s in sentences])
    upper = np.triu_indices(len(sentences), 1)
    return float(np.abs((changed @ changed.T - intact @ intact.T)[upper]).max())


def removals(sentences, draws=5, seed=0):
    """What removing heads does to the embeddings: {label: (zero, mean)}, each (turn, similarity change).

    turn is the mean `embedding_drift` over `sentences`; the similarity change is
    `similarity_change` on the documented sentences. The heads: each of
    CHAPTER_HEADS, all five, and `draws` draws of one and of five heads at random.
    Zero puts zeros in a removed head's place; mean, its mean output over `sentences`.
    """
    mean = minilm.mean_head_outputs(sentences)  # (layers, heads, d_head)
    rng = np.random.default_rng(seed)
    sets = {name: [head] for name, head in CHAPTER_HEADS.items()}
    sets["all five"] = list(CHAPTER_HEADS.values())
    for size in (1, 5):
        for draw in range(draws):
            chosen = rng.choice(minilm.N_LAYERS * minilm.N_HEADS, size, replace=False)
            sets[f"{size} at random, draw {draw + 1}"] = [divmod(int(i), minilm.N_HEADS) for i in chosen]
    return {label: tuple((float(embedding_drift(sentences, heads, replacement).mean()),
                          similarity_change(heads, replacement)) for replacement in (None, mean))
            for label, heads in sets.items()}

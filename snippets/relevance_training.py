"""Train one attention layer in plain NumPy until "milk" attends to "drank".

A toy model learns, by gradient descent with backpropagation written out by
hand, to answer one question about every drink or food in generated
sentences such as

    The black cat drank the milk
    The white dog nibbled the fish and sipped the water

namely: how much of it is left? (none, a little, most or all). The answer
depends on two words of the sentence:

- its verb: what was drunk or eaten leaves none or a little, what was sipped
  or nibbled leaves most or all;
- the animal: a dog leaves the smaller amount of that pair 9 times in 10, a
  cat the larger one 9 times in 10.

The adjective says nothing. In a sentence with two verbs, the other verb
says nothing about this object either, so each object has to find its own
verb. The model has no position encoding, so it cannot learn "look two
words back"; in these sentences it need not, since a drink and a food never
share a sentence: drinks go with "drank" and "sipped", food with "ate" and
"nibbled".

`train_same_kind` lets both objects be drinks (or both food): "The black cat
drank the milk and sipped the water". To a bag of words that sentence is
"... sipped the milk and drank the water", with the answers swapped, so the
model fails; with `position`, it adds b_pos[j - i], one learned number per
distance from the query i to the key j, to every score (a relative position
bias, as in T5), and learns to look two words back.

The model (d_model = 6, d_k = 4):

    x = W_e[tokens]                  (n, d_model)  embedding, no position encoding
    q = x[i] @ W_Q                   (d_k,)        the query of object i
    k = x @ W_K                      (n, d_k)      one key per word
    v = tanh(x @ W_V)                (n, 4)        one vote in [-1, 1] per amount
    z, a = attention(q, k, v)        (4,), (n,)    softmax(q kᵀ / √d_k (+ b_pos)) v
    p = softmax(SCALE * z)           (4,)          probability of each amount

Because every vote lies in [-1, 1] and the weights add up to 1, a word can
pass on only as much of its vote as its weight allows: to predict well, the
model has to spend its attention where the evidence is.

Run it to train and print the trained attention weights of "milk".
"""

import functools
import time
from typing import NamedTuple

import numpy as np

from attention import scaled_dot_product_attention, softmax

ADJECTIVES = ["black", "white"]
ANIMALS = ["cat", "dog"]
VERBS = {"drink": ("drank", "sipped"), "food": ("ate", "nibbled")}  # (leaves little, leaves a lot)
OBJECTS = {"drink": ("milk", "water"), "food": ("fish", "meat")}
KINDS = list(VERBS)
AMOUNTS = ["none", "a little", "most", "all"]  # how much of the object is left
PAD = "<pad>"  # fills short sentences up to the longest; never attended to
VOCAB = [PAD, "The", "the", "and", *ADJECTIVES, *ANIMALS,
         *VERBS["drink"], *VERBS["food"], *OBJECTS["drink"], *OBJECTS["food"]]
TOKEN = {word: i for i, word in enumerate(VOCAB)}
SENTENCE = ["The", "black", "cat", "drank", "the", "milk"]
LONGEST = 10  # "The <adj> <animal> <verb> the <object> and <verb> the <object>"

P_GREEDY = 0.9  # how often the dog leaves the smaller amount, and the cat the larger

# Sizes and training settings.
D_MODEL = 6  # width of an embedding row
D_K = 4  # width of a Query or Key row
D_V = len(AMOUNTS)  # a Value row holds one vote per amount
SCALE = 3.0  # p = softmax(SCALE * z): how decisive a full vote can be
N_SENTENCES = 2000
STEPS = 1500
LEARNING_RATE = 0.4
INIT_STD = 0.5
QK_STD = 0.1
WATCHED_KEYS = ["drank", "cat", "black"]  # keys whose alignment with milk's query we record
# The same-kind task ("drank the milk and sipped the water"): shorter runs, larger steps.
SAME_KIND_STEPS = 300
SAME_KIND_RATE = 0.8


class Data(NamedTuple):
    """One row per object to answer for: its sentence, its position, the answer and its share."""

    tokens: np.ndarray  # (m, LONGEST) token ids, padded with PAD
    query: np.ndarray  # (m,) position of the object in its sentence
    targets: np.ndarray  # (m,) index into AMOUNTS of how much is left
    shares: np.ndarray  # (m,) share of all the generated objects; sums to 1


class Run(NamedTuple):
    """What `train()` returns: the parameters before and after, and a history.

    Every history has one entry per step, before the update of that step,
    plus one after the last update. Treat it as read-only: it is cached.
    """

    params_before: dict
    params: dict
    losses: np.ndarray  # (STEPS + 1,) training loss
    weights: np.ndarray  # (STEPS + 1, 6) attention of "milk" over SENTENCE
    cosines: np.ndarray  # (STEPS + 1, 3) cos(q_milk, k_w) for w in WATCHED_KEYS
    scores: np.ndarray  # (STEPS + 1, 3) q_milk · k_w / √d_k for w in WATCHED_KEYS
    queries: np.ndarray  # (STEPS + 1, d_k) the query of "milk"
    keys: np.ndarray  # (STEPS + 1, 6, d_k) the keys of SENTENCE


def amount_left(verb, animal, rng, p_greedy=P_GREEDY):
    """Index into AMOUNTS: the verb picks a pair, the animal tips it."""
    pair = 0 if verb in ("drank", "ate") else 2  # (none, a little) or (most, all)
    greedy = p_greedy if animal == "dog" else 1 - p_greedy
    return pair if rng.random() < greedy else pair + 1


def generate(n=N_SENTENCES, seed=0, p_greedy=P_GREEDY, same_kind=False, keep_order=False):
    """Generate n sentences of one or two clauses; return one row per distinct object to answer for.

    A sentence names an animal and one or two objects, each with its own verb:
    a drink and a food in either order or, with `same_kind`, two objects of
    kinds drawn independently, so that both can be drinks ("drank the milk and
    sipped the water"). Without `keep_order` each sentence's words are sorted
    (a model without position cannot tell the difference), so that more rows
    are identical. Identical rows are merged, each weighted by how often it
    came up, which gives the same average loss.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        animal = ANIMALS[rng.integers(len(ANIMALS))]
        words = ["The", ADJECTIVES[rng.integers(2)], animal]
        if same_kind:
            kinds = [KINDS[rng.integers(2)] for _ in range(2)]
        else:
            kinds = ["drink", "food"] if rng.random() < 0.5 else ["food", "drink"]
        objects = []
        for kind in kinds[: rng.integers(1, 3)]:
            verb = VERBS[kind][rng.integers(2)]
            words += (["and"] if objects else []) + [verb, "the", OBJECTS[kind][rng.integers(2)]]
            objects.append((len(words) - 1, amount_left(verb, animal, rng, p_greedy)))
        order = list(range(len(words)))
        if not keep_order:  # to a model without position, sentences with the same words are the
            order.sort(key=lambda i: (TOKEN[words[i]], i))  # same: sort them, so that they merge below
        tokens = [TOKEN[words[i]] for i in order] + [TOKEN[PAD]] * (LONGEST - len(words))
        rows += [tokens + [order.index(position), amount] for position, amount in objects]
    distinct, counts = np.unique(np.array(rows), axis=0, return_counts=True)
    return Data(distinct[:, :LONGEST], distinct[:, LONGEST], distinct[:, LONGEST + 1],
                counts / counts.sum())


def init_params(seed=0, position=False):
    """Small random parameters: the embedding table and the three linear layers.

    With `position`, also b_pos: one number per distance from the query to a
    key, added to that key's score (a relative position bias), zero at first.
    """
    rng = np.random.default_rng(seed)
    params = {
        "W_e": rng.normal(0.0, INIT_STD, (len(VOCAB), D_MODEL)),
        "W_Q": rng.normal(0.0, QK_STD, (D_MODEL, D_K)),
        "W_K": rng.normal(0.0, QK_STD, (D_MODEL, D_K)),
        "W_V": rng.normal(0.0, INIT_STD, (D_MODEL, D_V)),
    }
    if position:
        params["b_pos"] = np.zeros(2 * LONGEST - 1)  # distances -(LONGEST-1) ... LONGEST-1
    return params


def distance_index(query, n):
    """Index into b_pos of the distance j - i from each query i to each key j.  (m, n)"""
    return np.arange(n)[None, :] - np.asarray(query)[:, None] + LONGEST - 1


def forward(params, tokens, query, scale=SCALE):
    """The model on a batch of objects; returns every intermediate array."""
    m, n = tokens.shape
    rows = np.arange(m)
    x = params["W_e"][tokens]  # (m, n, d_model)
    x_flat = x.reshape(m * n, D_MODEL)  # every word of every row, for the matrix products
    q = x[rows, query] @ params["W_Q"]  # (m, d_k): each object asks
    k = (x_flat @ params["W_K"]).reshape(m, n, D_K)  # (m, n, d_k)
    v = np.tanh(x_flat @ params["W_V"]).reshape(m, n, D_V)  # (m, n, d_v)
    mask = (tokens != TOKEN[PAD])[:, None, :]  # (m, 1, n): padding is never attended to
    # With position, one learned number for the distance from query to key is added to each score.
    bias = params["b_pos"][distance_index(query, n)][:, None, :] if "b_pos" in params else None  # (m, 1, n)
    z, a = scaled_dot_product_attention(q[:, None, :], k, v, mask=mask, score_bias=bias)  # (m, 1, d_v), (m, 1, n)
    p = softmax(scale * z[:, 0])  # (m, n_amounts)
    return {"x": x, "q": q, "k": k, "v": v, "a": a[:, 0], "z": z[:, 0], "p": p}


def loss_and_grads(params, data, scale=SCALE):
    """Cross-entropy loss and its gradient for every parameter array.

    The backward pass undoes the forward pass one line at a time, from the
    loss back to the embedding (numbered steps below).
    """
    f = forward(params, data.tokens, data.query, scale)
    x, q, k, v, a, p = f["x"], f["q"], f["k"], f["v"], f["a"], f["p"]
    rows = np.arange(len(data.targets))
    loss = -np.sum(data.shares * np.log(p[rows, data.targets]))

    # 1. loss = -log p[target], p = softmax(scale * z)
    d_logits = p.copy()
    d_logits[rows, data.targets] -= 1.0
    d_z = scale * data.shares[:, None] * d_logits  # (m, d_v)
    # 2. z = Σ_j a_j v_j
    d_a = np.einsum("mjd,md->mj", v, d_z)  # (m, n)
    d_v = a[:, :, None] * d_z[:, None, :]  # (m, n, d_v)
    # 3. a = softmax(s); padded keys have a = 0, so their gradient is 0
    d_s = a * (d_a - np.sum(a * d_a, axis=-1, keepdims=True))  # (m, n)
    # 4. s_j = q · k_j / √d_k (+ b_pos[j - i])
    d_q = np.einsum("mj,mjd->md", d_s, k) / np.sqrt(D_K)  # (m, d_k)
    d_k = d_s[:, :, None] * q[:, None, :] / np.sqrt(D_K)  # (m, n, d_k)
    # 5. v = tanh(x W_V)
    d_xv = d_v * (1.0 - v**2)  # (m, n, d_v), gradient of x W_V
    # 6. q = x_query W_Q, k = x W_K, x W_V (every word of every row at once)
    m, n = data.tokens.shape
    x_flat = x.reshape(m * n, D_MODEL)
    d_k, d_xv = d_k.reshape(m * n, D_K), d_xv.reshape(m * n, D_V)
    grads = {
        "W_Q": x[rows, data.query].T @ d_q,
        "W_K": x_flat.T @ d_k,
        "W_V": x_flat.T @ d_xv,
    }
    if "b_pos" in params:
        grads["b_pos"] = np.bincount(distance_index(data.query, n).ravel(), d_s.ravel(), 2 * LONGEST - 1)
    d_x = d_k @ params["W_K"].T + d_xv @ params["W_V"].T  # (m * n, d_model)
    d_x[rows * n + data.query] += d_q @ params["W_Q"].T
    # 7. x = W_e[tokens]: each row of W_e collects the gradients of its words
    tokens = data.tokens.ravel()
    grads["W_e"] = np.stack([np.bincount(tokens, d_x[:, c], len(VOCAB)) for c in range(D_MODEL)], axis=1)
    return loss, grads


def encode(words):
    """Token ids of one sentence, as a batch of one.  (1, n)"""
    return np.array([[TOKEN[w] for w in words]])


def attention_scores(params, words=SENTENCE, query_word="milk", at=None):
    """The scores of `query_word`'s query for the keys of `words`: q · k / √d_k (+ b_pos).  (n,)

    The query word need not be one of the words: `attention_scores(params,
    sentence, "fish")` asks how fish's query would score that sentence.
    A model with position also needs the query's place: `at`, by default
    where `query_word` stands in `words`.
    """
    w_e = params["W_e"]
    q = w_e[TOKEN[query_word]] @ params["W_Q"]  # (d_k,)
    k = w_e[[TOKEN[w] for w in words]] @ params["W_K"]  # (n, d_k)
    scores = k @ q / np.sqrt(D_K)  # (n,)
    if "b_pos" in params:
        at = words.index(query_word) if at is None else at
        scores = scores + params["b_pos"][distance_index([at], len(words))[0]]
    return scores


def attention_row(params, words=SENTENCE, query_word="milk", at=None):
    """The attention weights of `query_word`'s query over the keys of `words`: softmax of `attention_scores`.  (n,)"""
    return softmax(attention_scores(params, words, query_word, at))


def predict(params, words, at):
    """The model's probability of each amount for the object at position `at` of `words`.  (4,)"""
    return forward(params, encode(words), [at])["p"][0]


def query_and_key(params, query_word, key_word):
    """The query of one word and the key of another (no position encoding: one of each per word)."""
    w_e = params["W_e"]
    return w_e[TOKEN[query_word]] @ params["W_Q"], w_e[TOKEN[key_word]] @ params["W_K"]


def milk_vectors(params):
    """The query of "milk" and the keys of SENTENCE.  (d_k,), (6, d_k)"""
    w_e = params["W_e"]
    return w_e[TOKEN["milk"]] @ params["W_Q"], w_e[[TOKEN[w] for w in SENTENCE]] @ params["W_K"]


def key_plane(run):
    """The plane of drank's and cat's keys at the end of `run`: two orthonormal columns, x along drank's.  (d_k, 2)"""
    drank, cat = run.keys[-1, SENTENCE.index("drank")], run.keys[-1, SENTENCE.index("cat")]
    x = drank / np.linalg.norm(drank)
    y = cat - (cat @ x) * x  # the part of cat's key at right angles to drank's
    return np.column_stack([x, y / np.linalg.norm(y)])


def plane_shares(run, step):
    """The share of each vector's squared length that `key_plane(run)` keeps at `step`:
    milk's query, then the keys of SENTENCE.  (7,)"""
    vectors = np.vstack([run.queries[step], run.keys[step]])  # (7, d_k)
    kept = vectors @ key_plane(run)
    return np.sum(kept**2, axis=1) / np.sum(vectors**2, axis=1)


def milk_alignment(params):
    """Cosine and scaled score of milk's query with each key of WATCHED_KEYS."""
    cosines, scores = [], []
    for word in WATCHED_KEYS:
        q, k = query_and_key(params, "milk", word)
        cosines.append(q @ k / (np.linalg.norm(q) * np.linalg.norm(k)))
        scores.append(q @ k / np.sqrt(D_K))
    return cosines, scores


def loss_floor(data):
    """The lowest training loss any model could reach on `data`.

    Rows that show the same words and ask about the same object can only get
    one prediction; the best one is the share of each answer among them, and
    its loss is the entropy of those shares, weighted by how often they occur.
    """
    contexts = np.column_stack([data.tokens, data.query])
    _, group = np.unique(contexts, axis=0, return_inverse=True)
    group = group.ravel()
    group_share = np.bincount(group, data.shares)  # how often each context occurs
    answer_share = data.shares / group_share[group]  # share of this answer within its context
    return -np.sum(data.shares * np.log(answer_share))


@functools.lru_cache(maxsize=None)
def train(steps=STEPS, seed=0, p_greedy=P_GREEDY, scale=SCALE, same_kind=False, position=False,
          learning_rate=LEARNING_RATE):
    """Plain gradient descent on all the generated sentences at once; cached, so it runs once.

    `same_kind` trains on sentences whose two objects may be of one kind;
    `position` adds the relative position bias b_pos to the model.
    """
    data = generate(seed=seed, p_greedy=p_greedy, same_kind=same_kind, keep_order=position)
    params = init_params(seed=seed, position=position)
    before = {name: w.copy() for name, w in params.items()}
    losses, weights, cosines, scores, queries, keys = [], [], [], [], [], []
    for step in range(steps + 1):
        loss, grads = loss_and_grads(params, data, scale)
        losses.append(loss)
        weights.append(attention_row(params))
        c, s = milk_alignment(params)
        cosines.append(c)
        scores.append(s)
        q, k = milk_vectors(params)
        queries.append(q)
        keys.append(k)
        if step < steps:
            for name in params:
                params[name] -= learning_rate * grads[name]
    history = (np.array(h) for h in (losses, weights, cosines, scores, queries, keys))
    return Run(before, params, *history)


def train_same_kind(position):
    """The model trained on sentences whose two objects may be of one kind, with or without b_pos."""
    return train(steps=SAME_KIND_STEPS, same_kind=True, position=position, learning_rate=SAME_KIND_RATE)


if __name__ == "__main__":
    start = time.perf_counter()
    run = train()
    seconds = time.perf_counter() - start
    print(f"{STEPS} steps in {seconds:.2f} s, loss {run.losses[0]:.3f} -> {run.losses[-1]:.3f}")
    print('attention weights of "milk" after training:')
    for word, weight in zip(SENTENCE, attention_row(run.params)):
        print(f"{word} {weight:.3f}")

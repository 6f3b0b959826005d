"""Train one attention layer in plain NumPy until "milk" attends to "drank".

A toy model learns, by gradient descent with backpropagation written out by
hand, to fill the last slot of generated sentences of the form

    The <adjective> <animal> <verb> the <object>

The verb decides between two pairs of objects (drank: milk or water; ate:
fish or meat), the animal tips the choice within the pair (a cat prefers milk
and fish, a dog water and meat, 4 times out of 5), and the adjective says
nothing. The word in the last slot is drawn at random, so the model cannot
read the answer off it: its query must look for evidence among the other
words. After training, on "The black cat drank the milk" the query of "milk"
puts most of its weight on "drank", some on "cat" and almost none on "black".

The model (sizes as in the running example: d_model = 4, d_k = 3):

    x = W_e[tokens]                  (6, d_model)  embedding, no position encoding
    q = x[-1] @ W_Q                  (d_k,)        the last word's query
    k = x @ W_K                      (6, d_k)      one key per word
    v = tanh(x @ W_V)                (6, 4)        one vote in [-1, 1] per object
    z, a = attention(q, k, v)        (4,), (6,)    softmax(q kᵀ / √d_k) v
    p = softmax(SCALE * z)           (4,)          probability of each object

Because every vote lies in [-1, 1] and the weights add up to 1, a word can
pass on only as much of its vote as its weight allows: to predict well, the
model has to put its attention where the evidence is.

Run it to train and print the trained attention weights of "milk".
"""

import functools
import time
from typing import NamedTuple

import numpy as np

from attention import scaled_dot_product_attention, softmax

# The vocabulary: each kind of word has its own slot in the sentence, and
# "The" and "the" are different tokens, so a word already tells its position.
ADJECTIVES = ["black", "white", "brown", "small"]
ANIMALS = ["cat", "dog"]
VERBS = ["drank", "ate"]
OBJECTS = ["milk", "water", "fish", "meat"]
VOCAB = ["The", "the", *ADJECTIVES, *ANIMALS, *VERBS, *OBJECTS]
TOKEN = {word: i for i, word in enumerate(VOCAB)}
SENTENCE = ["The", "black", "cat", "drank", "the", "milk"]

# How the real object is chosen: the verb picks a pair, and the animal its
# favourite of the pair (the cat's first, the dog's second) 4 times out of 5.
PAIRS = {"drank": ("milk", "water"), "ate": ("fish", "meat")}
P_FAVOURITE = 0.8

# Sizes and training settings.
D_MODEL = 4  # width of an embedding row
D_K = 3  # width of a Query or Key row
D_V = len(OBJECTS)  # a Value row holds one vote per object
SCALE = 3.0  # p = softmax(SCALE * z): how decisive a full vote can be
N_SENTENCES = 2000
STEPS = 2000
LEARNING_RATE = 0.3
INIT_STD = 0.3
WATCHED_KEYS = ["drank", "cat", "black"]  # keys whose alignment with milk's query we record


class Data(NamedTuple):
    """The distinct training sentences and how often each was generated."""

    tokens: np.ndarray  # (m, 6) token ids; the last slot holds a random object
    targets: np.ndarray  # (m,) index into OBJECTS of the real object
    shares: np.ndarray  # (m,) share of the generated sentences, sums to 1


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


def generate(n=N_SENTENCES, seed=0, p_favourite=P_FAVOURITE):
    """Generate n sentences; return the distinct ones with their shares.

    The real object is one of the verb's pair: the animal's favourite with
    probability p_favourite, the other one otherwise. The word shown in the
    last slot is an object drawn uniformly at random, right one time in four
    by chance, so the model cannot copy the answer from it.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        adjective = ADJECTIVES[rng.integers(len(ADJECTIVES))]
        animal = ANIMALS[rng.integers(len(ANIMALS))]
        verb = VERBS[rng.integers(len(VERBS))]
        favourite = ANIMALS.index(animal)  # 0 for the cat, 1 for the dog
        pick = favourite if rng.random() < p_favourite else 1 - favourite
        real = PAIRS[verb][pick]
        shown = OBJECTS[rng.integers(len(OBJECTS))]
        words = ["The", adjective, animal, verb, "the", shown]
        rows.append([TOKEN[w] for w in words] + [OBJECTS.index(real)])
    # Only a few hundred different sentences exist: train on each once,
    # weighted by its count. The loss is the same average over all n.
    distinct, counts = np.unique(np.array(rows), axis=0, return_counts=True)
    return Data(distinct[:, :6], distinct[:, 6], counts / n)


def init_params(seed=0):
    """Small random parameters: the embedding table and the three linear layers."""
    rng = np.random.default_rng(seed)
    return {
        "W_e": rng.normal(0.0, INIT_STD, (len(VOCAB), D_MODEL)),
        "W_Q": rng.normal(0.0, INIT_STD, (D_MODEL, D_K)),
        "W_K": rng.normal(0.0, INIT_STD, (D_MODEL, D_K)),
        "W_V": rng.normal(0.0, INIT_STD, (D_MODEL, D_V)),
    }


def encode(words):
    """Token ids of one sentence, as a batch of one.  (1, n)"""
    return np.array([[TOKEN[w] for w in words]])


def forward(params, tokens):
    """The model on a batch of sentences; returns every intermediate array."""
    x = params["W_e"][tokens]  # (m, 6, d_model)
    q = x[:, -1:] @ params["W_Q"]  # (m, 1, d_k): only the last word asks
    k = x @ params["W_K"]  # (m, 6, d_k)
    v = np.tanh(x @ params["W_V"])  # (m, 6, d_v)
    z, a = scaled_dot_product_attention(q, k, v)  # (m, 1, d_v), (m, 1, 6)
    p = softmax(SCALE * z[:, 0])  # (m, n_objects)
    return {"x": x, "q": q[:, 0], "k": k, "v": v, "a": a[:, 0], "z": z[:, 0], "p": p}


def loss_and_grads(params, data):
    """Cross-entropy loss and its gradient for every parameter array.

    The backward pass undoes the forward pass one line at a time, from the
    loss back to the embedding (numbered steps below).
    """
    f = forward(params, data.tokens)
    x, q, k, v, a, p = f["x"], f["q"], f["k"], f["v"], f["a"], f["p"]
    rows = np.arange(len(data.targets))
    loss = -np.sum(data.shares * np.log(p[rows, data.targets]))

    # 1. loss = -log p[target], p = softmax(SCALE * z)
    d_logits = p.copy()
    d_logits[rows, data.targets] -= 1.0
    d_z = SCALE * data.shares[:, None] * d_logits  # (m, d_v)
    # 2. z = Σ_j a_j v_j
    d_a = np.sum(v * d_z[:, None, :], axis=-1)  # (m, 6)
    d_v = a[:, :, None] * d_z[:, None, :]  # (m, 6, d_v)
    # 3. a = softmax(s)
    d_s = a * (d_a - np.sum(a * d_a, axis=-1, keepdims=True))  # (m, 6)
    # 4. s_j = q · k_j / √d_k
    d_q = np.sum(d_s[:, :, None] * k, axis=1) / np.sqrt(D_K)  # (m, d_k)
    d_k = d_s[:, :, None] * q[:, None, :] / np.sqrt(D_K)  # (m, 6, d_k)
    # 5. v = tanh(x W_V)
    d_xv = d_v * (1.0 - v**2)  # (m, 6, d_v), gradient of x W_V
    # 6. q = x_last W_Q, k = x W_K, x W_V
    x_all = x.reshape(-1, D_MODEL)
    grads = {
        "W_Q": x[:, -1].T @ d_q,
        "W_K": x_all.T @ d_k.reshape(-1, D_K),
        "W_V": x_all.T @ d_xv.reshape(-1, D_V),
    }
    d_x = d_k @ params["W_K"].T + d_xv @ params["W_V"].T  # (m, 6, d_model)
    d_x[:, -1] += d_q @ params["W_Q"].T
    # 7. x = W_e[tokens]: each row of W_e collects the gradients of its words
    grads["W_e"] = np.zeros_like(params["W_e"])
    np.add.at(grads["W_e"], data.tokens.ravel(), d_x.reshape(-1, D_MODEL))
    return loss, grads


def attention_row(params, words=SENTENCE):
    """The attention weights of the last word's query over all the words.  (n,)"""
    return forward(params, encode(words))["a"][0]


def query_and_key(params, query_word, key_word):
    """The query of one word and the key of another (no position encoding)."""
    w_e = params["W_e"]
    return w_e[TOKEN[query_word]] @ params["W_Q"], w_e[TOKEN[key_word]] @ params["W_K"]


def milk_alignment(params):
    """Cosine and scaled score of milk's query with each key of WATCHED_KEYS."""
    cosines, scores = [], []
    for word in WATCHED_KEYS:
        q, k = query_and_key(params, "milk", word)
        cosines.append(q @ k / (np.linalg.norm(q) * np.linalg.norm(k)))
        scores.append(q @ k / np.sqrt(D_K))
    return cosines, scores


@functools.lru_cache(maxsize=None)
def train(steps=STEPS, seed=0, p_favourite=P_FAVOURITE):
    """Plain gradient descent on the generated sentences; cached, so it runs once."""
    data = generate(seed=seed, p_favourite=p_favourite)
    params = init_params(seed=seed)
    before = {name: w.copy() for name, w in params.items()}
    losses, weights, cosines, scores = [], [], [], []
    for step in range(steps + 1):
        loss, grads = loss_and_grads(params, data)
        losses.append(loss)
        weights.append(attention_row(params))
        c, s = milk_alignment(params)
        cosines.append(c)
        scores.append(s)
        if step < steps:
            for name in params:
                params[name] -= LEARNING_RATE * grads[name]
    history = (np.array(h) for h in (losses, weights, cosines, scores))
    return Run(before, params, *history)


if __name__ == "__main__":
    start = time.perf_counter()
    run = train()
    seconds = time.perf_counter() - start
    print(f"{STEPS} steps in {seconds:.2f} s, loss {run.losses[0]:.3f} -> {run.losses[-1]:.3f}")
    print('attention weights of "milk" after training:')
    for word, weight in zip(SENTENCE, attention_row(run.params)):
        print(f"{word} {weight:.3f}")

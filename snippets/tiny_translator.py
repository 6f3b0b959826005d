"""A tiny English-to-Spanish translator, trained in plain NumPy, whose cross-attention can be read.

The language it learns is generated from a small lexicon:

    The ball is blue                  ->  La bola es azul
    The dog sees the blue ball        ->  El perro ve la bola azul
    The big girl has the green hat    ->  La niña grande tiene el sombrero verde

Two things make it more than word-for-word: an adjective comes *after* its
noun in Spanish, and the article agrees with the noun's gender (el perro,
la bola), though the noun comes after the article, and sometimes after an
adjective, in English. So the decoder cannot read the English in order: to
write "la" it has to look ahead at the noun.

The model is a Transformer with one encoder layer and one decoder layer
(d_model = 16), written out in NumPy; every attention goes through
`attention.py` and the position of each word comes from `position_encoding.py`:

    e  = W_en[english] + PE             (n_e, d)   the English words and their places
    h  = add_and_norm(e, ffn(e))        (n_e, d)   encoder: a feed-forward sublayer, no self-attention
    y  = W_es[spanish_in] + PE          (n_s, d)   the Spanish words so far, shifted right (<start> first)
    y1 = add_and_norm(y, masked_self_attention(y))
    y2 = add_and_norm(y1, cross_attention(y1, h))   ONE head: queries from y1, keys and values from h
    y3 = add_and_norm(y2, ffn(y2))
    p  = softmax(y3 @ W_out + b_out)    (n_s, n_vocab)  the next Spanish word at each position

With one head, an output projection W_O would only multiply W_V by another
matrix, so the attention sublayers leave it out. Without self-attention in
the encoder, the row of an English word holds that word and its place only:
a decoder position that needs the gender of a noun must attend to the noun
itself. `train(encoder_self_attention=True)` adds a self-attention sublayer
to the encoder; then a word's row can carry its neighbours, and where the
cross-attention looks is no longer forced to be the word translated.

Backpropagation is written by hand (`loss_and_grads`), checked against
finite differences by tests/test_tiny_translator.py; training is Adam on
minibatches, seeded, and takes about a second on one core.

    params = train()                                  # cached: trained once per process
    words, cross_weights = translate("The dog sees the blue ball")
    # words: ['El', 'perro', 've', 'la', 'bola', 'azul']; cross_weights (6, 6): one row per word written

Run it to train, print the held-out accuracy and the cross-attention of one sentence.
"""

import functools
import time

import numpy as np

from attention import add_and_norm, look_ahead_mask, scaled_dot_product_attention, softmax
from position_encoding import sinusoidal_position_encoding

# The lexicon. Nouns carry their Spanish gender: "m" takes "el", "f" takes "la".
ANIMATE = {"dog": ("perro", "m"), "cat": ("gato", "m"), "girl": ("niña", "f"), "woman": ("mujer", "f")}
THINGS = {"ball": ("bola", "f"), "house": ("casa", "f"), "box": ("caja", "f"),
          "book": ("libro", "m"), "car": ("coche", "m"), "hat": ("sombrero", "m")}
NOUNS = {**ANIMATE, **THINGS}
# Adjectives with one form for both genders, some for people and animals, some for things.
ANIMATE_ADJECTIVES = {"big": "grande", "young": "joven", "happy": "feliz", "sad": "triste"}
THING_ADJECTIVES = {"big": "grande", "blue": "azul", "green": "verde", "grey": "gris", "brown": "marrón"}
ADJECTIVES = {**ANIMATE_ADJECTIVES, **THING_ADJECTIVES}
VERBS = {"sees": "ve", "has": "tiene", "wants": "quiere", "pushes": "empuja"}
ARTICLES = {"m": "el", "f": "la"}  # Spanish; English has "the" for both

# Each English content word and its Spanish word. The articles are left out: "the" is
# "el" or "la", depending on the noun.
LEXICON = {**{en: es for en, (es, _) in NOUNS.items()}, **ADJECTIVES, "is": "es", **VERBS}

PAD, START, END = "<pad>", "<start>", "<end>"
ENGLISH = [PAD, "the", *NOUNS, *ADJECTIVES, "is", *VERBS]
SPANISH = [PAD, START, END, *ARTICLES.values(), *(es for es, _ in NOUNS.values()), *ADJECTIVES.values(),
           "es", *VERBS.values()]
EN_ID = {word: i for i, word in enumerate(ENGLISH)}
ES_ID = {word: i for i, word in enumerate(SPANISH)}
LONGEST = 7  # "the <adj> <noun> <verb> the <adj> <noun>"

# The example the chapter shows: held out from training, like every held-out pair.
EXAMPLES = ["The dog sees the blue ball", "The ball is blue"]

# Sizes and training settings.
D_MODEL = 16  # width of every row; the one cross-attention head uses all of it (d_k = 16)
D_FF = 32  # width of the hidden layer of each feed-forward sublayer
N_TRAIN = 1500  # training pairs
N_HELD_OUT = 200  # held-out pairs, never trained on
SEED = 0
STEPS = 700
BATCH = 64
LEARNING_RATE = 0.015  # Adam's step size
INIT_STD = 0.3


# ---- The language ----

def spanish_of(english_words):
    """The Spanish words of a sentence of the language, from its English words (lowercase).

    The article takes the gender of the noun it goes with, and an adjective
    moves after its noun; the rest is word for word.
    """
    spanish, i = [], 0
    while i < len(english_words):
        if english_words[i] == "the":  # "the" [adjective] noun -> article noun [adjective]
            phrase = english_words[i + 1:i + 3] if english_words[i + 1] in ADJECTIVES else english_words[i + 1:i + 2]
            noun, gender = NOUNS[phrase[-1]]
            spanish += [ARTICLES[gender], noun] + [ADJECTIVES[w] for w in phrase[:-1]]
            i += 1 + len(phrase)
        else:
            spanish.append(LEXICON[english_words[i]])
            i += 1
    return spanish


def _random_sentence(rng):
    """One English sentence of the language: "the [adj] noun is adj" or "the [adj] noun verb the [adj] noun"."""
    def pick(words, avoid=()):
        words = [w for w in words if w not in avoid]
        return words[rng.integers(len(words))]

    def phrase(nouns, adjectives, avoid=()):  # "the [adjective] noun", half of them with an adjective
        adjective = [pick(adjectives, avoid)] if rng.random() < 0.5 else []
        return ["the", *adjective, pick(nouns, avoid)]

    if rng.random() < 0.25:
        kind = (ANIMATE, ANIMATE_ADJECTIVES) if rng.random() < 0.5 else (THINGS, THING_ADJECTIVES)
        subject = phrase(*kind)
        return subject + ["is", pick(kind[1], subject)]
    subject = phrase(ANIMATE, ANIMATE_ADJECTIVES)
    return subject + [pick(VERBS)] + phrase(THINGS, THING_ADJECTIVES, subject)


def _as_text(words):
    """Words as a sentence: separated by spaces, the first with a capital letter."""
    return " ".join([words[0].capitalize(), *words[1:]])


@functools.cache
def _split(seed=SEED):
    """(training, held-out) English sentences as word tuples: distinct, and no sentence in both."""
    rng = np.random.default_rng(seed)
    held_out = [tuple(s.lower().split()) for s in EXAMPLES]
    seen = set(held_out)
    sentences = []
    while len(sentences) < N_TRAIN + N_HELD_OUT - len(held_out):
        words = tuple(_random_sentence(rng))
        if words not in seen:
            seen.add(words)
            sentences.append(words)
    return sentences[:N_TRAIN], held_out + sentences[N_TRAIN:]


def training_pairs():
    """The pairs the model is trained on: a list of (english, spanish) strings, words separated by spaces."""
    return [(_as_text(list(s)), _as_text(spanish_of(s))) for s in _split()[0]]


def held_out_pairs():
    """Pairs of the same language that training never sees (`EXAMPLES` first): (english, spanish) strings."""
    return [(_as_text(list(s)), _as_text(spanish_of(s))) for s in _split()[1]]


# ---- The model ----

def english_ids(text):
    """Token ids of an English sentence (any case).  (n_e,)

    Raises
    ------
    ValueError
        If the text is empty or holds a word outside the lexicon (the message names it).
    """
    if not isinstance(text, str):
        raise ValueError(f"english must be a string of words separated by spaces, got {text!r}")
    words = text.lower().split()
    if not words:
        raise ValueError("english is empty: give a sentence such as 'The ball is blue'")
    for word in words:
        if word not in EN_ID or word == PAD:
            raise ValueError(f"unknown English word {word!r}: the translator knows 'the' and "
                             f"{', '.join(repr(w) for w in LEXICON)}")
    return np.array([EN_ID[w] for w in words])


def _batch(sentences):
    """English ids, the Spanish input (shifted right) and the Spanish words to write, padded with PAD."""
    n = len(sentences)
    src = np.full((n, LONGEST), EN_ID[PAD])
    tgt_in = np.full((n, LONGEST + 1), ES_ID[PAD])
    tgt_out = np.full((n, LONGEST + 1), ES_ID[PAD])
    for b, words in enumerate(sentences):
        spanish = [ES_ID[w] for w in spanish_of(words)]
        src[b, :len(words)] = [EN_ID[w] for w in words]
        tgt_in[b, :len(spanish) + 1] = [ES_ID[START], *spanish]
        tgt_out[b, :len(spanish) + 1] = [*spanish, ES_ID[END]]
    return src, tgt_in, tgt_out


def init_params(seed=SEED, encoder_self_attention=False):
    """Small random parameters; the encoder's self-attention (W_Q_enc, W_K_enc, W_V_enc) only if asked for."""
    rng = np.random.default_rng(seed)
    d, f = D_MODEL, D_FF
    shapes = {"W_en": (len(ENGLISH), d), "W_es": (len(SPANISH), d),
              "W1_enc": (d, f), "W2_enc": (f, d),
              "W_Q_self": (d, d), "W_K_self": (d, d), "W_V_self": (d, d),
              "W_Q_cross": (d, d), "W_K_cross": (d, d), "W_V_cross": (d, d),
              "W1_dec": (d, f), "W2_dec": (f, d), "W_out": (d, len(SPANISH))}
    if encoder_self_attention:
        shapes.update({"W_Q_enc": (d, d), "W_K_enc": (d, d), "W_V_enc": (d, d)})
    params = {name: rng.normal(0.0, INIT_STD, shape) for name, shape in shapes.items()}
    params.update({"b1_enc": np.zeros(f), "b2_enc": np.zeros(d), "b1_dec": np.zeros(f),
                   "b2_dec": np.zeros(d), "b_out": np.zeros(len(SPANISH))})
    return params


@functools.cache
def _positions(n):
    """The sinusoidal position encoding of places 0 ... n − 1, computed once per length.  (n, d)"""
    pe = sinusoidal_position_encoding(n, D_MODEL)
    pe.setflags(write=False)
    return pe


@functools.cache
def _look_ahead(n):
    """The decoder's look-ahead mask for n positions, made once per length.  (n, n)"""
    mask = look_ahead_mask(n)
    mask.setflags(write=False)
    return mask


def _ffn(x, w1, b1, w2, b2):
    """The feed-forward sublayer, ReLU(x W1 + b1) W2 + b2, with its hidden layer (before ReLU)."""
    u = x @ w1 + b1  # (..., n, d_ff)
    return np.maximum(u, 0.0) @ w2 + b2, u  # (..., n, d), (..., n, d_ff)


def _attend(x_q, x_kv, p, name, mask, values=None):
    """One attention head: queries from x_q, keys and values from x_kv (or the `values` given), through attention.py."""
    q, k = x_q @ p[f"W_Q_{name}"], x_kv @ p[f"W_K_{name}"]  # (..., n, d) each
    v = x_kv @ p[f"W_V_{name}"] if values is None else values  # (..., n_k, d)
    out, weights = scaled_dot_product_attention(q, k, v, mask=mask)  # (..., n_q, d), (..., n_q, n_k)
    return {"q": q, "k": k, "v": v, "out": out, "weights": weights}


def encode(p, src):
    """The encoder: one row per English word.  src (B, n_e) -> every intermediate, "h" (B, n_e, d)."""
    keys = (src != EN_ID[PAD])[:, None, :]  # (B, 1, n_e): padding is never attended to
    f = {"src": src, "keys": keys}
    f["e"] = p["W_en"][src] + _positions(src.shape[1])  # (B, n_e, d)
    x = f["e"]
    if "W_Q_enc" in p:  # the variant with encoder self-attention
        f["enc"] = _attend(x, x, p, "enc", keys)
        x = f["e1"] = add_and_norm(x, f["enc"]["out"])  # (B, n_e, d)
    f["ffn_enc"], f["u_enc"] = _ffn(x, p["W1_enc"], p["b1_enc"], p["W2_enc"], p["b2_enc"])
    f["h"] = add_and_norm(x, f["ffn_enc"])  # (B, n_e, d)
    return f


def decode(p, f, tgt_in, cross_mask=None, cross_values=None):
    """The decoder on the Spanish input (shifted right): adds its intermediates to `f` and returns it.

    `cross_mask`, broadcastable to (B, n_s, n_e), True = "may attend", narrows what each
    position's cross-attention may see (by default every English word, none of the padding).
    `cross_values`, (B, n_e, d), replaces the values the cross-attention reads (by default
    h W_V_cross), for experiments that change what a word brings but not where the weight goes.
    """
    f["tgt_in"] = tgt_in
    f["y"] = p["W_es"][tgt_in] + _positions(tgt_in.shape[1])  # (B, n_s, d)
    f["self"] = _attend(f["y"], f["y"], p, "self", _look_ahead(tgt_in.shape[1]))
    f["y1"] = add_and_norm(f["y"], f["self"]["out"])  # (B, n_s, d)
    mask = f["keys"] if cross_mask is None else f["keys"] & cross_mask  # (B, 1 or n_s, n_e)
    f["cross"] = _attend(f["y1"], f["h"], p, "cross", mask, cross_values)  # weights (B, n_s, n_e)
    f["y2"] = add_and_norm(f["y1"], f["cross"]["out"])  # (B, n_s, d)
    f["ffn_dec"], f["u_dec"] = _ffn(f["y2"], p["W1_dec"], p["b1_dec"], p["W2_dec"], p["b2_dec"])
    f["y3"] = add_and_norm(f["y2"], f["ffn_dec"])  # (B, n_s, d)
    f["p"] = softmax(f["y3"] @ p["W_out"] + p["b_out"])  # (B, n_s, n_vocab)
    return f


def forward(p, src, tgt_in):
    """The whole model on a batch; returns every intermediate array (probabilities in "p")."""
    return decode(p, encode(p, src), tgt_in)


# ---- Backpropagation, by hand ----

def _norm_back(d_y, y, summed, eps=1e-5):
    """Gradient of y = layer_norm(summed) (no scale, no shift) with respect to `summed`."""
    sigma = np.sqrt(summed.var(axis=-1, keepdims=True) + eps)  # (..., n, 1)
    return (d_y - d_y.mean(axis=-1, keepdims=True) - y * (d_y * y).mean(axis=-1, keepdims=True)) / sigma


def _attend_back(d_out, a, x_q, x_kv, p, name, grads):
    """Backward through `_attend`: adds the projections' gradients to `grads`; returns d x_q, d x_kv."""
    w = a["weights"]  # (B, n_q, n_k)
    d_w = d_out @ np.swapaxes(a["v"], -1, -2)  # (B, n_q, n_k)
    d_v = np.swapaxes(w, -1, -2) @ d_out  # (B, n_k, d)
    d_s = w * (d_w - np.sum(w * d_w, axis=-1, keepdims=True)) / np.sqrt(D_MODEL)  # masked keys: w = 0, no gradient
    d_q = d_s @ a["k"]  # (B, n_q, d)
    d_k = np.swapaxes(d_s, -1, -2) @ a["q"]  # (B, n_k, d)
    grads[f"W_Q_{name}"] = _sum_rows(x_q, d_q)
    grads[f"W_K_{name}"] = _sum_rows(x_kv, d_k)
    grads[f"W_V_{name}"] = _sum_rows(x_kv, d_v)
    d_xq = d_q @ p[f"W_Q_{name}"].T
    d_xkv = d_k @ p[f"W_K_{name}"].T + d_v @ p[f"W_V_{name}"].T
    return d_xq, d_xkv


def _ffn_back(d_out, x, u, p, layer, grads):
    """Backward through `_ffn`: adds its gradients to `grads`; returns d x."""
    d_r = d_out @ p[f"W2_{layer}"].T  # (B, n, d_ff)
    grads[f"W2_{layer}"] = _sum_rows(np.maximum(u, 0.0), d_out)
    grads[f"b2_{layer}"] = d_out.sum(axis=(0, 1))
    d_u = d_r * (u > 0)  # (B, n, d_ff)
    grads[f"W1_{layer}"] = _sum_rows(x, d_u)
    grads[f"b1_{layer}"] = d_u.sum(axis=(0, 1))
    return d_u @ p[f"W1_{layer}"].T


def _sum_rows(x, d):
    """Σ over the batch and the rows of xᵀ d: the gradient of a weight matrix applied as x @ W."""
    return x.reshape(-1, x.shape[-1]).T @ d.reshape(-1, d.shape[-1])


def _embedding_back(ids, d_x, n_words):
    """Each row of an embedding table collects the gradients of the words that used it."""
    one_hot = ids.reshape(-1, 1) == np.arange(n_words)  # (B·n, n_words)
    return one_hot.T.astype(float) @ d_x.reshape(-1, d_x.shape[-1])  # (n_words, d)


def loss_and_grads(p, src, tgt_in, tgt_out):
    """Cross-entropy (mean over the words to write, <end> included) and its gradient for every parameter.

    The backward pass undoes the forward pass sublayer by sublayer, from the loss back to the
    two embedding tables.
    """
    f = forward(p, src, tgt_in)
    written = tgt_out != ES_ID[PAD]  # (B, n_s): the positions with a word to write
    weight = written / written.sum()  # (B, n_s): each word to write counts the same
    rows = np.nonzero(written)
    loss = -np.sum(weight[rows] * np.log(f["p"][rows + (tgt_out[rows],)]))
    grads = {}
    # logits = y3 W_out + b_out, p = softmax(logits), loss = -Σ weight log p[target]
    d_logits = f["p"] * weight[..., None]  # (B, n_s, n_vocab)
    d_logits[rows + (tgt_out[rows],)] -= weight[rows]
    grads["W_out"] = _sum_rows(f["y3"], d_logits)
    grads["b_out"] = d_logits.sum(axis=(0, 1))
    d_y3 = d_logits @ p["W_out"].T  # (B, n_s, d)
    # y3 = norm(y2 + ffn(y2))
    d = _norm_back(d_y3, f["y3"], f["y2"] + f["ffn_dec"])
    d_y2 = d + _ffn_back(d, f["y2"], f["u_dec"], p, "dec", grads)
    # y2 = norm(y1 + cross_attention(y1, h))
    d = _norm_back(d_y2, f["y2"], f["y1"] + f["cross"]["out"])
    d_from_q, d_h = _attend_back(d, f["cross"], f["y1"], f["h"], p, "cross", grads)
    d_y1 = d + d_from_q
    # y1 = norm(y + masked_self_attention(y))
    d = _norm_back(d_y1, f["y1"], f["y"] + f["self"]["out"])
    d_from_q, d_from_kv = _attend_back(d, f["self"], f["y"], f["y"], p, "self", grads)
    grads["W_es"] = _embedding_back(tgt_in, d + d_from_q + d_from_kv, len(SPANISH))
    # encoder: h = norm(x + ffn(x)), x = e or norm(e + self_attention(e))
    x = f.get("e1", f["e"])
    d = _norm_back(d_h, f["h"], x + f["ffn_enc"])
    d_x = d + _ffn_back(d, x, f["u_enc"], p, "enc", grads)
    if "W_Q_enc" in p:
        d = _norm_back(d_x, f["e1"], f["e"] + f["enc"]["out"])
        d_from_q, d_from_kv = _attend_back(d, f["enc"], f["e"], f["e"], p, "enc", grads)
        d_x = d + d_from_q + d_from_kv
    grads["W_en"] = _embedding_back(src, d_x, len(ENGLISH))
    return loss, grads


# ---- Training and translating ----

def fit(seed=SEED, encoder_self_attention=False, steps=STEPS):
    """Adam on minibatches of the training pairs; returns (params, losses), one loss per step."""
    src, tgt_in, tgt_out = _batch(_split()[0])
    params = init_params(seed, encoder_self_attention)
    moments = {name: (np.zeros_like(w), np.zeros_like(w)) for name, w in params.items()}
    rng = np.random.default_rng(seed + 1)
    beta1, beta2 = 0.9, 0.999
    losses = []
    for step in range(1, steps + 1):
        batch = rng.choice(len(src), BATCH, replace=False)
        loss, grads = loss_and_grads(params, src[batch], tgt_in[batch], tgt_out[batch])
        losses.append(loss)
        for name, g in grads.items():
            m, v = moments[name]
            m[:] = beta1 * m + (1 - beta1) * g
            v[:] = beta2 * v + (1 - beta2) * g**2
            params[name] -= LEARNING_RATE * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-8)
    return params, np.array(losses)


def train(seed=SEED, encoder_self_attention=False):
    """The trained parameters (a dict of read-only arrays); trained once per process, then cached.

    `encoder_self_attention` trains the variant whose encoder layer also has self-attention.
    `train()` and `train(0, encoder_self_attention=False)` are the same run, trained once.
    """
    return _trained(int(seed), bool(encoder_self_attention))


@functools.cache
def _trained(seed, encoder_self_attention):
    params, _ = fit(seed, encoder_self_attention)
    for w in params.values():
        w.setflags(write=False)
    return params


def translate(english, params=None):
    """Greedy translation of an English sentence, and the cross-attention used for each word written.

    Parameters
    ----------
    english : str
        Words of the lexicon separated by spaces, any case: "The dog sees the blue ball".
    params : dict, optional
        Trained parameters; by default `train()`.

    Returns
    -------
    spanish_words : list of str
        The words written, the first with a capital letter, without <end>.
    cross_weights : ndarray, shape (n_spanish, n_english)
        Row t: the cross-attention weights of the decoder position that wrote word t,
        over the English words; each row sums to 1.

    Raises
    ------
    ValueError
        If `english` is empty or holds a word outside the lexicon (the message names it).

    Examples
    --------
    >>> words, cross_weights = translate("The ball is blue")
    >>> words, cross_weights.shape
    (['La', 'bola', 'es', 'azul'], (4, 4))
    """
    words, _, _, cross_weights = cross_attention(english, params)
    return words, cross_weights


def cross_attention(english, params=None):
    """`translate`, with the queries and keys its cross-attention weights come from.

    Returns (spanish_words, q, k, cross_weights): q (n_spanish, d) holds the query of each
    position that wrote a word, k (n_english, d) the key of each English word, and
    cross_weights = softmax(q kᵀ / √d) row by row.
    """
    params = train() if params is None else params
    src = english_ids(english)[None, :]  # (1, n_e)
    f = encode(params, src)
    written = [ES_ID[START]]
    for _ in range(2 * src.shape[1] + 2):  # a sentence of the language is never longer than its English
        f = decode(params, f, np.array([written]))
        word = int(np.argmax(f["p"][0, -1]))
        if word == ES_ID[END]:
            break
        written.append(word)
    n = len(written) - 1  # the positions that wrote a word (the last one wrote <end>)
    words = [SPANISH[i] for i in written[1:]]
    words = _as_text(words).split() if words else []
    return words, f["cross"]["q"][0, :n], f["cross"]["k"][0], f["cross"]["weights"][0, :n]


if __name__ == "__main__":
    start = time.perf_counter()
    train()
    print(f"trained in {time.perf_counter() - start:.2f} s")
    pairs = held_out_pairs()
    exact = sum(translate(en)[0] == es.split() for en, es in pairs)
    print(f"held-out pairs translated exactly: {exact} of {len(pairs)}")
    words, weights = translate(EXAMPLES[0])
    print(EXAMPLES[0], "->", " ".join(words))
    print("cross-attention (rows: Spanish words written, columns: English words):")
    print(" " * 9 + " ".join(f"{w:>6}" for w in EXAMPLES[0].split()))
    for word, row in zip(words, weights):
        print(f"{word:>8} " + " ".join(f"{x:6.2f}" for x in row))

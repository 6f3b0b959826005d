"""What the heads of SmolLM2-135M-Instruct do: the trained-decoder chapter's numbers, from the real weights.

Computed by `smollm`. A head's score for a pattern is the mean weight its rows
put where the pattern says: on the token before (a previous-token head), or,
in a text that repeats, on the token that followed the current token's first
occurrence (an induction head, Olsson et al. 2022).

    tokens, weights = smollm.attention_weights(SENTENCE)
    induction_heads()           # the 4 heads with the highest induction score, best first
    previous_token_heads()      # the 4 heads that look most at the token before
    first_token_share(weights)  # (layers, heads): weight on the first token
"""

import functools
import re

import numpy as np

import smollm
from attention import softmax
from position_encoding import rotary_position_embedding

SENTENCE = "The black cat drank the milk. The black cat drank the"
PARIS = "The capital of France is"
MILK = 5  # " milk", the first time
LAST = -1  # the last token: the second " the", whose next token the model predicts
PREFIX = "List:"  # the random texts start with a word of their own (the first token draws the spare weight)
HALF = 12  # random tokens in each half of a repeated random text
N_HEADS_NAMED = 4


@functools.cache
def word_tokens():
    """The ids of the tokens that are a space and three or more lower-case letters (" milk")."""
    _, vocabulary, _, _ = smollm.model()
    return np.array([i for i, token in enumerate(vocabulary) if re.fullmatch(r"Ġ[a-z]{3,}", token)])


def random_words(n, seed):
    """`n` different word tokens drawn at random: (text, ids)."""
    ids = np.random.default_rng(seed).choice(word_tokens(), n, replace=False)
    return "".join(smollm.token_text(i) for i in ids), ids


def repeated_texts(seeds=range(4), half=HALF):
    """Texts of `half` random word tokens said twice, after PREFIX: the induction test's data."""
    return [PREFIX + 2 * random_words(half, seed)[0] for seed in seeds]


def unrepeated_texts(seeds=range(4), half=HALF):
    """The baseline: texts of 2 * `half` different random word tokens, after PREFIX."""
    return [PREFIX + random_words(2 * half, 100 + seed)[0] for seed in seeds]


def _positions(half=HALF):
    """Rows of the second half and, for each, the token after its first occurrence (in a repeated text)."""
    start = len(smollm.tokenize(PREFIX)[0])
    rows = np.arange(start + half, start + 2 * half)
    return rows, rows - half + 1


def induction_scores(texts, half=HALF):
    """Each head's mean weight from a token of the second half to the token that followed it
    the first time (the same places in an unrepeated text: the baseline): (layers, heads)."""
    rows, targets = _positions(half)
    weights = np.stack([run[2] for run in smollm.run_batch(texts)])  # (texts, layers, heads, n, n)
    return weights[..., rows, targets].mean(axis=(0, -1))


def previous_token_scores(texts):
    """Each head's mean weight from every token but the first to the token before it: (layers, heads)."""
    weights = np.stack([run[2] for run in smollm.run_batch(texts)])
    n = weights.shape[-1]
    return weights[..., np.arange(1, n), np.arange(n - 1)].mean(axis=(0, -1))


def top_heads(scores, k=N_HEADS_NAMED):
    """The `k` (layer, head) pairs with the highest scores, best first."""
    best = np.argsort(-scores, axis=None, kind="stable")[:k]
    return [tuple(int(i) for i in np.unravel_index(b, scores.shape)) for b in best]


def induction_heads():
    return top_heads(induction_scores(repeated_texts()))


def previous_token_heads():
    return top_heads(previous_token_scores(unrepeated_texts()))


def first_token_share(weights):
    """How much of each row, but the first token's own, goes to the first token: (..., n, n) -> (...)."""
    return weights[..., 1:, 0].mean(axis=-1)


def copying_loss(texts, removed=(), how="zero", half=HALF):
    """The mean loss (−log p, in nats) on the second half's tokens, each predicted from the text before it."""
    rows, _ = _positions(half)
    losses = []
    for text, (_, _, _, logits) in zip(texts, smollm.run_batch(texts, [removed] * len(texts), how)):
        ids = smollm.tokenize(text)[1]
        p = softmax(logits[rows[:-1]], axis=-1)  # each row predicts the token after it
        losses.append(-np.log(p[np.arange(len(rows) - 1), ids[rows[1:]]]).mean())
    return float(np.mean(losses))


def probability(text, token, removed=(), how="zero"):
    """The probability that `token` (" milk") comes next after `text`, with `removed` heads removed."""
    (token_id,) = smollm.tokenize(token)[1]
    _, _, _, logits = smollm.run(text, removed, how)
    return float(softmax(logits[-1])[token_id])


def query_and_keys(text, layer, head):
    """One head's queries and keys for `text`, RoPE applied: (n, d_head) each."""
    _, inputs, _, _ = smollm.run(text)
    x = smollm.rms_norm(inputs[layer], smollm.tensors()[f"blk.{layer}.attn_norm.weight"])
    q, k, _ = smollm.queries_keys_values(x, layer)  # (9, n, 64), (3, n, 64)
    return q[head], k[head // smollm.GROUP]


def scaled_scores(text, layer, head):
    """One head's scores q·k / √64 for `text`, before the mask: (n, n)."""
    q, k = query_and_keys(text, layer, head)
    return q @ k.T / np.sqrt(smollm.D_HEAD)


def value_lengths(text, layer):
    """How long each token's value is after W_O, in each head of `layer`: ‖v_j W_O‖.  (heads, n)

    What key j adds to a row through a head is its weight times this vector,
    so a key with a large weight and a short vector adds little (Kobayashi et
    al. 2020).
    """
    _, inputs, _, _ = smollm.run(text)
    x = smollm.rms_norm(inputs[layer], smollm.tensors()[f"blk.{layer}.attn_norm.weight"])
    _, _, v = smollm.queries_keys_values(x, layer)  # (3, n, 64)
    w_o = smollm.tensors()[f"blk.{layer}.attn_output.weight"]  # (d_model, d_model), stored (out, in)
    lengths = []
    for head in range(smollm.N_HEADS):
        columns = slice(head * smollm.D_HEAD, (head + 1) * smollm.D_HEAD)  # this head's part of W_O's input
        lengths.append(np.linalg.norm(v[head // smollm.GROUP] @ w_o[:, columns].T, axis=-1))
    return np.array(lengths)


def first_token_share_by_length(text):
    """Each head's share of the first token in what its rows add, weights times value lengths:
    (layers, heads), the mean over every row but the first token's own."""
    _, _, weights, _ = smollm.run(text)
    shares = []
    for layer in range(smollm.N_LAYERS):
        added = weights[layer] * value_lengths(text, layer)[:, None, :]  # (heads, n, n): α_ij ‖v_j W_O‖
        shares.append((added[:, 1:, 0] / added[:, 1:].sum(axis=-1)).mean(axis=-1))
    return np.array(shares)


def unrotated_query_and_keys(text, layer, head):
    """One head's queries and keys for `text` before RoPE turns them: (n, d_head) each."""
    _, inputs, _, _ = smollm.run(text)
    x = smollm.rms_norm(inputs[layer], smollm.tensors()[f"blk.{layer}.attn_norm.weight"])
    w = smollm.tensors()
    kv = head // smollm.GROUP
    q = x @ w[f"blk.{layer}.attn_q.weight"][head * smollm.D_HEAD:(head + 1) * smollm.D_HEAD].T
    k = x @ w[f"blk.{layer}.attn_k.weight"][kv * smollm.D_HEAD:(kv + 1) * smollm.D_HEAD].T
    return q, k


def scores_by_offset(texts, layer, head, offsets=range(11)):
    """A head's mean scaled score q·k / √64 at each offset (query position minus key position),
    and the part of it that every token shares: the mean query and the mean key, turned by RoPE
    for that offset. The first token is left out of both. Two arrays, one number per offset.
    """
    offsets = np.asarray(offsets)
    mean, shared = [], []
    for text in texts:
        q, k = query_and_keys(text, layer, head)  # turned by RoPE
        scores = q @ k.T / np.sqrt(smollm.D_HEAD)
        mean.append([np.diagonal(scores, -d)[1:].mean() for d in offsets])  # rows >= d + 1: no first token
        q0, k0 = unrotated_query_and_keys(text, layer, head)
        q_bar, k_bar = q0[1:].mean(axis=0), k0[1:].mean(axis=0)
        turned_q = rotary_position_embedding(np.tile(q_bar, (offsets.max() + 1, 1)), smollm.ROPE_BASE)
        turned_k = rotary_position_embedding(k_bar[None], smollm.ROPE_BASE)[0]  # at position 0
        shared.append(turned_q[offsets] @ turned_k / np.sqrt(smollm.D_HEAD))  # query `d` places later
    return np.mean(mean, axis=0), np.mean(shared, axis=0)


def random_heads(k, seed, avoid=()):
    """`k` heads drawn at random from the 270, none of `avoid`: [(layer, head), ...]."""
    pool = [(layer, head) for layer in range(smollm.N_LAYERS) for head in range(smollm.N_HEADS)
            if (layer, head) not in set(avoid)]
    picked = np.random.default_rng(seed).choice(len(pool), k, replace=False)
    return [pool[i] for i in sorted(picked)]


@functools.cache
def removals(draws=5):
    """What removing heads does: [(name, how, heads, p_milk, copying_loss), ...].

    `p_milk` is the probability of " milk" after SENTENCE; `copying_loss` the mean
    loss on the second half of two repeated random texts (`copying_loss`). Removed:
    nothing; the induction heads; the previous-token heads; each way ("zero" and
    "mean"); then, for comparison, as many heads drawn at random, `draws` times, zeroed.
    """
    named = {"induction": induction_heads(), "previous": previous_token_heads()}
    plans = [("nothing", "zero", [])]
    plans += [(name, how, heads) for how in ("zero", "mean") for name, heads in named.items()]
    avoid = [h for heads in named.values() for h in heads]
    plans += [("random", "zero", random_heads(N_HEADS_NAMED, seed, avoid)) for seed in range(draws)]
    texts = repeated_texts()[:2]
    results = []
    for name, how, heads in plans:
        results.append((name, how, heads, probability(SENTENCE, " milk", heads, how),
                        copying_loss(texts, heads, how)))
    return results

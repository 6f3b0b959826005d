"""What the heads of SmolLM2-135M-Instruct do: the trained-decoder chapter's numbers, from the real weights.

Computed by `smollm`. A head's score for a pattern is the mean weight its rows
put where the pattern says: on the token before (a previous-token head), or,
in a text that repeats, on the token that followed the current token's first
occurrence (an induction head, Olsson et al. 2022).

    tokens, weights = smollm.attention_weights(SENTENCE)
    induction_heads()           # the 4 heads with the highest induction score, best first
    previous_token_heads()      # the 4 heads that look most at the token before
    first_token_share(weights)  # (layers, heads): weight on the first token
    run_with_pairing(PARIS, "halves")  # RoPE's columns paired the wrong way for this file
    direct_path_ranks(held_out_texts(), induction_heads())  # Olsson et al.'s copying test, head by head
    removals()                  # what removing heads does, against heads drawn at random
"""

import functools
import re
from typing import NamedTuple

import numpy as np

import smollm
from attention import look_ahead_mask, merge_heads, scaled_dot_product_attention, softmax, split_heads
from position_encoding import rotary_position_embedding

SENTENCE = "The black cat drank the milk. The black cat drank the"
# The control: milk is mentioned, but nothing before the last " the" was followed by " milk".
MENTION = "There was milk on the table. The black cat drank the"
# Sentences of SENTENCE's kind, said twice and cut before their last word: (text, word to copy, the same
# second sentence after a mere mention of the word). Each word is unlikely after the second sentence
# alone (p < 0.01) and after the mention (p < 0.05), and the likeliest after the repeat: only copying
# explains it (SENTENCE's milk, likelier after MENTION than after the repeat, is the counter-example).
REPEATED_SENTENCES = [
    ("The black cat drank the car. The black cat drank the", " car", "There was a car nearby. The black cat drank the"),
    ("The young chef cooked the lantern. The young chef cooked the", " lantern",
     "There was a lantern nearby. The young chef cooked the"),
    ("A young bird stole the ring. A young bird stole the", " ring",
     "There was a ring nearby. A young bird stole the"),
    ("The brave knight rode a zebra. The brave knight rode a", " zebra",
     "There was a zebra nearby. The brave knight rode a"),
    ("The young girl ate the ladder. The young girl ate the", " ladder",
     "There was a ladder nearby. The young girl ate the"),
]
PARIS = "The capital of France is"
MILK = 5  # " milk", the first time
LAST = -1  # the last token: the second " the", whose next token the model predicts
# Random texts start with a word of their own, "List:", so that no random word is the first
# token (which draws the spare weight of most heads: the first-token sink), and the model
# has a reason to expect a list of words.
PREFIX = "List:"
HALF = 12  # random tokens in each half of a repeated random text
N_HEADS_NAMED = 4
# An ordinary text, for the loss on text that has nothing to copy.
NATURAL = "The old man sat by the fire and read his newspaper while the rain fell on the garden."
# A longer ordinary text, with a year in it (each digit is a token of its own).
PARAGRAPH = ("In the spring of 1887 a young doctor moved to a small town by the sea, "
             "where he opened a practice and wrote about the storms.")


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
    """Texts of `half` random word tokens said twice, after PREFIX: the induction test's data.

    The heads are chosen on seeds 0 to 3; `held_out_texts` (seeds 10 and 11) test them.
    """
    return [_one_token_per_word(PREFIX + 2 * random_words(half, seed)[0], 2 * half) for seed in seeds]


def held_out_texts():
    """Two repeated random texts that were not used to choose the heads."""
    return repeated_texts(seeds=range(10, 12))


def unrepeated_texts(seeds=range(4), half=HALF):
    """The baseline: texts of 2 * `half` different random word tokens, after PREFIX."""
    return [_one_token_per_word(PREFIX + random_words(2 * half, 100 + seed)[0], 2 * half) for seed in seeds]


def _one_token_per_word(text, n_words):
    """`text`, after checking that its random words read back as one token each: `_positions` counts on it."""
    if len(smollm.tokenize(text)[0]) != len(smollm.tokenize(PREFIX)[0]) + n_words:
        raise ValueError(f"the random words of {text!r} do not read back as {n_words} tokens")
    return text


def _positions(half=HALF):
    """Rows of the second half and, for each, the token after its first occurrence (in a repeated text)."""
    start = len(smollm.tokenize(PREFIX)[0])
    rows = np.arange(start + half, start + 2 * half)
    return rows, rows - half + 1


def induction_scores(texts, removed=(), replacement=None, half=HALF):
    """Each head's mean weight from a token of the second half to the token that followed it
    the first time (the same places in an unrepeated text: the baseline): (layers, heads).
    `removed` heads are removed first, as in `smollm.run`."""
    rows, targets = _positions(half)
    runs = smollm.run_batch(texts, [removed] * len(texts), replacement)
    weights = np.stack([run[2] for run in runs])  # (texts, layers, heads, n, n)
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


def heads_above(scores, threshold):
    """Every (layer, head) whose score is above `threshold`, best first."""
    return top_heads(scores, int(np.sum(scores > threshold)))


def induction_heads():
    return top_heads(induction_scores(repeated_texts()))


def previous_token_heads():
    return top_heads(previous_token_scores(unrepeated_texts()))


def first_token_share(weights):
    """How much of each row, but the first token's own, goes to the first token: (..., n, n) -> (...)."""
    return weights[..., 1:, 0].mean(axis=-1)


def losses(texts, removed=(), replacement=None, half=HALF):
    """The mean loss (−log p, in nats) of predicting each random word of the first half and
    of the second half from the text before it, over `texts`: (first, second). In the first
    half nothing can be copied; in the second, every word can."""
    runs = smollm.run_batch(texts, [removed] * len(texts), replacement)
    found = np.array([_half_losses(text, run, half)[:2] for text, run in zip(texts, runs)])
    return tuple(float(x) for x in found.mean(axis=0))


def _half_losses(text, run, half=HALF):
    """For one repeated text and its run: the mean loss on its first half's words and on its second's,
    and the mean probability of the word to copy in the second half."""
    rows, _ = _positions(half)
    ids = smollm.tokenize(text)[1]
    # Row i predicts token i + 1: the rows predicting the 2nd to 12th word, then the 2nd to 12th word again.
    first, second = np.arange(rows[0] - half, rows[0] - 1), np.arange(rows[0], rows[-1])
    read = np.concatenate([first, second])
    p = softmax(run.logits_at(read), axis=-1)[np.arange(len(read)), ids[read + 1]]  # only the rows read
    loss = -np.log(p)
    return loss[:len(first)].mean(), loss[len(first):].mean(), p[len(first):].mean()


def probability(text, token, removed=(), replacement=None):
    """The probability that `token` (" milk") comes next after `text`, with `removed` heads removed."""
    (token_id,) = smollm.tokenize(token)[1]
    return float(softmax(smollm.next_token_logits(text, removed, replacement))[token_id])


def head_means(texts):
    """Each head's output before W_O, averaged over every position but the first of `texts`:
    (layers, heads, d_head). What `smollm.run(..., replacement=...)` puts in place of a head
    removed by its mean: what the head adds on other texts, nothing about the text at hand."""
    sums, count = np.zeros((smollm.N_LAYERS, smollm.N_HEADS, smollm.D_HEAD)), 0
    for text in texts:
        _, inputs, _, _ = smollm.run(text)
        for layer in range(smollm.N_LAYERS):
            x = smollm.rms_norm(inputs[layer], smollm.tensors()[f"blk.{layer}.attn_norm.weight"])
            heads, _ = smollm.attention_heads(x, layer)  # (9, n, 64)
            sums[layer] += heads[:, 1:].sum(axis=1)
        count += inputs.shape[1] - 1
    return sums / count


def query_and_keys(text, layer, head, removed=()):
    """One head's queries and keys for `text`, RoPE applied: (n, d_head) each (`removed`: as in smollm.run)."""
    _, inputs, _, _ = smollm.run(text, removed)
    x = smollm.rms_norm(inputs[layer], smollm.tensors()[f"blk.{layer}.attn_norm.weight"])
    q, k, _ = smollm.queries_keys_values(x, layer)  # (9, n, 64), (3, n, 64)
    return q[head], k[head // smollm.GROUP]


def induction_scores_with_keys_from(texts, layer, head, removed_for_queries=(), removed_for_keys=()):
    """One head's induction score on repeated `texts` with its queries from a run without the heads
    `removed_for_queries` and its keys from a run without `removed_for_keys`: which side they write."""
    rows, targets = _positions()
    found = []
    for text in texts:
        q, _ = query_and_keys(text, layer, head, removed_for_queries)
        _, k = query_and_keys(text, layer, head, removed_for_keys)
        weights = softmax(np.where(look_ahead_mask(len(q)), q @ k.T / np.sqrt(smollm.D_HEAD), -np.inf))
        found.append(weights[rows, targets].mean())
    return float(np.mean(found))


def direct_path_ranks(texts, heads, half=HALF):
    """Olsson et al.'s copying test, through each head's direct path: (heads, rows).

    At every row of the second half of the repeated `texts` that predicts a word
    seen before (the 2nd to 12th word again), take what the head adds there, put
    it through W_O, the final RMSNorm's gain and the embedding table (the model's
    output matrix), skipping every later layer, and rank the word to copy among
    all 49,152 tokens by how much that raises its score (1: raised most;
    49,152: lowered most).
    """
    rows, _ = _positions(half)
    rows = rows[:-1]  # the last row predicts no word of the text
    w = smollm.tensors()
    ranks = {head: [] for head in heads}
    for text, (_, inputs, _, _) in zip(texts, smollm.run_batch(texts)):
        to_copy = smollm.tokenize(text)[1][rows + 1]
        for layer in sorted({layer for layer, _ in heads}):
            outputs, _ = smollm.attention_heads(smollm.rms_norm(inputs[layer], w[f"blk.{layer}.attn_norm.weight"]),
                                                layer)  # (9, n, 64): each head's output before W_O
            for head in [h for l, h in heads if l == layer]:
                columns = slice(head * smollm.D_HEAD, (head + 1) * smollm.D_HEAD)
                added = outputs[head, rows] @ w[f"blk.{layer}.attn_output.weight"][:, columns].T  # (rows, d_model)
                scores = (added * w["output_norm.weight"]).astype(np.float32) @ w["token_embd.weight"].T
                mine = scores[np.arange(len(rows)), to_copy]
                ranks[(layer, head)].extend(np.sum(scores > mine[:, None], axis=1) + 1)
    return np.array([ranks[head] for head in heads])


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
    return first_token_shares(text)[1].mean(axis=-1)


def first_token_shares(text):
    """The first token's share of each row of every head but its own row, by weight and by weight
    times value length (what the row adds from each key): two arrays (layers, heads, n − 1)."""
    _, _, weights, _ = smollm.run(text)  # (30, 9, n, n)
    lengths = np.array([value_lengths(text, layer) for layer in range(smollm.N_LAYERS)])  # (30, 9, n)
    added = weights * lengths[:, :, None, :]  # α_ij ‖v_j W_O‖
    return weights[..., 1:, 0], added[..., 1:, 0] / added[..., 1:, :].sum(axis=-1)


def previous_token_weight_from_shared_parts(texts, layer, head):
    """A head's mean weight on the token before, computed from its shared parts alone: at every
    position the mean query and the mean key (before RoPE, over each text's tokens but the first),
    the first token keeping its own key, turned by RoPE and put through the masked softmax."""
    found = []
    for text in texts:
        q, k = unrotated_query_and_keys(text, layer, head)
        n = len(q)
        q_bar, k_bar = np.tile(q[1:].mean(axis=0), (n, 1)), np.tile(k[1:].mean(axis=0), (n, 1))
        k_bar[0] = k[0]  # the first token, the sink, as it is
        q_bar = rotary_position_embedding(q_bar, smollm.ROPE_BASE)
        k_bar = rotary_position_embedding(k_bar, smollm.ROPE_BASE)
        weights = softmax(np.where(look_ahead_mask(n), q_bar @ k_bar.T / np.sqrt(smollm.D_HEAD), -np.inf))
        found.append(weights[np.arange(1, n), np.arange(n - 1)].mean())
    return float(np.mean(found))


def first_token_share_if_uniform(n):
    """The first token's share of rows 1 ... n − 1 if every row spread its weight evenly."""
    return float(np.mean([1 / (i + 1) for i in range(1, n)]))


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
    avoid = set(avoid)
    pool = [(layer, head) for layer in range(smollm.N_LAYERS) for head in range(smollm.N_HEADS)
            if (layer, head) not in avoid]
    picked = np.random.default_rng(seed).choice(len(pool), k, replace=False)
    return [pool[i] for i in sorted(picked)]


def _natural_loss(logits):
    """The mean loss (nats) of predicting every token of NATURAL from the tokens before it, given its logits."""
    return text_loss(NATURAL, logits)


def text_loss(text, logits):
    """The mean loss (−log p, in nats) of predicting every token of `text` but the first from the
    tokens before it, given the logits of a run on `text` (n, vocabulary)."""
    ids = smollm.tokenize(text)[1]
    p = softmax(logits[:-1], axis=-1)
    return float(-np.log(p[np.arange(len(ids) - 1), ids[1:]]).mean())


@functools.cache
def run_with_pairing(text, pairs):
    """The model on `text`, with RoPE turning the column pairs `pairs` names: (weights, logits).

    This file's W_Q and W_K are stored for pairs of neighbouring columns ("adjacent"), which
    is what `smollm.run` turns. "halves" pairs column i with column i + 32, as Hugging Face's
    layout of the same model does: on this file's weights, that is the mistake the
    trained-decoder chapter's note on pairs warns of, and this shows what it does.
    Returns every head's weights (n_layers, n_heads, n, n) and the logits (n, vocabulary).
    """
    if pairs == "adjacent":
        found = smollm.run(text)
        return found.weights, found.logits
    weights, logits = _forward_with_pairing(text, pairs)
    weights.flags.writeable = logits.flags.writeable = False  # kept for every caller, as smollm.run's arrays
    return weights, logits


def _forward_with_pairing(text, pairs):
    """`smollm.run`'s forward pass, layer by layer, with RoPE pairing the columns as `pairs` says."""
    w = smollm.tensors()
    x = w["token_embd.weight"][smollm.tokenize(text)[1]]  # (n, d_model)
    mask = look_ahead_mask(len(x))
    layers = []
    for layer in range(smollm.N_LAYERS):
        name = f"blk.{layer}."
        h = smollm.rms_norm(x, w[name + "attn_norm.weight"])
        q = split_heads(h @ w[name + "attn_q.weight"].T, smollm.N_HEADS)  # (9, n, 64)
        k = split_heads(h @ w[name + "attn_k.weight"].T, smollm.N_KV_HEADS)  # (3, n, 64)
        v = split_heads(h @ w[name + "attn_v.weight"].T, smollm.N_KV_HEADS)
        q = rotary_position_embedding(q, smollm.ROPE_BASE, pairs=pairs)
        k = rotary_position_embedding(k, smollm.ROPE_BASE, pairs=pairs)
        heads, weights = scaled_dot_product_attention(q, smollm.repeat_kv(k), smollm.repeat_kv(v), mask=mask)
        x = x + merge_heads(heads).astype(np.float32) @ w[name + "attn_output.weight"].T
        x = x + smollm.feed_forward(smollm.rms_norm(x, w[name + "ffn_norm.weight"]), layer)
        layers.append(weights)
    logits = smollm.rms_norm(x, w["output_norm.weight"]) @ w["token_embd.weight"].T  # tied output matrix
    return np.array(layers), logits


def removal_plans(draws=4):
    """The heads `removals` takes out: [(name, how, heads), ...].

    Nothing; the four strongest induction heads, zeroed ("zero") or replaced by their
    mean output over other texts ("mean"); every head with an induction score above 0.3;
    the two strongest previous-token heads, both ways; the next two; and, for comparison,
    four heads drawn at random, `draws` times, and as many as the induction heads above 0.3,
    twice, none of them an induction head above 0.3 or one of the four previous-token heads.
    """
    induction = induction_scores(repeated_texts())
    strongest, above, previous = top_heads(induction), heads_above(induction, 0.3), previous_token_heads()
    plans = [("nothing", "zero", []), ("induction", "zero", strongest), ("induction", "mean", strongest),
             ("all induction", "zero", above), ("previous", "zero", previous[:2]), ("previous", "mean", previous[:2]),
             ("previous", "zero", previous[2:])]
    avoid = above + previous
    plans += [("random", "zero", random_heads(len(strongest), seed, avoid)) for seed in range(draws)]
    plans += [("random", "zero", random_heads(len(above), 100 + seed, avoid)) for seed in range(2)]
    return plans


class Removal(NamedTuple):
    """What removing `heads` does to copying random words (`removals`)."""
    name: str  # "nothing", "induction", "all induction", "previous" or "random"
    how: str  # "zero": their outputs zeroed; "mean": replaced by their mean output over other texts
    heads: list  # [(layer, head), ...]
    copying: float  # the loss on the held-out random texts' second half, in nats
    p_copy: float  # the mean probability of the word to copy there
    score: float | None  # the strongest induction head's score there; None when it is among those removed
    natural: float  # the loss on NATURAL, in nats


def removals(draws=4):
    """What removing the heads of `removal_plans(draws)` does on random words: a list of `Removal`.

    On the held-out repeated texts: the loss on their second half, where every word
    can be copied, the mean probability of the word to copy, and the strongest induction
    head's score; on NATURAL, the loss.
    Each way of removing ("zero", "mean") runs in two batches, one per length in tokens.
    """
    return list(_removals(draws))


@functools.cache
def _removals(draws):
    plans = removal_plans(draws)
    layer, head = induction_heads()[0]
    rows, targets = _positions()
    held = held_out_texts()
    found = {}
    for how, instead in (("zero", None), ("mean", head_means(unrepeated_texts()))):
        mine = [heads for _, h, heads in plans if h == how]
        on_held = smollm.run_batch([t for _ in mine for t in held], [r for r in mine for _ in held], instead)
        on_natural = smollm.run_batch([NATURAL] * len(mine), mine, instead)
        for i, heads in enumerate(mine):
            runs = on_held[i * len(held):(i + 1) * len(held)]
            _, copying, p_copy = np.mean([_half_losses(t, run) for t, run in zip(held, runs)], axis=0)
            score = np.mean([weights[layer, head, rows, targets].mean() for _, _, weights, _ in runs])
            found[how, tuple(heads)] = (float(copying), float(p_copy), None if (layer, head) in heads else float(score),
                                        _natural_loss(on_natural[i][3]))
    return tuple(Removal(name, how, heads, *found[how, tuple(heads)]) for name, how, heads in plans)


def copying_sentences():
    """(text said twice, word to copy, its mention) for SENTENCE and each of REPEATED_SENTENCES."""
    return [(SENTENCE, " milk", MENTION)] + REPEATED_SENTENCES


def sentence_removals(draws=4):
    """What removing heads does to copying in sentences: [(name, heads, p), ...].

    `p` holds the probability of the word to copy after each text of `copying_sentences()`,
    then of " milk" after MENTION. The first two rows are the controls: the second sentence
    alone ("alone") and after a mere mention of the word ("mention"; for MENTION, itself).
    Then the plans of `removal_plans(draws)` that zero the induction heads or heads drawn at
    random, and nothing removed; the other plans would cost a run per text each and say
    nothing more about copying here.
    """
    return list(_sentence_removals(draws))


@functools.cache
def _sentence_removals(draws):
    triples = copying_sentences()
    words = [smollm.tokenize(word)[1][0] for _, word, _ in triples] + [smollm.tokenize(" milk")[1][0]]

    def last_row_p(runs):  # p(word) at the last row of each run
        return tuple(float(softmax(run.logits_at(-1))[j]) for j, run in zip(words, runs))

    alone = smollm.run_batch([text[text.index(". ") + 2:] for text, _, _ in triples])  # five tokens each
    mentions = smollm.run_batch([mention for _, _, mention in triples[1:]])  # eleven tokens each
    (on_mention,) = smollm.run_batch([MENTION])
    found = [("alone", [], last_row_p(alone + alone[:1])),
             ("mention", [], last_row_p([on_mention] + mentions + [on_mention]))]
    plans = [(name, heads) for name, how, heads in removal_plans(draws)
             if how == "zero" and name in ("nothing", "induction", "all induction", "random")]
    texts = [text for text, _, _ in triples] + [MENTION]  # twelve tokens each: one batch
    runs = smollm.run_batch([text for _ in plans for text in texts], [heads for _, heads in plans for _ in texts])
    for i, (name, heads) in enumerate(plans):
        found.append((name, heads, last_row_p(runs[i * len(texts):(i + 1) * len(texts)])))
    return tuple(found)

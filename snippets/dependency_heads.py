"""Which heads of all-MiniLM-L6-v2 find a word's syntactic partner? (Clark et al. 2019, section 4.2)

The sentences and their hand-made labels are plain data, the table in
`dependency_sentences.py`: (dependent, head) pairs of word indices for `det` (determiner ->
its noun), `dobj` (direct object -> its verb) and `poss` (possessive pronoun -> its
noun, which Stanford dependencies, Clark et al.'s labels, keep apart from `det`).

The protocol is Clark et al.'s (clarkkev/attention-analysis, Syntax_Analysis.ipynb,
`attn_head_predictor`). Every labelled pair asks one question: which word is this
dependent's head? One head of the model answers it in one of two directions:

- dependent -> head (`reverse=False`): the word the dependent attends to most
  (the argmax of the dependent's row of weights);
- reversed (`reverse=True`, their "transpose" mode): the word that attends most
  to the dependent (the argmax of the dependent's column, over query words).

Either way the word itself, [CLS] and [SEP] are set aside, and the answer is right
if it is the dependent's head. The baseline answers every dependent with the word a
fixed offset k away (dependent + k), for the best k; it is the same in both
directions, since the question is. Every word of every sentence is one token of the
model (`check_one_token_per_word`), so word i is token i + 1 and no subword tokens
need joining into words (Clark et al. had to: BERT splits rarer words).

The best head and the best offset are chosen on the very pairs they are scored on in
`head_accuracies`, `best_head` and `best_offset`, which flatters them. `held_out`
does not: it splits the sentences into two halves with a seeded permutation, chooses
the head and the offset on one half, scores them on the other, then the other way
round; `held_out_spread` repeats that over many seeded splits.

    head_accuracies("det")                    # (layers, heads): share of determiners that find their noun
    head_accuracies("det", reverse=True)      # ... that the noun attends to most
    best_head("det")                          # ((layer, head), accuracy), chosen and scored in-sample
    best_offset("det")                        # (offset, accuracy): the baseline to beat, in-sample
    accuracy_by_distance("det", 2, 8)         # {partner's offset: (right, pairs)} for one head
    held_out("det", seed=0)                   # chosen on one half, scored on the other: a dict
    held_out_spread("det", seeds=range(20))   # the held-out accuracies over 20 seeded splits
    CLARK_2019["det"]                         # their BERT-base numbers, to print beside ours
"""

import numpy as np

import minilm
from dependency_sentences import TABLE

RELATIONS = ("det", "dobj")  # the relations the chapter reports
LABELLED = RELATIONS + ("poss",)  # every relation the data file labels
DESCRIPTIONS = {
    "det": "determiner -> its noun (dependent: the determiner, head: the noun)",
    "dobj": "direct object -> its verb (dependent: the object noun, head: the verb)",
    "poss": "possessive pronoun -> its noun (dependent: my, his, ...; head: the noun)",
}

# Clark, Khandelwal, Levy and Manning (2019), "What Does BERT Look At? An Analysis of
# BERT's Attention", BlackboxNLP, section 4.2, Table 1 (also the printed output of
# Syntax_Analysis.ipynb in github.com/clarkkev/attention-analysis): BERT-base on the
# Wall Street Journal dev set (Penn Treebank, Stanford dependencies); the best single
# head over both directions, against the best fixed offset in -3..2, both chosen and
# scored on the same data. Heads are (layer, head), 1-based as in the paper; both
# best heads are dependent -> head.
CLARK_2019 = {
    "det": {"accuracy": 0.943, "baseline": 0.517, "offset": 1, "head": (8, 11), "pairs": 3337},
    "dobj": {"accuracy": 0.868, "baseline": 0.400, "offset": -2, "head": (8, 10), "pairs": 1591},
    "poss": {"accuracy": 0.805, "baseline": 0.477, "offset": 1, "head": (7, 6), "pairs": 708},
}

OFFSETS = range(-4, 5)  # the baseline's candidate offsets (0 left out)


def _without_zero(offsets):
    """The candidate offsets in the order given, 0 left out: a word is not its own head."""
    return [k for k in offsets if k != 0]
SPLIT_SEEDS = range(20)  # the seeded splits `held_out_spread` uses by default


def parse_label(label, words):
    """One 'word(i)>word(j)' label as (i, j), after checking both words are the sentence's.

    Raises
    ------
    ValueError
        If the label is malformed, an index is out of range, or a word is not the
        sentence's word at its index (an index typed wrong).
    """
    try:
        ends = [end.rstrip(")").split("(") for end in label.split(">")]
        (dep_word, dep), (head_word, head) = ends
        dep, head = int(dep), int(head)
    except ValueError:
        raise ValueError(f"label {label!r} is not word(i)>word(j)") from None
    for word, i in ((dep_word, dep), (head_word, head)):
        if not 0 <= i < len(words) or words[i] != word:
            raise ValueError(f"label {label!r}: word {i} of {' '.join(words)!r} is not {word!r}")
    return dep, head


def load_sentences(table=TABLE):
    """The hand-labelled sentences of a table (see dependency_sentences.py), as a list of dicts.

    Returns
    -------
    list of dict
        One a sentence: {"text": str, "det": [(dependent, head), ...], "dobj": [...],
        "poss": [...], "note": str}; indices are 0-based words, [CLS] not counted.
    """
    lines = [line for line in table.splitlines() if line.strip() and not line.startswith("#")]
    columns = [cell.strip() for cell in lines[0].split("|")]
    if columns != ["text", *LABELLED, "note"]:
        raise ValueError(f"the table's columns are {columns}, not text, {', '.join(LABELLED)}, note")
    sentences = []
    for line in lines[1:]:
        cells = [cell.strip() for cell in line.split("|")]
        cells += [""] * (len(columns) - len(cells))  # a row may leave its note out
        if len(cells) != len(columns):
            raise ValueError(f"{line!r} has {len(cells)} columns, not {len(columns)}")
        text, *labels, note = cells
        words = text.split()
        sentence = {"text": text}
        for relation, cell in zip(LABELLED, labels):
            sentence[relation] = [] if cell.strip() == "-" else [parse_label(label, words) for label in cell.split()]
        sentence["note"] = note
        sentences.append(sentence)
    return sentences


SENTENCES = load_sentences()


def check_one_token_per_word(sentences=SENTENCES):
    """Raise ValueError naming the first sentence whose words are not one token each."""
    for sentence in sentences:
        tokens = minilm.tokenize(sentence["text"])[0][1:-1]  # without [CLS] and [SEP]
        if tokens != sentence["text"].lower().split():
            raise ValueError(f"{sentence['text']!r} is not one token per word: {tokens}")


def pairs(relation, sentences=SENTENCES, reverse=False):
    """Every (sentence text, word, partner) of one relation, in order.

    The word is the dependent and its partner the head; with `reverse`, the other way
    round (a listing only: both directions score each dependent, see the module's doc).
    """
    if relation not in LABELLED:
        raise ValueError(f"unknown relation {relation!r}; choose one of {LABELLED}")
    return [(s["text"], *((head, dep) if reverse else (dep, head))) for s in sentences for dep, head in s[relation]]


def most_attended(weights):
    """For each word, the other word it attends to most (row argmax), [CLS] and [SEP] set aside.

    Parameters
    ----------
    weights : array_like, shape (n, n) or (..., n, n)
        One head's weights (or a stack of heads'); rows are queries, columns
        keys; token 0 is [CLS] and token n - 1 is [SEP].

    Returns
    -------
    ndarray of int, shape (n - 2,) or (..., n - 2)
        Entry i: the word index (0-based, [CLS] not counted) with the highest
        weight in word i's row, among the other words (ties: the first).
    """
    words = np.array(weights, dtype=float)[..., 1:-1, 1:-1]  # (..., n - 2, n - 2): word rows, word columns
    diagonal = np.arange(words.shape[-1])
    words[..., diagonal, diagonal] = -np.inf  # a word is never its own answer
    return np.argmax(words, axis=-1)  # (..., n - 2)


def most_attending(weights):
    """For each word, the other word that attends to it most (column argmax), [CLS] and [SEP] set aside.

    Clark et al.'s reversed direction: for word j, the argmax over query words i != j
    of weights[i, j]. Not the row argmax of j's head: a column is not a row, and its
    weights need not sum to 1.

    Parameters
    ----------
    weights : array_like, shape (n, n) or (..., n, n)
        As for `most_attended`.

    Returns
    -------
    ndarray of int, shape (n - 2,) or (..., n - 2)
        Entry j: the word index whose row gives word j the highest weight, among
        the other words (ties: the first).
    """
    return most_attended(np.swapaxes(weights, -1, -2))  # the columns, read as rows


def _predict(weights, reverse):
    """Each word's predicted head, from one head's weights or a stack: (..., n - 2) word indices."""
    return most_attending(weights) if reverse else most_attended(weights)


_PREDICTIONS = {}  # (the weights function, text, reverse) -> (layers, heads, n - 2) word indices


def predictions(text, reverse=False):
    """Every head's predicted head for each word of one sentence: (layers, heads, words) word indices.

    Remembered per sentence and direction, and per `minilm.attention_weights` function,
    so that a test that swaps that function in gets its own predictions.
    """
    key = (minilm.attention_weights, text, reverse)
    if key not in _PREDICTIONS:
        _, weights = minilm.attention_weights(text)  # (layers, heads, n, n)
        _PREDICTIONS[key] = _predict(weights, reverse)  # (layers, heads, n - 2)
    return _PREDICTIONS[key]


def sentence_hits(relation, sentences=SENTENCES, reverse=False):
    """Per sentence and head, how many of the relation's pairs the head gets right.

    Returns
    -------
    hits : ndarray of int, shape (sentences, layers, heads)
        hits[s, l, h]: pairs of sentence s for which head (l, h)'s prediction
        for the dependent is its head.
    counts : ndarray of int, shape (sentences,)
        The relation's pairs in each sentence.
    """
    check_one_token_per_word(sentences)
    pairs(relation, sentences)  # refuses an unknown relation
    hits = np.zeros((len(sentences), minilm.N_LAYERS, minilm.N_HEADS), dtype=int)
    counts = np.array([len(s[relation]) for s in sentences], dtype=int)  # (sentences,)
    for s, sentence in enumerate(sentences):
        if not sentence[relation]:
            continue
        predicted = predictions(sentence["text"], reverse)  # (layers, heads, n - 2): word indices
        for dep, head in sentence[relation]:
            hits[s] += predicted[..., dep] == head
    return hits, counts


def offset_hits(relation, sentences=SENTENCES, offsets=OFFSETS):
    """Per sentence and offset k, how many of the relation's pairs have dependent + k == head.

    Returns
    -------
    ndarray of int, shape (sentences, offsets): offsets in the order given, 0 left out.
    """
    offsets = _without_zero(offsets)
    return np.array([[sum(dep + k == head for dep, head in s[relation]) for k in offsets]
                     for s in sentences], dtype=int).reshape(len(sentences), len(offsets))


def head_accuracies(relation, sentences=SENTENCES, reverse=False):
    """Each head's share of the relation's pairs it gets right: (layers, heads).

    Dependent -> head: the dependent attends most to its head; with `reverse`, its
    head is the word that attends most to it.
    """
    hits, counts = sentence_hits(relation, sentences, reverse)  # (sentences, layers, heads), (sentences,)
    return hits.sum(axis=0) / counts.sum()


def offset_accuracies(relation, sentences=SENTENCES, offsets=OFFSETS, reverse=False):
    """For each offset k (0 left out), the share of pairs with dependent + k == head: {k: accuracy}.

    `reverse` changes nothing: both directions ask for each dependent's head, and an
    offset answers that question the same way (kept so that callers need not change).
    """
    pairs(relation, sentences)  # refuses an unknown relation
    counts = offset_hits(relation, sentences, offsets).sum(axis=0)  # (offsets,)
    total = sum(len(s[relation]) for s in sentences)
    return {k: count / total for k, count in zip(_without_zero(offsets), counts.tolist())}


def best_offset(relation, sentences=SENTENCES, offsets=OFFSETS, reverse=False):
    """The baseline: the offset with the highest accuracy, as (offset, accuracy)."""
    accuracies = offset_accuracies(relation, sentences, offsets, reverse)
    k = max(accuracies, key=accuracies.get)  # the first of equals, in offset order
    return k, accuracies[k]


def best_head(relation, sentences=SENTENCES, reverse=False):
    """The head with the highest accuracy, as ((layer, head), accuracy); layers and heads 0-based."""
    accuracies = head_accuracies(relation, sentences, reverse)  # (layers, heads)
    layer, head = np.unravel_index(np.argmax(accuracies), accuracies.shape)
    return (int(layer), int(head)), float(accuracies[layer, head])


def misses(relation, layer, head, sentences=SENTENCES, reverse=False):
    """The pairs one head gets wrong: [(sentence, dependent, predicted head, right head), ...].

    The predicted head is the word the dependent attends to most; with `reverse`,
    the word that attends most to the dependent.
    """
    check_one_token_per_word(sentences)
    wrong = []
    for text, dep, right in pairs(relation, sentences):
        predicted = predictions(text, reverse)[layer, head, dep]  # a word index
        if predicted != right:
            words = text.split()
            wrong.append((text, words[dep], words[predicted], words[right]))
    return wrong


def accuracy_by_distance(relation, layer, head, sentences=SENTENCES, reverse=False):
    """One head's right answers by how far the partner stands: {offset: (right, pairs)}, offsets in order.

    The offset is partner − dependent in words (+1: the next word), as for the
    baseline; the answer is the one `misses` checks.
    """
    check_one_token_per_word(sentences)
    found = {}
    for text, dep, right in pairs(relation, sentences):
        hits, count = found.get(right - dep, (0, 0))
        found[right - dep] = (hits + int(predictions(text, reverse)[layer, head, dep] == right), count + 1)
    return dict(sorted(found.items()))


def top_heads(relation, count=3, sentences=SENTENCES, reverse=False):
    """The `count` most accurate heads, best first: [((layer, head), accuracy), ...]."""
    accuracies = head_accuracies(relation, sentences, reverse)
    order = np.argsort(-accuracies, axis=None, kind="stable")[:count]
    return [((int(i // minilm.N_HEADS), int(i % minilm.N_HEADS)), float(accuracies.flat[i]))
            for i in order]


# Held-out selection

def split_halves(count, seed=0):
    """A seeded split of `count` sentences into two halves: (first, second), sorted index tuples.

    The first half has count // 2 sentences: the first of a permutation by
    numpy.random.default_rng(seed).
    """
    order = np.random.default_rng(seed).permutation(count)  # (count,)
    return tuple(sorted(order[:count // 2].tolist())), tuple(sorted(order[count // 2:].tolist()))


def check_halves(halves, count):
    """Raise ValueError unless the halves are disjoint and together hold each of the `count` sentences.

    A sentence in both halves would be scored by a head chosen on it; one in neither
    would not be scored at all.
    """
    first, second = (set(map(int, half)) for half in halves)
    if first & second:
        raise ValueError(f"the halves overlap in sentences {sorted(first & second)}: "
                         "a head would be scored on sentences it was chosen on")
    if first | second != set(range(count)):
        raise ValueError(f"the halves do not hold each of the {count} sentences once: "
                         f"missing {sorted(set(range(count)) - first - second)}, "
                         f"out of range {sorted((first | second) - set(range(count)))}")


def bootstrap_interval(hits, counts, seed=0, resamples=2000, level=0.95):
    """A percentile bootstrap interval for sum(hits) / sum(counts), resampling sentences.

    Sentences, not pairs, are resampled: two pairs of one sentence are not
    independent. Seeded, so the same arguments give the same interval.

    Parameters
    ----------
    hits, counts : array_like of int, shape (sentences,)
        Right answers and pairs in each sentence.

    Returns
    -------
    (low, high) : tuple of float
    """
    hits, counts = np.asarray(hits), np.asarray(counts)  # (sentences,), (sentences,)
    picks = np.random.default_rng(seed).integers(0, len(hits), size=(resamples, len(hits)))  # (resamples, sentences)
    totals = counts[picks].sum(axis=1)  # (resamples,)
    shares = hits[picks].sum(axis=1)[totals > 0] / totals[totals > 0]  # (resamples with a pair,)
    low, high = np.percentile(shares, [50 * (1 - level), 50 * (1 + level)])
    return float(low), float(high)


def _choose_and_score(head_hits, counts, shift_hits, offsets, chosen_on, scored_on, seed):
    """One fold: the head and offset with the most hits on `chosen_on`, scored on `scored_on`.

    head_hits (sentences, layers, heads), counts (sentences,), shift_hits (sentences, offsets).
    """
    chosen_on, scored_on = list(chosen_on), list(scored_on)
    flat = head_hits[chosen_on].sum(axis=0).ravel()  # (layers * heads,)
    best = int(np.argmax(flat))  # the first of equals
    layer, head = divmod(best, minilm.N_HEADS)
    k = int(np.argmax(shift_hits[chosen_on].sum(axis=0)))  # the first of equals, in offset order
    chosen_pairs, scored_pairs = int(counts[chosen_on].sum()), int(counts[scored_on].sum())
    right = head_hits[scored_on, layer, head]  # (scored sentences,)
    return {
        "chosen_on": tuple(chosen_on), "scored_on": tuple(scored_on),
        "head": (layer, head),
        "chosen_accuracy": float(flat[best] / chosen_pairs),  # on the half it was chosen on
        "accuracy": float(right.sum() / scored_pairs),  # held out
        "interval": bootstrap_interval(right, counts[scored_on], seed),
        "offset": offsets[k],
        "chosen_baseline": float(shift_hits[chosen_on, k].sum() / chosen_pairs),
        "baseline": float(shift_hits[scored_on, k].sum() / scored_pairs),  # held out
        "pairs": scored_pairs,
        "hits": right,  # (scored sentences,), for the pooled numbers
    }


def _held_out(relation, reverse, seed, head_hits, counts, shift_hits, offsets, halves):
    """`held_out` from precomputed hits (see `sentence_hits`, `offset_hits`)."""
    count = len(counts)
    halves = split_halves(count, seed) if halves is None else tuple(tuple(map(int, h)) for h in halves)
    check_halves(halves, count)
    if min(counts[list(half)].sum() for half in halves) == 0:
        raise ValueError(f"a half has no {relation} pairs to choose on or score")
    folds = [_choose_and_score(head_hits, counts, shift_hits, offsets, a, b, seed)
             for a, b in (halves, halves[::-1])]
    # Each sentence is scored once, by the head chosen on the other half: (sentences,)
    right, shifted = np.zeros(count, dtype=int), np.zeros(count, dtype=int)
    for fold in folds:
        scored = list(fold["scored_on"])
        right[scored] = fold.pop("hits")
        shifted[scored] = shift_hits[scored, offsets.index(fold["offset"])]
    layer, head = divmod(int(np.argmax(head_hits.sum(axis=0))), minilm.N_HEADS)  # in-sample, for comparison
    k = int(np.argmax(shift_hits.sum(axis=0)))
    return {
        "relation": relation, "reverse": reverse, "seed": seed, "halves": halves,
        "folds": folds,
        "heads": tuple(fold["head"] for fold in folds),
        "accuracy": float(right.sum() / counts.sum()),
        "interval": bootstrap_interval(right, counts, seed),
        "baseline": float(shifted.sum() / counts.sum()),
        "pairs": int(counts.sum()),
        "in_sample": {"head": (layer, head),
                      "accuracy": float(head_hits[:, layer, head].sum() / counts.sum()),
                      "offset": offsets[k], "baseline": float(shift_hits[:, k].sum() / counts.sum())},
    }


def held_out(relation, reverse=False, seed=0, sentences=SENTENCES, halves=None, offsets=OFFSETS):
    """Choose the best head and offset on one half of the sentences, score them on the other, and back.

    Parameters
    ----------
    relation : str
        One of `LABELLED`.
    reverse : bool
        Score the reversed direction (the word attending most to the dependent).
    seed : int
        Seeds the split (`split_halves`) and the bootstrap intervals.
    halves : pair of sequences of int, optional
        Sentence indices to use as the halves instead of the seeded split; they must
        be disjoint and hold every sentence once, or ValueError is raised.

    Returns
    -------
    dict
        "halves": the two halves' sentence indices; "folds": two dicts, one per way
        round, each with "head" (layer, head), 0-based, chosen on "chosen_on",
        "chosen_accuracy" there, "accuracy" on "scored_on" (held out) with a 95 %
        bootstrap "interval", "offset" chosen on "chosen_on", "chosen_baseline",
        the held-out "baseline", and "pairs" scored; "heads": both folds' heads;
        "accuracy", "interval", "baseline", "pairs": pooled over both folds, so each
        pair is scored once by a head chosen without it; "in_sample": the best
        head and offset chosen and scored on all sentences, for comparison.
    """
    head_hits, counts = sentence_hits(relation, sentences, reverse)  # (sentences, layers, heads), (sentences,)
    shift_hits = offset_hits(relation, sentences, offsets)  # (sentences, offsets)
    return _held_out(relation, reverse, seed, head_hits, counts, shift_hits,
                     _without_zero(offsets), halves)


def _summary(values):
    """Median, lowest and highest of some numbers, as a dict of floats."""
    return {"median": float(np.median(values)), "low": float(np.min(values)), "high": float(np.max(values))}


def held_out_spread(relation, reverse=False, seeds=SPLIT_SEEDS, sentences=SENTENCES, offsets=OFFSETS):
    """`held_out` over many seeded splits: how much the held-out numbers depend on the split.

    Returns
    -------
    dict
        "accuracy", "baseline": the pooled held-out accuracy of the chosen heads and
        of the chosen offsets, each summarised over the splits as {"median", "low",
        "high"}; "fold_accuracy", "fold_baseline": the same over every fold (two
        a split); "beats_baseline": the share of splits whose pooled held-out
        accuracy is above their held-out baseline; "heads": {(layer, head): folds
        that chose it}, most chosen first; "in_sample": as in `held_out`;
        "runs": every split's `held_out` dict.
    """
    head_hits, counts = sentence_hits(relation, sentences, reverse)  # computed once for every split
    shift_hits = offset_hits(relation, sentences, offsets)
    offsets = _without_zero(offsets)
    runs = [_held_out(relation, reverse, seed, head_hits, counts, shift_hits, offsets, None) for seed in seeds]
    folds = [fold for run in runs for fold in run["folds"]]
    chosen = {}
    for fold in folds:
        chosen[fold["head"]] = chosen.get(fold["head"], 0) + 1
    return {
        "relation": relation, "reverse": reverse, "seeds": tuple(seeds),
        "accuracy": _summary([run["accuracy"] for run in runs]),
        "baseline": _summary([run["baseline"] for run in runs]),
        "fold_accuracy": _summary([fold["accuracy"] for fold in folds]),
        "fold_baseline": _summary([fold["baseline"] for fold in folds]),
        "beats_baseline": float(np.mean([run["accuracy"] > run["baseline"] for run in runs])),
        "heads": dict(sorted(chosen.items(), key=lambda item: -item[1])),
        "in_sample": runs[0]["in_sample"],
        "runs": runs,
    }

"""Does the tiny translator's cross-attention look at the words it translates? Two measurements.

- `alignment`: over the held-out pairs, how often the row that writes a Spanish
  word puts its largest weight on the English word it translates (for an article,
  on the noun whose gender it takes), and how many pairs are translated exactly.
- `hidden_word_test`: how often a position still writes its word when its
  cross-attention may not see the English word it needs. Each position reads the
  correct words before it (teacher forcing) and one word is hidden from one row at
  a time, so any change is that row's doing.

- `seed_study`: both measurements for several training runs (seeds) of each model,
  since one run is not the model. Each run is kept in the folder that
  WHY_ATTENTION_CACHE names (as the site's build and tests do), under a key that
  hashes the code it depends on, so it is trained once and then read back.
- `noun_swap_test`: how often an article changes when its noun is swapped for a
  noun of the other gender: the test that shows a noun deciding an article even
  when the row gives it no weight.
- `article_defaults`: the article each position writes when its noun is hidden.
- `written_with_value_of`: what the positions write when one English word keeps
  its key (so the weights stay) but brings another word's value.

The page "Attention weights are not alignments" runs them on the translator of
tiny_translator.py, with and without self-attention in its encoder.

    counts = alignment(train())            # {"pairs": 200, "exact": ..., "content": ..., "aligned": ..., ...}
    kept = hidden_word_test(train())       # {"content": (still written, of), "articles": (..., ...)}
    runs = seed_study(range(10))           # {(seed, encoder_self_attention): {"exact": ..., "aligned": ..., ...}}
"""

from pathlib import Path

import numpy as np

from tiny_translator import (ANIMATE, ARTICLES, ES_ID, LEXICON, NOUNS, SPANISH, START, THINGS, decode, encode,
                             english_ids, held_out_pairs, spanish_of, train, translate)
from trained_models import RunCache

ENGLISH_OF = {es: en for en, es in LEXICON.items()}  # each Spanish content word's English word: "bola" -> "ball"


def needed_words(english, spanish):
    """For each Spanish word, the index of the English word it needs: the word it translates or,
    for an article ("el", "la"), the noun whose gender it takes.  list of int, one per Spanish word

    Examples
    --------
    >>> needed_words("The dog sees the blue ball", "El perro ve la bola azul")
    [1, 1, 2, 5, 5, 4]
    """
    source = english.lower().split()
    articles = iter(i for i, word in enumerate(source) if word == "the")  # the k-th "el"/"la" is the k-th "the"
    needed = []
    for word in spanish.lower().split():
        if word in ARTICLES.values():
            the = next(articles)
            needed.append(next(i for i in range(the + 1, len(source)) if source[i] in NOUNS))
        else:
            needed.append(source.index(ENGLISH_OF[word]))
    return needed


def alignment(params=None, pairs=None):
    """Exact translations and the rows that look most at the word they need, over `pairs` (held-out by default).

    Returns a dict of counts: "pairs", "exact" (translated word for word), "content" (content
    words written), "aligned" (those whose row's largest weight is on their English word),
    "articles" and "on_noun" (articles whose row's largest weight is on their noun). Rows are
    those of the model's own translation; a pair translated wrongly counts the words it got right.
    """
    pairs = held_out_pairs() if pairs is None else pairs
    counts = dict.fromkeys(["pairs", "exact", "content", "aligned", "articles", "on_noun"], 0)
    for english, spanish in pairs:
        words, weights = translate(english, params)  # weights (n_spanish, n_english)
        counts["pairs"] += 1
        counts["exact"] += words == spanish.split()
        needed = needed_words(english, spanish)
        for t, (word, right) in enumerate(zip(words, spanish.split())):
            if word != right:
                continue
            article = word.lower() in ARTICLES.values()
            counts["articles" if article else "content"] += 1
            counts["on_noun" if article else "aligned"] += int(np.argmax(weights[t]) == needed[t])
    return counts


def written_with_hidden_words(english, spanish, hidden, params=None):
    """The word each position writes when it reads the correct words before it and `hidden` is kept from it.

    Parameters
    ----------
    english, spanish : str
        A pair of the language.
    hidden : iterable of (int, int)
        (row, column) pairs: the position that writes Spanish word `row` may not attend to
        English word `column`.
    params : dict, optional
        Trained parameters; by default `train()`.

    Returns
    -------
    words : list of str
        The word each position writes (lowercase), one per word of `spanish`.
    cross_weights : ndarray, shape (n_spanish, n_english)
    """
    params = train() if params is None else params
    src = english_ids(english)[None, :]  # (1, n_e)
    may_attend = np.ones((1, len(spanish.split()) + 1, src.shape[1]), dtype=bool)  # (1, n_s + 1, n_e)
    for row, column in hidden:
        may_attend[0, row, column] = False
    return _teacher_forced(params, encode(params, src), spanish, cross_mask=may_attend)


def written_with_value_of(english, spanish, column, other, params=None):
    """What each position writes when English word `column` keeps its key but brings the value of
    word `column` of the sentence `other`: where the weight lands stays, what it brings changes.

    Each position reads the correct words of `spanish` before it (teacher forcing).
    Returns (words, cross_weights) as `written_with_hidden_words` does.
    """
    params = train() if params is None else params
    src, other_src = english_ids(english)[None, :], english_ids(other)[None, :]  # (1, n_e) each
    f, f_other = encode(params, src), encode(params, other_src)
    values = f["h"] @ params["W_V_cross"]  # (1, n_e, d)
    values[0, column] = (f_other["h"] @ params["W_V_cross"])[0, column]
    return _teacher_forced(params, f, spanish, cross_values=values)


def _teacher_forced(params, encoded, spanish, **decode_options):
    """Decode `spanish` with each position reading the correct words before it (`decode`'s options
    passed on): the word each position writes (lowercase) and the cross-attention weights (n_s, n_e)."""
    reads = [ES_ID[START]] + [ES_ID[w] for w in spanish.lower().split()]  # shifted right
    f = decode(params, encoded, np.array([reads]), **decode_options)
    n_s = len(reads) - 1
    return [SPANISH[i] for i in np.argmax(f["p"][0, :n_s], axis=-1)], f["cross"]["weights"][0, :n_s]


def hidden_word_test(params=None, pairs=None):
    """How often a position still writes its word when its row may not see the English word it needs.

    One (row, word) at a time, over every word of `pairs` (held-out by default). Returns
    {"content": (still written, content words), "articles": (still written, articles)}.
    """
    kept = {"content": [0, 0], "articles": [0, 0]}
    for english, spanish in held_out_pairs() if pairs is None else pairs:
        right = spanish.lower().split()
        for t, column in enumerate(needed_words(english, spanish)):
            words, _ = written_with_hidden_words(english, spanish, [(t, column)], params)
            kind = "articles" if right[t] in ARTICLES.values() else "content"
            kept[kind][0] += words[t] == right[t]
            kept[kind][1] += 1
    return {kind: tuple(counts) for kind, counts in kept.items()}


def article_defaults(params=None, pairs=None):
    """What each article position writes when its noun is hidden from its row: the default it learned.

    Returns {"first": ..., "after the verb": ...}, each the article written (or "el/la" if
    both occur), over the articles of `pairs` (held-out by default).
    """
    params = train() if params is None else params
    written = {"first": set(), "after the verb": set()}
    for english, spanish in held_out_pairs() if pairs is None else pairs:
        right = spanish.lower().split()
        for t, column in enumerate(needed_words(english, spanish)):
            if right[t] in ARTICLES.values():
                place = "after the verb" if {"el", "la"} & set(right[:t]) else "first"
                written[place].add(written_with_hidden_words(english, spanish, [(t, column)], params)[0][t])
    return {place: "/".join(sorted(words)) for place, words in written.items()}


def noun_swap_test(params=None, pairs=None):
    """How often an article changes when its noun is swapped for one of the other gender.

    For every article of `pairs` (held-out by default), each noun of the other gender and of
    the same kind (animate or thing) takes the place of its noun; the position reads the
    correct Spanish words before it (teacher forcing). An article "changes" when it is the
    right article of every such sentence, the other one of its own.
    Returns {"default": (changed, articles), "other": (changed, articles)}: "default" are the
    articles that hiding the noun leaves right (their noun takes the position's default),
    "other" the rest.
    """
    params = train() if params is None else params
    changed = {"default": [0, 0], "other": [0, 0]}
    for english, spanish in held_out_pairs() if pairs is None else pairs:
        source, right = english.lower().split(), spanish.lower().split()
        for t, column in enumerate(needed_words(english, spanish)):
            if right[t] not in ARTICLES.values():
                continue
            hidden, _ = written_with_hidden_words(english, spanish, [(t, column)], params)
            kind = "default" if hidden[t] == right[t] else "other"
            gender = NOUNS[source[column]][1]
            others = [n for n, (_, g) in (ANIMATE if source[column] in ANIMATE else THINGS).items() if g != gender]
            flips = 0
            for noun in others:
                swapped = source[:column] + [noun] + source[column + 1:]
                translation = spanish_of(swapped)
                words, _ = written_with_hidden_words(" ".join(swapped), " ".join(translation), [], params)
                flips += words[t] == translation[t] != right[t]
            changed[kind][0] += flips == len(others)
            changed[kind][1] += 1
    return {kind: tuple(counts) for kind, counts in changed.items()}


SEED_STUDY_FIELDS = ("pairs", "exact", "content", "aligned", "kept", "articles", "articles_kept")
_CODE = [Path(__file__).with_name(f"{name}.py")
         for name in ("translator_alignment", "tiny_translator", "attention", "position_encoding")]


def seed_run(seed, encoder_self_attention=False):
    """One training run and its measurements: a dict of `SEED_STUDY_FIELDS`.

    "pairs", "exact" and "content", "aligned" as in `alignment`; "kept": content words still
    written with their word hidden from their row, "articles" and "articles_kept": the same for
    the articles and their noun (`hidden_word_test`). The result is read from (or written to)
    the folder that WHY_ATTENTION_CACHE names, if any.
    """
    store = RunCache("tiny-translator-seeds", "", _CODE)  # made per call: it reads WHY_ATTENTION_CACHE now
    key = store.key([int(seed), int(bool(encoder_self_attention))])
    stored = store.get(key)
    if stored is None:
        params = train(seed, encoder_self_attention)
        counts, kept = alignment(params), hidden_word_test(params)
        stored = store.put(key, (np.array([counts["pairs"], counts["exact"], counts["content"], counts["aligned"],
                                           kept["content"][0], kept["articles"][1], kept["articles"][0]]),))
    return dict(zip(SEED_STUDY_FIELDS, (int(n) for n in stored[0])))


def seed_study(seeds=range(10)):
    """`seed_run` for every seed, without and with self-attention in the encoder.

    Returns {(seed, encoder_self_attention): counts}, the plain model's runs first.
    """
    return {(seed, mixed): seed_run(seed, mixed) for mixed in (False, True) for seed in seeds}


if __name__ == "__main__":
    for with_self_attention in (False, True):
        params = train(encoder_self_attention=with_self_attention)
        counts, kept = alignment(params), hidden_word_test(params)
        print(f"encoder self-attention: {with_self_attention}")
        print(f"  exact translations: {counts['exact']} of {counts['pairs']}")
        print(f"  content words whose row looks most at their English word: {counts['aligned']} of {counts['content']}")
        print(f"  still written with that word hidden from its row: {kept['content'][0]} of {kept['content'][1]}")

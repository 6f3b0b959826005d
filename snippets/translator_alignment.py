"""Does the tiny translator's cross-attention look at the words it translates? Two measurements.

- `alignment`: over the held-out pairs, how often the row that writes a Spanish
  word puts its largest weight on the English word it translates (for an article,
  on the noun whose gender it takes), and how many pairs are translated exactly.
- `hidden_word_test`: how often a position still writes its word when its
  cross-attention may not see the English word it needs. Each position reads the
  correct words before it (teacher forcing) and one word is hidden from one row at
  a time, so any change is that row's doing.

The page "Attention weights are not alignments" runs both on the translator of
tiny_translator.py, with and without self-attention in its encoder.

    counts = alignment(train())            # {"pairs": 200, "exact": ..., "content": ..., "aligned": ..., ...}
    kept = hidden_word_test(train())       # {"content": (still written, of), "articles": (..., ...)}
"""

import numpy as np

from tiny_translator import (ARTICLES, ES_ID, LEXICON, NOUNS, SPANISH, START, decode, encode, english_ids,
                             held_out_pairs, train, translate)

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
    reads = [ES_ID[START]] + [ES_ID[w] for w in spanish.lower().split()]  # shifted right
    n_s = len(reads) - 1
    may_attend = np.ones((1, n_s + 1, src.shape[1]), dtype=bool)  # (1, n_s + 1, n_e)
    for row, column in hidden:
        may_attend[0, row, column] = False
    f = decode(params, encode(params, src), np.array([reads]), cross_mask=may_attend)
    words = [SPANISH[i] for i in np.argmax(f["p"][0, :n_s], axis=-1)]
    return words, f["cross"]["weights"][0, :n_s]


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


if __name__ == "__main__":
    for with_self_attention in (False, True):
        params = train(encoder_self_attention=with_self_attention)
        counts, kept = alignment(params), hidden_word_test(params)
        print(f"encoder self-attention: {with_self_attention}")
        print(f"  exact translations: {counts['exact']} of {counts['pairs']}")
        print(f"  content words whose row looks most at their English word: {counts['aligned']} of {counts['content']}")
        print(f"  still written with that word hidden from its row: {kept['content'][0]} of {kept['content'][1]}")

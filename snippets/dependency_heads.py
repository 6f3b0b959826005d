"""Which heads of all-MiniLM-L6-v2 find a word's syntactic partner? (Clark et al. 2019, section 4)

A head "predicts" a word's partner by the word it attends to most. For one
relation, a head's accuracy is the share of hand-labelled (dependent, head)
word pairs for which the dependent's most-attended word is its head; with
`reverse=True`, for which the head's most-attended word is its dependent
(Clark et al. score both directions). The baseline is a fixed offset: always
predict the word k positions away, for the best k. Every word of `SENTENCES`
is one token of the model, so word i is token i + 1 ([CLS] is token 0).

    head_accuracies("det")                 # (layers, heads): share of determiners that find their noun
    head_accuracies("det", reverse=True)   # ... of nouns that find their determiner
    best_head("det")                       # ((layer, head), accuracy)
    best_offset("det")                     # (offset, accuracy): the baseline to beat
"""

import numpy as np

import minilm

RELATIONS = ("det", "dobj")
DESCRIPTIONS = {
    "det": "determiner -> its noun (dependent: the determiner, head: the noun)",
    "dobj": "direct object -> its verb (dependent: the object noun, head: the verb)",
}

# Labelled by hand: (dependent, head) pairs of 0-based word indices, [CLS] not counted.
SENTENCES = [
    {"text": "the old man ate a red apple",  # the→man, a→apple; apple→ate
     "det": [(0, 2), (4, 6)], "dobj": [(6, 3)]},
    {"text": "a dog chased the small black cat",
     "det": [(0, 1), (3, 6)], "dobj": [(6, 2)]},
    {"text": "she read every book in the library",
     "det": [(2, 3), (5, 6)], "dobj": [(3, 1)]},
    {"text": "this girl wrote a long letter to the teacher",
     "det": [(0, 1), (3, 5), (7, 8)], "dobj": [(5, 2)]},
    {"text": "the children played a game",
     "det": [(0, 1), (3, 4)], "dobj": [(4, 2)]},
    {"text": "the farmer sold the big brown horse",
     "det": [(0, 1), (3, 6)], "dobj": [(6, 2)]},
    {"text": "every student passed the hard test",
     "det": [(0, 1), (3, 5)], "dobj": [(5, 2)]},
    {"text": "he opened the door and she closed the window",  # two clauses
     "det": [(2, 3), (7, 8)], "dobj": [(3, 1), (8, 6)]},
    {"text": "the teacher gave the boy a good book",  # "boy" is the indirect object
     "det": [(0, 1), (3, 4), (5, 7)], "dobj": [(7, 2)]},
    {"text": "we saw a very tall tree yesterday",
     "det": [(2, 5)], "dobj": [(5, 1)]},
    {"text": "the cook made this soup",
     "det": [(0, 1), (3, 4)], "dobj": [(4, 2)]},
    {"text": "they found the lost keys under a chair",
     "det": [(2, 4), (6, 7)], "dobj": [(4, 1)]},
]


def check_one_token_per_word(sentences=SENTENCES):
    """Raise ValueError naming the first sentence whose words are not one token each."""
    for sentence in sentences:
        tokens = minilm.tokenize(sentence["text"])[0][1:-1]  # without [CLS] and [SEP]
        if tokens != sentence["text"].lower().split():
            raise ValueError(f"{sentence['text']!r} is not one token per word: {tokens}")


def pairs(relation, sentences=SENTENCES, reverse=False):
    """Every (sentence text, word, partner) of one relation, in order.

    The word is the dependent and its partner the head; with `reverse`, the other way round.
    """
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r}; choose one of {RELATIONS}")
    return [(s["text"], *((head, dep) if reverse else (dep, head))) for s in sentences for dep, head in s[relation]]


def most_attended(weights):
    """For each word, the word it attends to most, [CLS] and [SEP] set aside.

    Parameters
    ----------
    weights : array_like, shape (n, n) or (..., n, n)
        One head's weights (or a stack of heads'); rows are queries, columns
        keys; token 0 is [CLS] and token n - 1 is [SEP].

    Returns
    -------
    ndarray of int, shape (n - 2,) or (..., n - 2)
        Entry i: the word index (0-based, [CLS] not counted) with the highest
        weight in word i's row, among the words only (word i itself included).
    """
    words = np.asarray(weights)[..., 1:-1, 1:-1]  # (..., n - 2, n - 2): word rows, word columns
    return np.argmax(words, axis=-1)  # (..., n - 2)


def head_accuracies(relation, sentences=SENTENCES, reverse=False):
    """Each head's share of the relation's pairs whose word attends most to its partner: (layers, heads).

    The word is the dependent, its partner the head; with `reverse`, the other way round.
    """
    check_one_token_per_word(sentences)
    hits, labelled = np.zeros((minilm.N_LAYERS, minilm.N_HEADS)), pairs(relation, sentences, reverse)
    for text, word, partner in labelled:
        _, weights = minilm.attention_weights(text)  # (layers, heads, n, n)
        predicted = most_attended(weights)  # (layers, heads, n - 2): word indices
        hits += predicted[..., word] == partner
    return hits / len(labelled)


def offset_accuracies(relation, sentences=SENTENCES, offsets=range(-4, 5), reverse=False):
    """For each offset k (0 left out), the share of pairs with word + k == partner: {k: accuracy}."""
    labelled = pairs(relation, sentences, reverse)
    return {k: sum(word + k == partner for _, word, partner in labelled) / len(labelled)
            for k in offsets if k != 0}


def best_offset(relation, sentences=SENTENCES, offsets=range(-4, 5), reverse=False):
    """The baseline: the offset with the highest accuracy, as (offset, accuracy)."""
    accuracies = offset_accuracies(relation, sentences, offsets, reverse)
    k = max(accuracies, key=accuracies.get)  # the first of equals, in offset order
    return k, accuracies[k]


def best_head(relation, sentences=SENTENCES, reverse=False):
    """The head with the highest accuracy, as ((layer, head), accuracy)."""
    accuracies = head_accuracies(relation, sentences, reverse)  # (layers, heads)
    layer, head = np.unravel_index(np.argmax(accuracies), accuracies.shape)
    return (int(layer), int(head)), float(accuracies[layer, head])


def misses(relation, layer, head, sentences=SENTENCES, reverse=False):
    """The pairs one head gets wrong: [(sentence, word, attended word, right word), ...]."""
    check_one_token_per_word(sentences)
    wrong = []
    for text, word, right in pairs(relation, sentences, reverse):
        _, weights = minilm.attention_weights(text)  # (layers, heads, n, n)
        attended = most_attended(weights[layer, head])[word]  # a word index
        if attended != right:
            words = text.split()
            wrong.append((text, words[word], words[attended], words[right]))
    return wrong


def top_heads(relation, count=3, sentences=SENTENCES, reverse=False):
    """The `count` most accurate heads, best first: [((layer, head), accuracy), ...]."""
    accuracies = head_accuracies(relation, sentences, reverse)
    order = np.argsort(-accuracies, axis=None, kind="stable")[:count]
    return [((int(i // minilm.N_HEADS), int(i % minilm.N_HEADS)), float(accuracies.flat[i]))
            for i in order]

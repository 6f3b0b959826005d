"""snippets/dependency_heads.py: Clark et al. (2019)'s head-vs-offset test on hand-labelled sentences, held out."""

import numpy as np
import pytest

import dependency_heads
import minilm
from dependency_heads import LABELLED, RELATIONS, SENTENCES

DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "every", "each", "some", "no", "any",
               "another"}
POSSESSIVES = {"my", "your", "his", "her", "its", "our", "their"}
# Every verb of the data file, listed by hand apart from the labels (auxiliaries included).
VERBS = {"answered", "asked", "ate", "attacked", "bought", "broke", "brought", "built", "buy", "carried",
         "caught", "chased", "cleaned", "closed", "crossed", "cut", "designed", "destroyed", "did", "drinks",
         "dropped", "eat", "examined", "finished", "fixed", "followed", "found", "gave", "has", "hired", "hurt",
         "kicked", "know", "left", "lost", "love", "made", "makes", "needs", "opened", "ordered", "owns",
         "painted", "passed", "picked", "planted", "played", "plays", "read", "reads", "received", "said",
         "sang", "saw", "sent", "showed", "signed", "sold", "stole", "threw", "told", "turned", "visit", "want",
         "watched", "will", "wore", "wrote"}
NOT_A_VERB_HERE = {("they found the lost keys under a chair", 3)}  # lost: an adjective
# Every word of the data file found between a determiner and its noun, listed by hand: adjectives,
# two nouns that modify a noun (bus driver, front door) and one adverb (very).
MODIFIERS = {"angry", "best", "big", "bigger", "black", "blue", "broken", "brown", "cold", "difficult", "entire",
             "fresh", "funny", "good", "hard", "heavy", "last", "little", "long", "lost", "new", "old", "red",
             "sharp", "sick", "small", "strong", "tall", "warm", "wooden", "wrong", "young"} | {"bus", "front", "very"}
CLS, SEP = 0, -1


def is_verb(sentence, i):
    return sentence["text"].split()[i] in VERBS and (sentence["text"], i) not in NOT_A_VERB_HERE


# The data

def test_the_data_file_holds_enough_distinct_sentences_and_not_the_chapters_own():
    texts = [s["text"] for s in SENTENCES]
    assert len(texts) >= 64 and len(set(texts)) == len(texts)
    assert "the black cat drank the milk" not in texts
    assert len(dependency_heads.pairs("det")) >= 100
    assert len(dependency_heads.pairs("dobj")) >= 64
    assert all(s["dobj"] for s in SENTENCES)  # every sentence has an object
    used = {s["text"].split()[dep] for s in SENTENCES for relation in ("det", "poss") for dep, _ in s[relation]}
    assert used >= DETERMINERS | POSSESSIVES - {"its"}  # varied determiners


def test_every_sentence_is_one_token_per_word():
    dependency_heads.check_one_token_per_word()  # raises if not
    for sentence in SENTENCES:
        assert minilm.tokenize(sentence["text"])[0][1:-1] == sentence["text"].lower().split()


def test_a_sentence_with_a_split_word_is_refused():
    with pytest.raises(ValueError, match="'the tokenization failed' is not one token per word"):
        dependency_heads.check_one_token_per_word([{"text": "the tokenization failed"}])


def test_a_label_whose_index_is_not_its_word_is_refused():
    words = "the old man ate a red apple".split()
    assert dependency_heads.parse_label("the(0)>man(2)", words) == (0, 2)
    for wrong in ["the(0)>man(1)", "the(0)>man(9)", "the>man", "the(0)man(2)"]:
        with pytest.raises(ValueError, match="label"):
            dependency_heads.parse_label(wrong, words)
    table = ("# a comment\ntext | det | dobj | poss | note\n"
             "the old man ate a red apple | the(0)>man(2) a(4)>apple(5) | apple(6)>ate(3) | -\n")
    with pytest.raises(ValueError, match="word 5 of 'the old man ate a red apple' is not 'apple'"):
        dependency_heads.load_sentences(table)
    table = table.replace("apple(5)", "apple(6)")
    assert dependency_heads.load_sentences(table) == [
        {"text": "the old man ate a red apple", "det": [(0, 2), (4, 6)], "dobj": [(6, 3)], "poss": [], "note": ""}]


def test_there_are_no_unknown_relations():
    with pytest.raises(ValueError, match="unknown relation"):
        dependency_heads.pairs("nsubj")
    with pytest.raises(ValueError, match="unknown relation"):
        dependency_heads.held_out("nsubj")


@pytest.mark.parametrize("relation", LABELLED)
def test_every_labelled_pair_is_in_range_and_one_head_per_word(relation):
    for sentence in SENTENCES:
        words = sentence["text"].split()
        dependents = [dep for dep, _ in sentence[relation]]
        assert len(set(dependents)) == len(dependents), sentence["text"]  # one head per word
        for dep, head in sentence[relation]:
            assert 0 <= dep < len(words) and 0 <= head < len(words), (sentence["text"], dep, head)
            assert dep != head, sentence["text"]


def test_a_determiner_or_possessive_comes_before_its_noun_with_no_verb_or_determiner_between():
    for sentence in SENTENCES:
        words = sentence["text"].split()
        nouns = [head for relation in ("det", "poss") for _, head in sentence[relation]]
        assert len(set(nouns)) == len(nouns), sentence["text"]  # one determiner a noun
        for relation, kind in (("det", DETERMINERS), ("poss", POSSESSIVES)):
            for dep, head in sentence[relation]:
                assert words[dep] in kind, (sentence["text"], relation, words[dep])
                assert dep < head, sentence["text"]  # English determiners come first
                assert words[head] not in DETERMINERS | POSSESSIVES | MODIFIERS and not is_verb(sentence, head), (
                    sentence["text"], words[head])  # the noun, not an adjective before it
                for between in range(dep + 1, head):  # adjectives, adverbs, noun modifiers only
                    assert words[between] in MODIFIERS, (sentence["text"], words[between])


def test_every_determiner_and_possessive_is_labelled_unless_the_note_says_it_is_none():
    for sentence in SENTENCES:
        labelled = {dep for relation in ("det", "poss") for dep, _ in sentence[relation]}
        for i, word in enumerate(sentence["text"].split()):
            if word in DETERMINERS | POSSESSIVES and i not in labelled:
                assert f"{word}: " in sentence["note"] and "not a determiner" in sentence["note"], (
                    sentence["text"], word)


def test_an_object_follows_its_verb_which_is_the_nearest_verb_before_it():
    for sentence in SENTENCES:
        words = sentence["text"].split()
        verbs = [head for _, head in sentence["dobj"]]
        assert len(set(verbs)) == len(verbs), sentence["text"]  # one direct object a verb
        for dep, head in sentence["dobj"]:
            assert is_verb(sentence, head), (sentence["text"], words[head])
            assert words[dep] not in VERBS | DETERMINERS | POSSESSIVES, (sentence["text"], words[dep])
            assert head < dep, sentence["text"]  # no object comes first in these sentences
            assert max(i for i in range(dep) if is_verb(sentence, i)) == head, (sentence["text"], words[dep])
            # An object followed by a noun phrase is an indirect object, unless the note says what follows.
            if dep + 1 < len(words) and words[dep + 1] in DETERMINERS | POSSESSIVES:
                assert f"{words[dep + 1]} {words[dep + 2]}: " in sentence["note"], (sentence["text"], words[dep])


def test_an_indirect_object_named_in_a_note_is_not_labelled_dobj_and_comes_before_the_object():
    named = 0
    for sentence in SENTENCES:
        words = sentence["text"].split()
        for part in sentence["note"].split("; "):
            if part.split(":")[-1].strip().startswith("indirect object"):
                word = part.split(":")[0]
                i = words.index(word)
                assert i not in [dep for dep, _ in sentence["dobj"]], sentence["text"]
                assert any(head < i < dep for dep, head in sentence["dobj"]), sentence["text"]
                named += 1
    assert named >= 5


def test_clark_et_al_s_numbers_are_at_hand():
    assert dependency_heads.CLARK_2019["det"]["accuracy"] == 0.943
    assert dependency_heads.CLARK_2019["det"]["baseline"] == 0.517
    assert dependency_heads.CLARK_2019["dobj"]["accuracy"] == 0.868
    assert dependency_heads.CLARK_2019["dobj"]["baseline"] == 0.400


# The protocol, on constructed weights

def test_most_attended_ignores_the_word_itself_and_cls_and_sep_even_when_they_weigh_most():
    # [CLS], three words, [SEP]: every row puts 0.5 or more on [CLS] or [SEP].
    weights = np.array([
        [0.9, 0.0, 0.1, 0.0, 0.0],
        [0.5, 0.1, 0.3, 0.1, 0.0],  # word 0 -> word 1
        [0.0, 0.2, 0.1, 0.1, 0.6],  # word 1 -> word 0
        [0.6, 0.05, 0.1, 0.25, 0.0],  # word 2 -> word 1: itself (0.25) set aside
        [0.0, 0.0, 0.0, 0.0, 1.0],
    ])
    assert dependency_heads.most_attended(weights).tolist() == [1, 0, 1]
    stacked = np.stack([weights, weights[::-1, ::-1]])  # (2, 5, 5): a second, mirrored head
    assert dependency_heads.most_attended(stacked).tolist() == [[1, 0, 1], [1, 2, 1]]


# [CLS], "a", "cat", "slept", [SEP]: "a" attends most to "cat"; "cat" attends most to "slept",
# but of the words, "cat" attends most to "a".
A_CAT_SLEPT = np.array([
    [1.0, 0.0, 0.0, 0.0, 0.0],
    [0.2, 0.1, 0.6, 0.1, 0.0],  # a -> cat
    [0.2, 0.3, 0.1, 0.4, 0.0],  # cat -> slept (its row), yet it gives "a" more than "slept" does
    [0.5, 0.2, 0.15, 0.1, 0.05],  # slept -> a
    [0.0, 0.0, 0.0, 0.0, 1.0],
])
A_CAT = [{"text": "a cat slept", "det": [(0, 1)], "dobj": [], "poss": []}]


def test_reversed_the_dependents_column_is_read_not_the_head_words_row(monkeypatch):
    assert dependency_heads.most_attending(A_CAT_SLEPT).tolist() == [1, 0, 1]  # column argmax
    assert dependency_heads.most_attended(A_CAT_SLEPT).tolist() == [1, 2, 0]  # row argmax
    # The determiner's column says "cat": right. The noun's row would have said "slept": wrong.
    monkeypatch.setattr(minilm, "attention_weights", lambda text: (
        minilm.tokenize(text)[0], np.broadcast_to(A_CAT_SLEPT, (minilm.N_LAYERS, minilm.N_HEADS, 5, 5))))
    assert np.all(dependency_heads.head_accuracies("det", A_CAT, reverse=True) == 1.0)
    assert dependency_heads.most_attended(A_CAT_SLEPT)[1] != 0  # the head word's row misses
    assert dependency_heads.misses("det", 0, 0, A_CAT, reverse=True) == []
    assert np.all(dependency_heads.head_accuracies("det", A_CAT) == 1.0)  # and a -> cat forward


# Every determiner right before its noun, every object two words after its verb, none at word 0.
PLANTED = [
    {"text": "she saw a cat today", "det": [(2, 3)], "dobj": [(3, 1)], "poss": []},
    {"text": "we read this book today", "det": [(2, 3)], "dobj": [(3, 1)], "poss": []},
    {"text": "he ate the fish today", "det": [(2, 3)], "dobj": [(3, 1)], "poss": []},
    {"text": "they sold a car today", "det": [(2, 3)], "dobj": [(3, 1)], "poss": []},
]


def planted_weights(text, next_word_head=(0, 0), previous_word_head=(0, 1)):
    """One head sends each token to the next, one to the previous; the others spread evenly."""
    n = len(text.split()) + 2  # with [CLS] and [SEP]
    weights = np.full((minilm.N_LAYERS, minilm.N_HEADS, n, n), 1 / n)
    weights[next_word_head] = np.eye(n, k=1)  # token i -> token i + 1 (the last word -> [SEP])
    weights[next_word_head][SEP, SEP] = 1
    weights[previous_word_head] = np.eye(n, k=-1)  # token i -> token i - 1 (the first word -> [CLS])
    weights[previous_word_head][CLS, CLS] = 1
    return minilm.tokenize(text)[0], weights


def test_a_planted_next_word_head_scores_one_on_det_and_the_offset_baseline_agrees(monkeypatch):
    monkeypatch.setattr(minilm, "attention_weights", planted_weights)
    det = dependency_heads.head_accuracies("det", PLANTED)  # (layers, heads)
    assert det.shape == (minilm.N_LAYERS, minilm.N_HEADS)
    assert det[0, 0] == 1.0
    assert det.sum() == 1.0  # the even heads answer word 0, never a determiner's noun
    assert dependency_heads.best_head("det", PLANTED) == ((0, 0), 1.0)
    assert dependency_heads.best_offset("det", PLANTED) == (1, 1.0)
    assert dependency_heads.head_accuracies("dobj", PLANTED)[0, 0] == 0.0
    assert dependency_heads.offset_accuracies("dobj", PLANTED) == {
        k: float(k == -2) for k in range(-4, 5) if k != 0}


def test_reversed_a_noun_that_attends_to_the_word_before_it_finds_its_determiner(monkeypatch):
    monkeypatch.setattr(minilm, "attention_weights", planted_weights)
    # Reversed, the answer for a determiner is the word attending to it most: the previous-word
    # head's noun does, the next-word head's word before the determiner does.
    reversed_det = dependency_heads.head_accuracies("det", PLANTED, reverse=True)  # (layers, heads)
    assert reversed_det[0, 1] == 1.0 and reversed_det.sum() == 1.0
    assert dependency_heads.misses("det", 0, 0, PLANTED, reverse=True)[0] == ("she saw a cat today", "a", "saw", "cat")
    # The baseline answers the same question in both directions.
    for relation in RELATIONS:
        assert dependency_heads.best_offset(relation, PLANTED, reverse=True) == dependency_heads.best_offset(
            relation, PLANTED)


def test_reversed_pairs_swap_each_word_and_its_partner():
    forward = dependency_heads.pairs("dobj", PLANTED)
    assert forward[:2] == [("she saw a cat today", 3, 1), ("we read this book today", 3, 1)]
    assert dependency_heads.pairs("dobj", PLANTED, reverse=True) == [(t, b, a) for t, a, b in forward]


# Held-out selection

def test_a_seeded_split_is_two_disjoint_halves_that_hold_every_sentence():
    first, second = dependency_heads.split_halves(len(SENTENCES), seed=3)
    assert (first, second) == dependency_heads.split_halves(len(SENTENCES), seed=3)  # seeded
    assert (first, second) != dependency_heads.split_halves(len(SENTENCES), seed=4)
    assert len(first) == len(SENTENCES) // 2 and sorted(first + second) == list(range(len(SENTENCES)))
    dependency_heads.check_halves((first, second), len(SENTENCES))  # raises if not


def test_halves_that_overlap_or_leave_a_sentence_out_are_refused():
    with pytest.raises(ValueError, match=r"overlap in sentences \[2\]"):
        dependency_heads.check_halves(((0, 1, 2), (2, 3)), 4)
    with pytest.raises(ValueError, match=r"missing \[3\]"):
        dependency_heads.check_halves(((0, 1), (2,)), 4)
    with pytest.raises(ValueError, match=r"out of range \[7\]"):
        dependency_heads.check_halves(((0, 1), (2, 3, 7)), 4)


def test_a_planted_leak_in_the_split_fails(monkeypatch):
    """The fault: a split whose scoring half repeats sentences of the choosing half."""
    everything = tuple(range(len(SENTENCES)))
    with pytest.raises(ValueError, match="overlap"):
        dependency_heads.held_out("det", halves=(everything, everything[::2]))
    monkeypatch.setattr(dependency_heads, "split_halves", lambda count, seed=0: (tuple(range(count)),) * 2)
    with pytest.raises(ValueError, match="overlap"):
        dependency_heads.held_out("det", seed=0)
    with pytest.raises(ValueError, match="overlap"):
        dependency_heads.held_out_spread("dobj", seeds=range(2))


def test_a_head_chosen_on_one_half_is_scored_on_the_other_only(monkeypatch):
    # In the first two sentences head (0, 0) looks at the next word, in the last two head (0, 1):
    # each half's best head is right on every one of its pairs and wrong on every other pair.
    def weights(text):
        return planted_weights(text, *[((0, 0), (1, 0)), ((0, 1), (1, 1))][text.split()[0] in {"he", "they"}])
    monkeypatch.setattr(minilm, "attention_weights", weights)
    result = dependency_heads.held_out("det", sentences=PLANTED, halves=((0, 1), (2, 3)))
    assert [fold["head"] for fold in result["folds"]] == [(0, 0), (0, 1)]
    assert [fold["chosen_accuracy"] for fold in result["folds"]] == [1.0, 1.0]
    assert [fold["accuracy"] for fold in result["folds"]] == [0.0, 0.0]  # held out
    assert result["accuracy"] == 0.0 and result["interval"] == (0.0, 0.0)
    assert result["in_sample"]["accuracy"] == 0.5  # chosen on all four, it would look half right
    assert [fold["baseline"] for fold in result["folds"]] == [1.0, 1.0] and result["baseline"] == 1.0


def test_the_bootstrap_interval_is_seeded_and_holds_the_share():
    hits, counts = [1, 2, 0, 3, 1], [2, 2, 1, 3, 2]
    low, high = dependency_heads.bootstrap_interval(hits, counts, seed=1)
    assert (low, high) == dependency_heads.bootstrap_interval(hits, counts, seed=1)
    assert 0 <= low < sum(hits) / sum(counts) < high <= 1
    assert dependency_heads.bootstrap_interval([2, 1], [2, 1]) == (1.0, 1.0)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("relation", RELATIONS)
def test_the_held_out_numbers_are_computed_from_the_halves_and_deterministic(relation, reverse):
    result = dependency_heads.held_out(relation, reverse=reverse, seed=5)
    assert result == dependency_heads.held_out(relation, reverse=reverse, seed=5)
    assert result["halves"] == dependency_heads.split_halves(len(SENTENCES), 5)
    for fold in result["folds"]:
        chosen = [SENTENCES[i] for i in fold["chosen_on"]]
        scored = [SENTENCES[i] for i in fold["scored_on"]]
        assert dependency_heads.best_head(relation, chosen, reverse) == (fold["head"], fold["chosen_accuracy"])
        assert dependency_heads.head_accuracies(relation, scored, reverse)[fold["head"]] == fold["accuracy"]
        assert dependency_heads.best_offset(relation, chosen) == (fold["offset"], fold["chosen_baseline"])
        assert dependency_heads.offset_accuracies(relation, scored)[fold["offset"]] == fold["baseline"]
        assert fold["pairs"] == len(dependency_heads.pairs(relation, scored))
        assert fold["interval"][0] <= fold["accuracy"] <= fold["interval"][1]
    assert result["pairs"] == sum(fold["pairs"] for fold in result["folds"]) == len(dependency_heads.pairs(relation))
    assert result["accuracy"] == pytest.approx(sum(f["accuracy"] * f["pairs"] for f in result["folds"]) / result["pairs"])
    best, accuracy = dependency_heads.best_head(relation, reverse=reverse)
    assert result["in_sample"] == {"head": best, "accuracy": accuracy,
                                   "offset": dependency_heads.best_offset(relation)[0],
                                   "baseline": dependency_heads.best_offset(relation)[1]}


@pytest.mark.parametrize("relation", RELATIONS)
def test_held_out_the_best_head_still_beats_the_best_offset_on_every_split(relation):
    spread = dependency_heads.held_out_spread(relation, seeds=range(20))
    assert [run["seed"] for run in spread["runs"]] == list(range(20))
    assert spread["runs"][3] == dependency_heads.held_out(relation, seed=3)
    assert spread["beats_baseline"] == 1.0
    for summary in ("accuracy", "baseline", "fold_accuracy", "fold_baseline"):
        assert spread[summary]["low"] <= spread[summary]["median"] <= spread[summary]["high"]
    assert spread["accuracy"]["low"] > spread["baseline"]["high"]
    assert sum(spread["heads"].values()) == 40  # two folds a split
    (layer, head), accuracy = dependency_heads.best_head(relation)
    assert next(iter(spread["heads"])) == (layer, head)  # the head chosen most often is the in-sample one
    assert accuracy > dependency_heads.best_offset(relation)[1]
    assert dependency_heads.top_heads(relation)[0] == ((layer, head), accuracy)


def test_reversed_no_head_finds_objects_better_than_two_words_back():
    """Reversed, the word attending most to an object is rarely its verb: the best is layer 0, head 4."""
    (layer, head), accuracy = dependency_heads.best_head("dobj", reverse=True)
    assert (layer, head) == (0, 4)  # the head named "verb -> object" from one sentence
    assert accuracy < dependency_heads.best_offset("dobj")[1]
    spread = dependency_heads.held_out_spread("dobj", reverse=True, seeds=range(20))
    assert spread["accuracy"]["median"] < spread["baseline"]["median"]


def test_accuracy_by_distance_bins_each_pair_by_how_far_its_partner_stands(monkeypatch):
    """A planted next-word head finds a determiner's noun right after it, never one past an adjective."""
    monkeypatch.setattr(minilm, "attention_weights", planted_weights)
    sentences = PLANTED + [{"text": "she saw a big cat today", "det": [(2, 4)], "dobj": [(4, 1)], "poss": []}]
    assert dependency_heads.accuracy_by_distance("det", 0, 0, sentences) == {1: (4, 4), 2: (0, 1)}
    assert dependency_heads.accuracy_by_distance("dobj", 0, 0, sentences) == {-3: (0, 1), -2: (0, 4)}
    by_distance = dependency_heads.accuracy_by_distance("det", 0, 1, sentences, reverse=True)
    assert by_distance == {1: (4, 4), 2: (0, 1)}  # reversed: the noun attends to the word before it


@pytest.mark.parametrize("relation, head", [("det", (2, 8)), ("dobj", (2, 0))])
def test_accuracy_by_distance_adds_up_to_the_heads_accuracy(relation, head):
    found = dependency_heads.accuracy_by_distance(relation, *head)
    right, pairs = (sum(column) for column in zip(*found.values()))
    assert pairs == len(dependency_heads.pairs(relation))
    assert right / pairs == dependency_heads.head_accuracies(relation)[head]

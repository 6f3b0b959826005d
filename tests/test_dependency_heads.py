"""snippets/dependency_heads.py: Clark et al. (2019)'s head-vs-offset test on hand-labelled sentences."""

import numpy as np
import pytest

import dependency_heads
import minilm
from dependency_heads import RELATIONS, SENTENCES

DETERMINERS = {"the", "a", "an", "this", "that", "every", "his", "her", "my"}
CLS, SEP = 0, -1


def test_every_sentence_is_one_token_per_word():
    dependency_heads.check_one_token_per_word()  # raises if not
    for sentence in SENTENCES:
        assert minilm.tokenize(sentence["text"])[0][1:-1] == sentence["text"].lower().split()


def test_a_sentence_with_a_split_word_is_refused():
    with pytest.raises(ValueError, match="'the tokenization failed' is not one token per word"):
        dependency_heads.check_one_token_per_word([{"text": "the tokenization failed"}])


def test_there_are_enough_pairs_of_each_relation():
    assert len(dependency_heads.pairs("det")) >= 20
    assert len(dependency_heads.pairs("dobj")) >= 10
    with pytest.raises(ValueError, match="unknown relation"):
        dependency_heads.pairs("nsubj")


@pytest.mark.parametrize("relation", RELATIONS)
def test_every_labelled_pair_is_in_range_and_plausible(relation):
    for sentence in SENTENCES:
        words = sentence["text"].split()
        dependents = [dep for dep, _ in sentence[relation]]
        assert len(set(dependents)) == len(dependents), sentence["text"]  # one head per word
        for dep, head in sentence[relation]:
            assert 0 <= dep < len(words) and 0 <= head < len(words), (sentence["text"], dep, head)
            assert dep != head, sentence["text"]
            assert words[head] not in DETERMINERS, (sentence["text"], words[head])
            if relation == "det":
                assert words[dep] in DETERMINERS, (sentence["text"], words[dep])
                assert dep < head, sentence["text"]  # English determiners come first
            else:
                assert words[dep] not in DETERMINERS, (sentence["text"], words[dep])
                assert head < dep, sentence["text"]  # the object follows its verb here


def test_most_attended_ignores_cls_and_sep_even_when_they_weigh_most():
    # [CLS], three words, [SEP]: every row puts 0.5 or more on [CLS] or [SEP].
    weights = np.array([
        [0.9, 0.0, 0.1, 0.0, 0.0],
        [0.5, 0.1, 0.3, 0.1, 0.0],  # word 0 -> word 1
        [0.0, 0.2, 0.1, 0.1, 0.6],  # word 1 -> word 0
        [0.6, 0.1, 0.1, 0.2, 0.0],  # word 2 -> itself
        [0.0, 0.0, 0.0, 0.0, 1.0],
    ])
    assert dependency_heads.most_attended(weights).tolist() == [1, 0, 2]
    stacked = np.stack([weights, weights[::-1, ::-1]])  # (2, 5, 5): a second, mirrored head
    assert dependency_heads.most_attended(stacked).tolist() == [[1, 0, 2], [0, 2, 1]]


PLANTED = [  # every determiner right before its noun, every object two words after its verb
    {"text": "the cat ate a fish", "det": [(0, 1), (3, 4)], "dobj": [(4, 2)]},
    {"text": "a boy read this book today", "det": [(0, 1), (3, 4)], "dobj": [(4, 2)]},
]


def next_word_weights(text):
    """Planted weights: head (0, 0) sends each word to the next word; the others spread evenly."""
    n = len(text.split()) + 2  # with [CLS] and [SEP]
    weights = np.full((minilm.N_LAYERS, minilm.N_HEADS, n, n), 1 / n)
    weights[0, 0] = np.eye(n, k=1)  # token i -> token i + 1 (the last word -> [SEP])
    weights[0, 0, SEP, SEP] = 1
    return minilm.tokenize(text)[0], weights


def test_a_planted_next_word_head_scores_one_on_det_and_the_offset_baseline_agrees(monkeypatch):
    monkeypatch.setattr(minilm, "attention_weights", next_word_weights)
    det = dependency_heads.head_accuracies("det", PLANTED)  # (layers, heads)
    assert det.shape == (minilm.N_LAYERS, minilm.N_HEADS)
    assert det[0, 0] == 1.0
    assert det.sum() == 1.0  # the even heads predict word 0, never a determiner's noun
    assert dependency_heads.best_head("det", PLANTED) == ((0, 0), 1.0)
    assert dependency_heads.best_offset("det", PLANTED) == (1, 1.0)
    assert dependency_heads.head_accuracies("dobj", PLANTED)[0, 0] == 0.0
    assert dependency_heads.offset_accuracies("dobj", PLANTED) == {
        k: float(k == -2) for k in range(-4, 5) if k != 0}


def test_reversed_pairs_swap_each_word_and_its_partner():
    forward = dependency_heads.pairs("dobj", PLANTED)
    assert forward == [("the cat ate a fish", 4, 2), ("a boy read this book today", 4, 2)]
    assert dependency_heads.pairs("dobj", PLANTED, reverse=True) == [(t, b, a) for t, a, b in forward]


def test_reversed_the_planted_next_word_head_finds_no_determiner_and_the_offset_flips(monkeypatch):
    monkeypatch.setattr(minilm, "attention_weights", next_word_weights)
    # A noun looking for its determiner must look back; the planted head looks forward.
    assert dependency_heads.head_accuracies("det", PLANTED, reverse=True)[0, 0] == 0.0
    assert dependency_heads.best_offset("det", PLANTED, reverse=True) == (-1, 1.0)
    assert dependency_heads.best_offset("dobj", PLANTED, reverse=True) == (2, 1.0)
    assert dependency_heads.misses("det", 0, 0, PLANTED, reverse=True)[0] == (
        "the cat ate a fish", "cat", "ate", "the")


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("relation", RELATIONS)
def test_the_best_real_head_beats_the_best_offset(relation, reverse):
    (layer, head), accuracy = dependency_heads.best_head(relation, reverse=reverse)
    offset, baseline = dependency_heads.best_offset(relation, reverse=reverse)
    assert accuracy > baseline, (relation, reverse, (layer, head), accuracy, offset, baseline)
    accuracies = dependency_heads.head_accuracies(relation, reverse=reverse)
    assert accuracies[layer, head] == accuracies.max() == accuracy
    assert dependency_heads.top_heads(relation, reverse=reverse)[0] == ((layer, head), accuracy)


def test_the_head_named_verb_to_object_from_one_sentence_does_not_find_objects_in_general():
    """The page: layer 0, head 4 finds the object for fewer than half of the verbs; the best head far more."""
    verbs_finding_objects = dependency_heads.head_accuracies("dobj", reverse=True)  # (layers, heads)
    assert verbs_finding_objects[0, 4] < 0.5 < verbs_finding_objects.max()

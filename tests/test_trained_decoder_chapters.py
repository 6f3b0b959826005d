"""Claims made in prose by the chapters on SmolLM2-135M-Instruct: "Attention in a trained decoder"
and "Induction heads: how a decoder copies".

Their code blocks check the numbers they print; these tests check the statements the pages make
around them about the model's real weights.
"""

import numpy as np
import pytest

import smollm
import smollm_heads as sh


# That their prose names no number their code does not print: tests/test_trained_model_chapter.py.


@pytest.fixture(scope="module")
def sentence():
    tokens, _, weights, _ = smollm.run(sh.SENTENCE)
    return tokens, weights


@pytest.fixture(scope="module")
def scores():
    return (sh.induction_scores(sh.repeated_texts()), sh.induction_scores(sh.unrepeated_texts()),
            sh.previous_token_scores(sh.unrepeated_texts()))


def test_the_heads_are_where_the_pages_say(scores):
    induction, baseline, previous = scores
    assert {layer for layer, _ in sh.top_heads(induction)} == {17, 18}  # "all in layers 17 and 18"
    assert induction[tuple(zip(*sh.top_heads(induction)))].min() > 0.8  # "above 0.8"
    above = sh.heads_above(induction, 0.3)
    assert len(above) == 14 and min(layer for layer, _ in above) == 17  # "none of them below layer 17"
    assert baseline[tuple(zip(*above))].max() < 0.03
    assert [layer for layer, _ in sh.top_heads(previous, 2)] == [11, 16]  # "just below them, in layers 11 and 16"
    named = sh.top_heads(induction) + sh.top_heads(previous)
    assert all(min(induction[h], previous[h]) < 0.15 for h in named)  # "none of the named heads does both"


def test_the_heads_chosen_on_four_texts_hold_on_the_held_out_texts(scores):
    held = sh.induction_scores(sh.held_out_texts())
    assert all(held[h] > 0.75 for h in sh.top_heads(scores[0]))


def test_the_induction_stripe_and_the_first_token_in_the_sentence(sentence):
    tokens, weights = sentence
    layer, head = sh.induction_heads()[0]
    rows = weights[layer, head]
    assert rows[8].argmax() == 2 and rows[11].argmax() == 5  # " black" -> " cat", the last " the" -> " milk"
    stripe = [rows[i, i - 6] for i in range(8, 12)]  # " black", " cat", " drank", " the" of the second sentence
    assert np.argmax(stripe) == 0  # "strongest for ' black'"
    assert rows[7, 0] > 0.9  # " The", with its space, never came before: its row stays on the first token
    last = rows[-1]
    assert np.argsort(-last)[:2].tolist() == [sh.MILK, 0]  # " milk", then the first token takes most of the rest
    assert last[sh.MILK] + last[0] > 0.98


def test_the_previous_token_head_looks_one_back_in_the_sentence(sentence):
    _, weights = sentence
    layer, head = sh.previous_token_heads()[0]
    assert weights[layer, head, sh.MILK].argmax() == sh.MILK - 1  # " milk" at " the"


def test_the_other_two_heads_of_the_induction_heads_group_park_on_the_first_token(sentence):
    _, weights = sentence
    layer, head = sh.induction_heads()[0]
    group = [h for h in range(head - head % 3, head - head % 3 + 3) if h != head]
    assert all(weights[layer, h, -1, 0] > 0.9 for h in group)  # "almost everything on the first token"


def test_the_milk_comes_back_as_well_after_a_mere_mention_and_a_car_only_after_the_repeat():
    milk = sh.probability(sh.SENTENCE, " milk")
    assert sh.probability(sh.MENTION, " milk") > milk > 0.2  # "as much"
    assert "milk" in sh.MENTION and " the milk" not in sh.MENTION  # nothing before " the" was followed by milk
    assert sh.probability("There was a car nearby. The black cat drank the", " car") < 0.005
    assert smollm.next_tokens("The black cat drank the car. The black cat drank the", 1)[0][0] == " car"


def test_the_repeated_sentences_are_chosen_as_the_page_says():
    """Each word: below 0.01 after the second sentence alone, below 0.05 after a mere mention, and the
    likeliest after the repeat; the article's milk fails the mention test."""
    rows = {name: p for name, _, p in sh.sentence_removals()}
    five = slice(1, 6)
    assert all(p < 0.01 for p in rows["alone"][five]) and all(p < 0.05 for p in rows["mention"][five])
    assert rows["mention"][0] > 0.05
    for text, word, mention in sh.REPEATED_SENTENCES:
        assert smollm.next_tokens(text, 1)[0][0] == word
        assert mention.endswith(text[text.index(". ") + 2:]) and word in mention
        assert len(smollm.tokenize(text)[0]) == len(smollm.tokenize(sh.SENTENCE)[0])  # one batch


def test_the_four_strongest_induction_heads_fail_the_direct_path_test_and_a_later_one_passes():
    heads = sh.heads_above(sh.induction_scores(sh.repeated_texts()), 0.3)
    ranks = dict(zip(heads, sh.direct_path_ranks(sh.held_out_texts(), heads)))
    for head in heads[:4]:
        assert 10000 < np.median(ranks[head]) < 25000 and ranks[head].min() > 10  # "about 10,000th to 25,000th"
    middle = [head for head in heads[:4] if abs(np.median(ranks[head]) / smollm.VOCABULARY - 0.5) < 0.02]
    assert middle == [(17, 5)]  # "for one of them (layer 17, head 5) that is the middle"
    # The same measure finds a head that does copy, and one that does the opposite: it is not blind.
    assert np.median(ranks[23, 2]) < 10 and np.sum(ranks[23, 2] <= 10) >= 12
    assert np.median(ranks[24, 4]) > 0.9 * smollm.VOCABULARY  # "near the bottom"


def test_the_removals_say_what_the_page_says():
    table = sh.removals()
    by = {(r.name, r.how, tuple(r.heads)): r for r in table}
    nothing = table[0]
    assert nothing.name == "nothing" and nothing.heads == []
    induction = sh.induction_scores(sh.repeated_texts())
    above, previous = sh.heads_above(induction, 0.3), sh.previous_token_heads()
    random = [r for r in table if r.name == "random"]
    assert all(not set(r.heads) & set(above + previous) for r in random)  # the draws leave out every named head
    assert max(r.copying for r in random) - nothing.copying < 0.3  # "at most a quarter of a nat"
    assert by["induction", "zero", tuple(above[:4])].copying > 5
    assert by["all induction", "zero", tuple(above)].copying > 9
    strongest_previous = by["previous", "zero", tuple(previous[:2])]
    assert strongest_previous.copying > 4.5 and strongest_previous.score < nothing.score / 2
    assert by["previous", "zero", tuple(previous[2:])].copying - nothing.copying < 0.3  # "almost nothing"
    for name, heads in (("induction", above[:4]), ("previous", previous[:2])):  # "less than zeroing them"
        assert nothing.copying < by[name, "mean", tuple(heads)].copying < by[name, "zero", tuple(heads)].copying
    random_change = max(abs(r.natural - nothing.natural) for r in random)
    assert all(abs(r.natural - nothing.natural) <= random_change for r in table)  # "no removal changes ... more"
    first, _ = sh.losses(sh.held_out_texts())
    assert first > 13  # where nothing can be copied
    four, fourteen = by["induction", "zero", tuple(above[:4])], by["all induction", "zero", tuple(above)]
    assert nothing.p_copy > 0.25 and four.p_copy < 0.05 and fourteen.p_copy < 0.005  # "0.30 ... 0.04 ... 0.00"
    assert (fourteen.copying - nothing.copying) / (first - nothing.copying) > 0.5  # "most of what copying saved"


def test_the_four_strongest_induction_heads_help_the_later_ones_find_where_to_copy_from():
    later = sh.heads_above(sh.induction_scores(sh.repeated_texts()), 0.3)[4:]
    intact = sh.induction_scores(sh.held_out_texts())
    without = sh.induction_scores(sh.held_out_texts(), removed=sh.induction_heads())
    fell = [h for h in later if without[h] < intact[h]]
    assert len(later) == 10 and len(fell) == 9  # "nine of the ten put less weight on the token to copy"
    assert [h for h in later if h not in fell] == [(18, 7)]  # "one, layer 18, head 7, rises"
    assert all(h[0] > 17 for h in later)  # "all in later layers"
    assert without[23, 2] < intact[23, 2] / 2


def test_the_check_yourself_sentences_show_priming_and_copying():
    repeat, mention = "The red dog ate the bone. The red dog ate the", "There was a bone nearby. The red dog ate the"
    assert sh.probability(mention, " bone") > 1.5 * sh.probability(repeat, " bone")  # "twice as likely"
    assert smollm.next_tokens(mention, 1)[0][0] == " bone"
    king = "The old king wore the window. The old king wore the"
    assert smollm.next_tokens(king, 1)[0][0] == " window"
    assert sh.probability("There was a window nearby. The old king wore the", " window") < 0.005


def test_removing_heads_in_sentences_does_what_the_page_says():
    rows = {}
    for name, heads, p in sh.sentence_removals():
        rows.setdefault((name, len(heads)), []).append(np.array(p))
    (intact,), (four,), (fourteen,) = rows["nothing", 0], rows["induction", 4], rows["all induction", 14]
    random4, random14 = np.array(rows["random", 4]), np.array(rows["random", 14])
    milk, five, mention = 0, slice(1, 6), 6
    assert np.all(fourteen[five] < intact[five])  # "every one of the five words falls"
    assert np.sum(fourteen[five] < 0.015) == 2  # "two of them to 0.01 or less"
    assert np.sum(fourteen[five] < random14[:, five].min(axis=0)) == 4  # "below both draws ... in four of five"
    car, lantern, ring, zebra, ladder = range(1, 6)
    assert four[lantern] < intact[lantern] and four[ring] < intact[ring]
    assert all(four[w] > intact[w] for w in (car, zebra, ladder))
    change = np.abs(random4[:, five] - intact[five])
    assert np.median(change) < 0.1 and change.max() < 0.15  # "about a tenth"
    assert intact[milk] < four[milk] < fourteen[milk]  # removing them raises p(" milk")
    assert four[milk] > random4[:, milk].max() and fourteen[milk] > random14[:, milk].max()
    assert fourteen[mention] > intact[mention] > random14[:, mention].max()  # "where both ... give 0.20"


def test_the_previous_token_head_holds_on_random_words_and_weakens_on_ordinary_text():
    layer, head = sh.previous_token_heads()[0]
    assert sh.previous_token_scores(sh.unrepeated_texts())[layer, head] > 0.9
    for text in (sh.NATURAL, sh.PARAGRAPH):
        assert 0.55 < sh.previous_token_scores([text])[layer, head] < 0.75  # "0.6-0.7"
        assert sh.previous_token_weight_from_shared_parts([text], layer, head) < 0.8


def test_the_pairing_run_is_the_models_own_forward_pass_with_the_files_pairing():
    weights, logits = sh._forward_with_pairing(sh.PARIS, "adjacent")
    found = smollm.run(sh.PARIS)
    assert np.allclose(weights, found.weights) and np.allclose(logits, found.logits, atol=1e-4)


def test_the_wrong_pairing_keeps_paris_and_breaks_the_previous_token_head():
    layer, head = sh.previous_token_heads()[0]
    found = {}
    for pairs in ("adjacent", "halves"):
        p = sh.softmax(sh.run_with_pairing(sh.PARIS, pairs)[1][-1])
        weights, logits = sh.run_with_pairing(sh.NATURAL, pairs)
        rows = np.arange(1, weights.shape[-1])
        found[pairs] = (p.argmax(), weights[layer, head, rows, rows - 1].mean(), sh.text_loss(sh.NATURAL, logits))
    paris = smollm.tokenize(" Paris")[1][0]
    assert found["adjacent"][0] == found["halves"][0] == paris  # "even ' Paris' survives"
    assert found["halves"][1] < found["adjacent"][1] / 3  # the head collapses
    assert found["halves"][2] > found["adjacent"][2]  # the loss rises
    assert np.isclose(found["adjacent"][2], [r.natural for r in sh.removals() if r.name == "nothing"][0])


def test_the_sinks_share_by_length_falls_less_than_its_short_value_suggests():
    by_weight, by_length = sh.first_token_shares(sh.SENTENCE)
    assert np.isclose(by_length.mean(), sh.first_token_share_by_length(sh.SENTENCE).mean())
    lengths = np.array([sh.value_lengths(sh.SENTENCE, layer) for layer in range(smollm.N_LAYERS)])
    ratio = np.median(lengths[..., 0] / lengths[..., 1:].mean(axis=-1))
    w = by_weight.mean()
    assert by_length.mean() > w * ratio / (w * ratio + 1 - w) + 0.1  # "a smaller fall than ... would suggest"
    nearly_all = by_weight > 0.95
    assert by_length[nearly_all].mean() > 0.9  # "stays at 0.91"
    assert by_length[~nearly_all].mean() < by_weight[~nearly_all].mean()


def test_rope_alone_makes_the_score_depend_on_the_offset():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 64))
    turned_q = sh.rotary_position_embedding(np.tile(q, (40, 1)), smollm.ROPE_BASE)
    turned_k = sh.rotary_position_embedding(np.tile(k, (40, 1)), smollm.ROPE_BASE)
    assert np.isclose(turned_q[30] @ turned_k[27], turned_q[10] @ turned_k[7])


def test_the_models_rows_do_know_their_position():
    """The page says the rows learn where they are in other ways: a probe finds it (Haviv et al. 2022)."""
    texts = sh.unrepeated_texts()
    x = np.concatenate([smollm.run(t)[1][20] for t in texts])  # layer 20's rows, (tokens of all texts, 576)
    positions = np.concatenate([np.arange(len(smollm.tokenize(t)[0])) for t in texts])
    fitted = len(positions) - len(smollm.tokenize(texts[-1])[0])
    train, test = slice(0, fitted), slice(fitted, None)  # the first texts to fit, the last to test
    features = np.c_[x, np.ones(len(x))]
    w = np.linalg.solve(features[train].T @ features[train] + 10 * np.eye(features.shape[1]),
                        features[train].T @ positions[train])
    predicted = features[test] @ w
    assert np.corrcoef(predicted, positions[test])[0, 1] > 0.8

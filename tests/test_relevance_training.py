"""The training demo of learning-relevance.md: gradients, forward pass, data, result, relation, script."""

import ast
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import relevance_training as rt
from attention import scaled_dot_product_attention, softmax
from conftest import DOCS, SNIPPETS

TWO_CLAUSES = "The black cat drank the milk and ate the fish".split()


def small_instance(seed=1):
    """A few objects and parameters large enough that softmax and tanh bend."""
    rng = np.random.default_rng(seed)
    params = {name: rng.normal(0.0, 1.0, w.shape) for name, w in rt.init_params().items()}
    full = rt.generate(n=40, seed=seed)
    short = np.any(full.tokens == rt.TOKEN[rt.PAD], axis=1)
    pick = np.concatenate([np.flatnonzero(short)[:4], np.flatnonzero(~short)[:4]])  # one and two clauses
    data = rt.Data(full.tokens[pick], full.query[pick], full.targets[pick],
                   full.shares[pick] / full.shares[pick].sum())
    return params, data


def numerical_gradient(params, data, name, eps=1e-6):
    """Central differences of the loss, one entry of params[name] at a time."""
    grad = np.zeros_like(params[name])
    for index in np.ndindex(grad.shape):
        original = params[name][index]
        params[name][index] = original + eps
        plus, _ = rt.loss_and_grads(params, data)
        params[name][index] = original - eps
        minus, _ = rt.loss_and_grads(params, data)
        params[name][index] = original
        grad[index] = (plus - minus) / (2 * eps)
    return grad


def relative_error(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(a) + np.linalg.norm(b), 1e-300)


@pytest.mark.parametrize("name", ["W_e", "W_Q", "W_K", "W_V"])
def test_backpropagation_matches_finite_differences(name):
    params, data = small_instance()
    _, grads = rt.loss_and_grads(params, data)
    numerical = numerical_gradient(params, data, name)
    assert np.linalg.norm(numerical) > 1e-3  # the check is not comparing zeros
    assert relative_error(grads[name], numerical) < 1e-5


def test_gradient_check_notices_a_wrong_gradient():
    """The comparison above fails for a gradient that is off in a single entry."""
    params, data = small_instance()
    _, grads = rt.loss_and_grads(params, data)
    numerical = numerical_gradient(params, data, "W_Q")
    wrong = grads["W_Q"].copy()
    wrong[0, 0] += 1e-3 * np.abs(wrong).max()
    assert relative_error(wrong, numerical) > 1e-5


def test_padding_gets_no_weight_and_no_gradient():
    params, data = small_instance()
    padded = data.tokens == rt.TOKEN[rt.PAD]
    assert padded.any()  # the instance has short sentences
    f = rt.forward(params, data.tokens, data.query)
    assert np.all(f["a"][padded] == 0)
    _, grads = rt.loss_and_grads(params, data)
    assert np.all(grads["W_e"][rt.TOKEN[rt.PAD]] == 0)


def test_forward_pass_is_scaled_dot_product_attention():
    params, data = small_instance()
    f = rt.forward(params, data.tokens, data.query)
    for i, (tokens, position) in enumerate(zip(data.tokens, data.query)):  # one object at a time
        tokens = tokens[tokens != rt.TOKEN[rt.PAD]]
        x = params["W_e"][tokens]
        q, k, v = x[position] @ params["W_Q"], x @ params["W_K"], np.tanh(x @ params["W_V"])
        weights = softmax(k @ q / np.sqrt(rt.D_K))
        np.testing.assert_allclose(f["a"][i, : len(tokens)], weights)
        np.testing.assert_allclose(f["z"][i], weights @ v)
        z, a = scaled_dot_product_attention(q[None], k, v)
        np.testing.assert_allclose(f["p"][i], softmax(rt.SCALE * z[0]))


def test_generated_sentences_follow_the_rules():
    data = rt.generate()
    assert np.isclose(data.shares.sum(), 1.0)
    habit = 0.0
    for tokens, position, amount, share in zip(data.tokens, data.query, data.targets, data.shares):
        words = [rt.VOCAB[t] for t in tokens if t != rt.TOKEN[rt.PAD]]
        target = words[position]
        kind = next(k for k, objects in rt.OBJECTS.items() if target in objects)
        [verb] = [w for w in words if w in rt.VERBS[kind]]  # the object's own verb, one per kind
        assert amount in ((0, 1) if verb in ("drank", "ate") else (2, 3))
        [animal] = [w for w in words if w in rt.ANIMALS]
        smaller = amount in (0, 2)
        habit += share * (smaller == (animal == "dog"))
        assert words.count("and") == sum(w in rt.VERBS["drink"] + rt.VERBS["food"] for w in words) - 1
    # The animal's habit holds about 9 times in 10.
    assert abs(habit - rt.P_GREEDY) < 0.03


def test_training_lowers_the_loss_towards_its_floor():
    run = rt.train()
    floor = rt.loss_floor(rt.generate())
    assert abs(run.losses[0] - np.log(4)) < 0.1  # about a blind guess among four amounts at first
    assert floor < run.losses[-1] < floor + 0.1
    assert run.losses[-1] < 0.35


def test_the_floor_is_reached_by_predicting_the_shares():
    """loss_floor is the loss of the best possible prediction: the answers' shares in each context."""
    data = rt.generate(n=200, seed=3)
    contexts = [tuple(t) + (q,) for t, q in zip(data.tokens, data.query)]
    loss = 0.0
    for i, context in enumerate(contexts):
        same = [j for j, c in enumerate(contexts) if c == context]
        loss -= data.shares[i] * np.log(data.shares[i] / data.shares[same].sum())
    assert np.isclose(rt.loss_floor(data), loss)


def test_after_training_milk_attends_to_drank_then_cat_then_black():
    run = rt.train()
    row = dict(zip(rt.SENTENCE, rt.attention_row(run.params)))
    assert row["drank"] > row["cat"] > row["black"]
    assert row["drank"] > 0.5 and row["cat"] > 0.2 and row["black"] < 0.01
    assert np.isclose(sum(row.values()), 1.0)


def test_before_training_milk_attends_evenly():
    row = rt.attention_row(rt.train().params_before)
    assert np.allclose(row, 1 / 6, atol=0.02)


def row_of(params, words, query):
    return dict(zip(words, rt.attention_row(params, words, query)))


def test_each_object_finds_its_own_verb_in_either_order():
    params = rt.train().params
    for words in (TWO_CLAUSES, "The black cat ate the fish and drank the milk".split()):
        milk, fish = row_of(params, words, "milk"), row_of(params, words, "fish")
        assert max(milk, key=milk.get) == "drank" and milk["ate"] < 0.02
        assert max(fish, key=fish.get) == "ate" and fish["drank"] < 0.02


def test_replacing_milks_query_by_fishs_moves_the_weight_to_ate():
    params = rt.train().params
    milk, fish = row_of(params, TWO_CLAUSES, "milk"), row_of(params, TWO_CLAUSES, "fish")
    assert milk["drank"] > 0.5 > milk["ate"] + 0.45
    assert fish["ate"] > 0.5 > fish["drank"] + 0.45


def test_moving_the_words_keeps_milk_on_drank():
    """The model has no position encoding: it sees which words there are, not where.

    So moving the words around moves milk's weights with them. This holds for
    any parameters (it checks the architecture, in forward() as well as in
    attention_row()); what it shows about training is that milk's weight is
    tied to the word "drank", wherever "drank" stands.
    """
    params = rt.train().params
    rng = np.random.default_rng(0)
    reference = row_of(params, TWO_CLAUSES, "milk")
    for _ in range(5):
        words = [TWO_CLAUSES[i] for i in rng.permutation(len(TWO_CLAUSES))]
        moved = rt.forward(params, rt.encode(words), [words.index("milk")])["a"][0]
        for word, weight in zip(words, moved):
            assert np.isclose(weight, reference[word])


def test_an_untrained_model_shows_neither_relation():
    before = rt.train().params_before
    milk, fish = row_of(before, TWO_CLAUSES, "milk"), row_of(before, TWO_CLAUSES, "fish")
    for row in (milk, fish):
        assert max(row.values()) < 0.15  # about 1/9 each: no word stands out
    assert abs(milk["drank"] - milk["ate"]) < 0.03 and abs(fish["ate"] - fish["drank"]) < 0.03


def test_alignment_grows_for_drank_and_cat_and_falls_for_black():
    run = rt.train()
    cos = dict(zip(rt.WATCHED_KEYS, run.cosines[-1]))
    score = dict(zip(rt.WATCHED_KEYS, run.scores[-1]))
    assert cos["drank"] > 0.5 and cos["cat"] > 0.5 and cos["black"] < -0.3
    assert score["drank"] > score["cat"] > 0 > score["black"]
    np.testing.assert_allclose(run.weights[-1], rt.attention_row(run.params))


def seed_run(seed):
    """What the seed study records of one training run."""
    params = rt.train.__wrapped__(seed=seed).params
    milk = dict(zip(rt.SENTENCE, rt.attention_row(params)))
    fish = row_of(params, TWO_CLAUSES, "fish")
    return {"order": milk["drank"] > milk["cat"] > milk["black"],
            "fish": max(fish, key=fish.get) == "ate"}


SEEDS = range(20)


@pytest.fixture(scope="module")
def seed_study():
    with ProcessPoolExecutor(max_workers=2) as pool:
        return list(pool.map(seed_run, SEEDS))


def test_most_seeds_learn_the_order_and_the_relation(seed_study):
    assert sum(r["order"] for r in seed_study) >= 17
    assert sum(r["order"] and r["fish"] for r in seed_study) >= 16


@pytest.mark.parametrize("page, pattern", [
    ("learning-relevance.md", r"in (?P<ok>\d+) of (?P<total>\d+) runs"),
    ("learning-relevance.zh.md", r"(?P<total>\d+) 次训练中有 (?P<ok>\d+) 次"),
])
def test_the_chapter_reports_the_seed_study_as_measured(seed_study, page, pattern):
    text = (DOCS / page).read_text(encoding="utf-8")
    found = re.search(pattern, text)
    assert found, f"{page} does not report the seed study ({pattern})"
    assert int(found["total"]) == len(SEEDS)
    assert int(found["ok"]) == sum(r["order"] and r["fish"] for r in seed_study)


def test_training_is_deterministic_and_fast():
    start = time.process_time()
    again = rt.train.__wrapped__()  # bypass the cache: train from scratch
    seconds = time.process_time() - start
    cached = rt.train()
    for name in cached.params:
        assert np.array_equal(again.params[name], cached.params[name])
    assert np.array_equal(again.losses, cached.losses)
    assert seconds < 15  # a loose bound; tests/benchmark.py measures it on one core


def test_module_uses_numpy_and_the_site_attention_only():
    tree = ast.parse((SNIPPETS / "relevance_training.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported <= {"functools", "time", "typing", "numpy", "attention"}


def test_script_prints_milk_row_as_its_last_six_lines(tmp_path):
    for name in ("relevance_training.py", "attention.py"):
        shutil.copy(SNIPPETS / name, tmp_path)
    result = subprocess.run([sys.executable, "relevance_training.py"], cwd=tmp_path,
                            capture_output=True, text=True, check=True)
    last = result.stdout.splitlines()[-6:]
    words = [line.split(" ")[0] for line in last]
    weights = [float(line.split(" ")[1]) for line in last]
    assert all(len(line.split(" ")) == 2 for line in last)
    assert words == rt.SENTENCE == ["The", "black", "cat", "drank", "the", "milk"]
    np.testing.assert_allclose(weights, rt.attention_row(rt.train().params), atol=5e-4)
    assert abs(sum(weights) - 1) < 0.01

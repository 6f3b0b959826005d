"""The training demo of learning-relevance.md: gradients, forward pass, result, script."""

import ast
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import relevance_training as rt
from attention import scaled_dot_product_attention, softmax
from conftest import SNIPPETS


def small_instance(seed=1):
    """A few sentences and parameters large enough that softmax and tanh bend."""
    rng = np.random.default_rng(seed)
    params = {name: rng.normal(0.0, 1.0, w.shape) for name, w in rt.init_params().items()}
    full = rt.generate(n=40, seed=seed)
    data = rt.Data(full.tokens[:8], full.targets[:8], full.shares[:8] / full.shares[:8].sum())
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


def test_every_parameter_array_has_a_gradient():
    params, data = small_instance()
    _, grads = rt.loss_and_grads(params, data)
    assert set(grads) == set(params) == {"W_e", "W_Q", "W_K", "W_V"}
    for name in params:
        assert grads[name].shape == params[name].shape


def test_forward_pass_is_scaled_dot_product_attention():
    params, data = small_instance()
    f = rt.forward(params, data.tokens)
    x = params["W_e"][data.tokens]
    q, k = x[:, -1] @ params["W_Q"], x @ params["W_K"]
    v = np.tanh(x @ params["W_V"])
    for i in range(len(data.tokens)):  # one sentence at a time, written out
        weights = softmax(k[i] @ q[i] / np.sqrt(rt.D_K))
        np.testing.assert_allclose(f["a"][i], weights)
        np.testing.assert_allclose(f["z"][i], weights @ v[i])
        z, a = scaled_dot_product_attention(q[i][None], k[i], v[i])
        np.testing.assert_allclose(f["a"][i], a[0])
        np.testing.assert_allclose(f["p"][i], softmax(rt.SCALE * z[0]))


def test_generated_sentences_follow_the_rules():
    data = rt.generate()
    assert np.isclose(data.shares.sum(), 1.0)
    for tokens, target in zip(data.tokens, data.targets):
        words = [rt.VOCAB[t] for t in tokens]
        assert words[0] == "The" and words[4] == "the"
        assert words[1] in rt.ADJECTIVES and words[2] in rt.ANIMALS
        assert rt.OBJECTS[target] in rt.PAIRS[words[3]]
        assert words[5] in rt.OBJECTS
    # The word shown in the last slot tells nothing: it is the real object about 1 time in 4.
    shown = np.array([rt.OBJECTS.index(rt.VOCAB[t]) for t in data.tokens[:, -1]])
    assert abs(np.sum(data.shares * (shown == data.targets)) - 0.25) < 0.03


def test_training_lowers_the_loss_to_near_the_floor():
    run = rt.train()
    floor = -(rt.P_FAVOURITE * np.log(rt.P_FAVOURITE)
              + (1 - rt.P_FAVOURITE) * np.log(1 - rt.P_FAVOURITE))
    assert np.isclose(run.losses[0], np.log(4), atol=0.05)  # a blind guess at first
    assert run.losses[-1] < floor + 0.02


def test_after_training_milk_attends_to_drank_then_cat_then_black():
    run = rt.train()
    row = dict(zip(rt.SENTENCE, rt.attention_row(run.params)))
    assert row["drank"] > row["cat"] > row["black"]
    assert row["drank"] > 0.5 and row["cat"] > 0.1 and row["black"] < 0.01
    assert np.isclose(sum(row.values()), 1.0)


def test_before_training_milk_attends_evenly():
    row = rt.attention_row(rt.train().params_before)
    assert np.allclose(row, 1 / 6, atol=0.03)


def test_alignment_grows_for_drank_and_cat_and_falls_for_black():
    run = rt.train()
    cos = dict(zip(rt.WATCHED_KEYS, run.cosines[-1]))
    score = dict(zip(rt.WATCHED_KEYS, run.scores[-1]))
    assert cos["drank"] > 0.8 and cos["cat"] > 0.8 and cos["black"] < 0
    assert score["drank"] > score["cat"] > score["black"]
    np.testing.assert_allclose(run.weights[-1], rt.attention_row(run.params))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_order_does_not_depend_on_the_seed(seed):
    row = rt.attention_row(rt.train(seed=seed).params)
    drank, cat, black = (row[rt.SENTENCE.index(w)] for w in ("drank", "cat", "black"))
    assert drank > cat > black


def test_training_is_deterministic_and_fast():
    start = time.process_time()
    again = rt.train.__wrapped__()  # bypass the cache: train from scratch
    seconds = time.process_time() - start
    cached = rt.train()
    for name in cached.params:
        assert np.array_equal(again.params[name], cached.params[name])
    assert np.array_equal(again.losses, cached.losses)
    assert seconds < 10


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

"""snippets/minilm.py runs the real all-MiniLM-L6-v2, with the site's own attention code.

The proof that it is the real model: its sentence embeddings give the cosine
similarities that the model's README (sentence-transformers/all-MiniLM-L6-v2)
prints for its example sentences. The weights are trusted by their hash, not
by the package that shipped them.
"""

import numpy as np
import pytest

import attention
import minilm
import trained_models

# The example of the model's README: three sentences and their printed similarities.
README_SENTENCES = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
README_SIMILARITIES = {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}


def test_the_embeddings_reproduce_the_models_readme_to_four_decimals():
    embeddings = np.array([minilm.sentence_embedding(s) for s in README_SENTENCES])  # (3, 384)
    assert np.allclose(np.linalg.norm(embeddings, axis=1), 1)
    similarities = embeddings @ embeddings.T  # cosine: the rows have length 1
    for (i, j), printed in README_SIMILARITIES.items():
        assert round(float(similarities[i, j]), 4) == printed, (i, j, similarities[i, j])


def test_a_changed_model_would_not_reproduce_them(monkeypatch):
    """The similarity test can fail: one head's query bias off by 0.1 moves a similarity."""
    changed = dict(minilm.weights())
    changed["encoder.layer.2.attention.self.query.bias"] = changed["encoder.layer.2.attention.self.query.bias"] + 0.1
    monkeypatch.setattr(minilm, "weights", lambda: changed)
    monkeypatch.setattr(minilm, "RUNS", fresh_runs())
    embeddings = np.array([minilm.sentence_embedding(s) for s in README_SENTENCES])
    assert round(float(embeddings[0] @ embeddings[1]), 4) != README_SIMILARITIES[(0, 1)]


def fresh_runs():
    """A cache of runs of its own, in memory only: for a test that changes the model, so nothing it
    computes is kept, and nothing computed before is found."""
    return trained_models.RunCache("minilm-test", minilm.WEIGHTS_SHA256, [], folder=False)


def test_the_weights_file_is_the_upstream_one():
    assert minilm.file_sha256(minilm.model_dir() / "model.safetensors") == minilm.WEIGHTS_SHA256


def test_a_weights_file_with_one_byte_changed_is_refused(tmp_path):
    original = (minilm.model_dir() / "model.safetensors").read_bytes()
    planted = tmp_path / "model.safetensors"
    planted.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))  # a float's last byte flipped
    with pytest.raises(ValueError, match="is not all-MiniLM-L6-v2's weights file: its SHA-256 is"):
        minilm.load(planted)


def test_every_layer_uses_the_sites_multi_head_attention(monkeypatch):
    calls = []

    def recording(*args, **kwargs):
        calls.append(args[6])  # n_heads
        return attention.multi_head_attention(*args, **kwargs)

    monkeypatch.setattr(minilm, "multi_head_attention", recording)
    monkeypatch.setattr(minilm, "RUNS", fresh_runs())
    minilm.attention_weights("A short sentence.")
    assert calls == [minilm.N_HEADS] * minilm.N_LAYERS


def test_attention_weights_have_one_row_per_query_that_sums_to_one():
    tokens, weights = minilm.attention_weights("The black cat drank the milk")
    assert tokens == ["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"]
    assert weights.shape == (6, 12, 8, 8)
    assert np.allclose(weights.sum(axis=-1), 1) and np.all(weights >= 0)


def test_the_first_layers_weights_are_softmax_of_its_queries_and_keys():
    """softmax(q kᵀ / √32) from `queries_and_keys` gives the weights that the forward pass returns."""
    tokens, inputs, weights, _ = minilm.run("The black cat drank the milk")
    for layer in (0, 3):
        q, k = minilm.queries_and_keys(inputs[layer], layer)  # (12, n, 32) each
        expected = attention.softmax(q @ k.transpose(0, 2, 1) / np.sqrt(minilm.D_HEAD))
        np.testing.assert_allclose(weights[layer], expected, rtol=0, atol=1e-12)


def test_the_tokenizer_agrees_with_the_models_vocabulary():
    """Subword tokens start with ##; every token's id is its line in vocab.txt."""
    vocabulary = (minilm.model_dir() / "vocab.txt").read_text(encoding="utf-8").splitlines()
    tokens, ids = minilm.tokenize("Tokenization isn't unbelievable")
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    assert any(t.startswith("##") for t in tokens)
    assert [vocabulary[i] for i in ids] == tokens


@pytest.mark.parametrize("sentence, error, message", [
    ("", ValueError, "sentence is empty"),
    ("   ", ValueError, "sentence is empty"),
    ("word " * 600, ValueError, "602 tokens long with \\[CLS\\] and \\[SEP\\]; the model has 512 positions"),
    (["The", "cat"], TypeError, "sentence must be a string, got list"),
    (None, TypeError, "sentence must be a string, got NoneType"),
])
def test_bad_input_is_refused_with_a_plain_message(sentence, error, message):
    with pytest.raises(error, match=message):
        minilm.attention_weights(sentence)


def test_the_longest_sentence_the_model_takes_runs():
    tokens, weights = minilm.attention_weights("word " * 510)
    assert len(tokens) == 512 and weights.shape == (6, 12, 512, 512)


def test_removing_a_head_is_zeroing_its_rows_of_w_o(monkeypatch):
    """run(removed=...) takes out exactly what the head added: the same as a W_O without its rows."""
    sentence, (layer, head) = "The black cat drank the milk", (2, 0)
    removed = minilm.run(sentence, removed=[(layer, head)])
    original = minilm.attention_parameters

    def without_the_head(l):
        matrices, biases = original(l)
        if l == layer:
            w_o = matrices[3].copy()
            w_o[head * minilm.D_HEAD:(head + 1) * minilm.D_HEAD] = 0.0
            matrices = (*matrices[:3], w_o)
        return matrices, biases

    monkeypatch.setattr(minilm, "attention_parameters", without_the_head)
    monkeypatch.setattr(minilm, "RUNS", fresh_runs())
    by_hand = minilm.run(sentence)
    np.testing.assert_allclose(removed[3], by_hand[3], atol=1e-9)  # the last layer's rows
    monkeypatch.undo()
    intact = minilm.run(sentence)
    np.testing.assert_array_equal(removed[1][: layer + 1], intact[1][: layer + 1])  # nothing before it moves
    assert not np.allclose(removed[3], intact[3])


def test_a_head_replaced_by_its_mean_adds_its_mean_through_w_o():
    sentence, (layer, head) = "The black cat drank the milk", (0, 2)
    mean = minilm.mean_head_outputs(["She opened the door", "A dog chased the ball"])  # (6, 12, 32)
    assert mean.shape == (minilm.N_LAYERS, minilm.N_HEADS, minilm.D_HEAD)
    zeroed = minilm.run(sentence, removed=[(layer, head)])
    replaced = minilm.run(sentence, removed=[(layer, head)], replacement=mean)
    assert not np.allclose(zeroed[3], replaced[3])
    np.testing.assert_array_equal(zeroed[2][layer], replaced[2][layer])  # its layer's weights are its own


@pytest.mark.parametrize("removed, replacement, message", [
    ([(6, 0)], None, "no head"), ([(0, 12)], None, "no head"), ([(-1, 0)], None, r"no head \(-1, 0\)"),
    ([(0, 1)], np.zeros((6, 12, 31)), "replacement must be"),
])
def test_a_head_that_does_not_exist_is_refused(removed, replacement, message):
    with pytest.raises(ValueError, match=message):
        minilm.run("The cat sat.", removed=removed, replacement=replacement)


def test_the_shared_weights_cannot_be_changed_by_a_caller():
    w = minilm.weights()["encoder.layer.0.attention.self.query.weight"]
    with pytest.raises(ValueError, match="read-only"):
        w *= 2
    found = minilm.run("The cat sat.")
    with pytest.raises(ValueError, match="read-only"):
        found.weights[0, 0, 0, 0] = 1.0


def test_the_docstring_examples_run():
    import doctest
    assert doctest.testmod(minilm).failed == 0 and doctest.testmod(minilm).attempted > 0

"""snippets/smollm.py runs the real SmolLM2-135M-Instruct, with the site's own attention code.

The proof that it is the model: after "The capital of France is" it gives " Paris"
the probability the model gives it (0.77), and after the site's repeated sentence it
copies " milk". The file is trusted by its hash, not by the package that shipped it.
"""

import subprocess
import sys

import numpy as np
import pytest

import attention
import position_encoding
import smollm
from conftest import SNIPPETS

PARIS = "The capital of France is"
REPEATED = "The black cat drank the milk. The black cat drank the"


def test_paris_comes_first_with_the_models_probability():
    [(token, p), (second, _)] = smollm.next_tokens(PARIS, 2)
    assert token == " Paris" and abs(p - 0.77) < 0.01
    assert second == " the"


def test_the_repeated_sentence_brings_back_milk():
    [(token, p)] = smollm.next_tokens(REPEATED, 1)
    assert token == " milk" and abs(p - 0.25) < 0.01
    assert " milk" not in dict(smollm.next_tokens("The black cat drank the", 5))  # it came from the context


def test_a_changed_model_would_not_give_them(monkeypatch):
    """The Paris test can fail: one layer's W_Q turned a little, and the probability moves."""
    tensors = dict(smollm.tensors())
    tensors["blk.20.attn_q.weight"] = tensors["blk.20.attn_q.weight"] * np.float32(1.5)
    monkeypatch.setattr(smollm, "tensors", lambda: tensors)
    monkeypatch.setattr(smollm, "_results", {})
    [(_, p)] = smollm.next_tokens(PARIS, 1)
    assert abs(p - 0.77) > 0.01


def test_the_file_is_the_one_the_site_was_written_for():
    assert smollm.file_sha256(smollm.model_path()) == smollm.GGUF_SHA256
    assert smollm.model_path().stat().st_size == 98_362_432


def test_a_file_with_one_byte_changed_is_refused(tmp_path):
    original = smollm.model_path().read_bytes()
    planted = tmp_path / smollm.FILE_NAME
    planted.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))  # a weight's last byte flipped
    with pytest.raises(ValueError, match="is not SmolLM2-135M-Instruct.Q4_1.gguf: its SHA-256 is"):
        smollm.load_model(planted)


def test_the_file_holds_the_architecture_the_code_assumes():
    from gguf import GGUFReader
    fields = GGUFReader(smollm.model_path()).fields
    value = lambda name: fields[name].contents()  # noqa: E731
    assert value("general.architecture") == "llama"
    assert (value("llama.block_count"), value("llama.attention.head_count"), value("llama.attention.head_count_kv"),
            value("llama.embedding_length"), value("llama.feed_forward_length"), value("llama.rope.dimension_count"),
            value("llama.vocab_size")) == (smollm.N_LAYERS, smollm.N_HEADS, smollm.N_KV_HEADS, smollm.D_MODEL,
                                           1536, smollm.D_HEAD, smollm.VOCABULARY)
    assert value("llama.rope.freq_base") == smollm.ROPE_BASE
    assert abs(value("llama.attention.layer_norm_rms_epsilon") - smollm.RMS_NORM_EPS) < 1e-9
    assert value("tokenizer.ggml.pre") == "smollm" and value("tokenizer.ggml.add_bos_token") is False
    assert "output.weight" not in {t.name for t in GGUFReader(smollm.model_path()).tensors}  # tied to the embedding


# ---- The tokenizer, rebuilt from the file's vocabulary and merges ----

@pytest.mark.parametrize("text", [
    "The capital of France is",
    "In 2024, 1,234.5 people paid $99!",
    "CAPITALS and MixedCase: McDonald's, iPhone.",
    "Naïve café, Straße, señor, 東京, Москва",
    "x = f(a[0]) + 3  # code\n\ttab",
])
def test_the_tokenizer_gives_back_every_text(text):
    tokens, ids = smollm.tokenize(text)
    assert smollm.tokenizer().decode(list(ids)) == text
    assert all(0 <= i < smollm.VOCABULARY for i in ids)


def test_the_tokenizer_splits_as_the_model_was_trained():
    assert smollm.tokenize(PARIS)[0] == ["The", " capital", " of", " France", " is"]
    assert smollm.tokenize("In 2024 it")[0] == ["In", " ", "2", "0", "2", "4", " it"]  # digits one by one
    assert smollm.tokenize("Hello, World!")[0] == ["Hello", ",", " World", "!"]  # a space goes with its word
    assert smollm.tokenize(" Paris")[0] == [" Paris"] and smollm.token_text(smollm.tokenize(" Paris")[1][0]) == " Paris"
    assert len(smollm.tokenize("Straße")[0]) >= 2  # no whole-word token: the bytes' merges


def test_the_vocabulary_is_the_files():
    _, vocabulary, merges, special = smollm.model()
    assert len(vocabulary) == smollm.VOCABULARY and len(merges) == 48_900
    assert vocabulary[:3] == ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    assert special == vocabulary[:17]  # <|endoftext|> ... <empty_output>
    assert smollm.tokenize("<|im_start|>user")[1].tolist()[0] == 1  # the chat format's own token, whole


@pytest.mark.parametrize("bad, error, message", [
    ("", ValueError, "text is empty"),
    (" ".join(["word"] * 80), ValueError, "tokens long; the site runs at most 64"),
    (b"bytes", TypeError, "text must be a string"),
    (None, TypeError, "text must be a string"),
])
def test_bad_input_is_refused_clearly(bad, error, message):
    with pytest.raises(error, match=message):
        smollm.attention_weights(bad)
    with pytest.raises(error, match=message):
        smollm.next_tokens(bad)


def test_a_batch_of_texts_of_different_lengths_is_refused():
    with pytest.raises(ValueError, match="same number of tokens"):
        smollm.run_batch(["The cat", "The black cat sat"])
    with pytest.raises(ValueError, match=r"replacement must have shape \(n_layers, n_heads, d_head\)"):
        smollm.run(PARIS, [(0, 0)], replacement=np.zeros((9, 64)))


# ---- The forward pass is the site's attention ----

def test_every_layer_uses_the_sites_attention_with_the_look_ahead_mask(monkeypatch):
    calls = []

    def recording(q, k, v, mask=None, bias=None):
        calls.append((q.shape, k.shape, mask))
        return attention.scaled_dot_product_attention(q, k, v, mask, bias)

    monkeypatch.setattr(smollm, "scaled_dot_product_attention", recording)
    monkeypatch.setattr(smollm, "_results", {})
    smollm.attention_weights(PARIS)
    assert len(calls) == smollm.N_LAYERS
    for q_shape, k_shape, mask in calls:
        assert q_shape == k_shape == (1, 9, 5, 64)  # nine query heads, each with its shared key head
        assert np.array_equal(mask, attention.look_ahead_mask(5))


def test_rope_is_the_sites_rotation(monkeypatch):
    calls = []

    def recording(x, base=10000.0):
        calls.append(base)
        return position_encoding.rotary_position_embedding(x, base)

    monkeypatch.setattr(smollm, "rotary_position_embedding", recording)
    monkeypatch.setattr(smollm, "_results", {})
    smollm.attention_weights(PARIS)
    assert calls == [smollm.ROPE_BASE] * (2 * smollm.N_LAYERS)  # queries and keys of every layer


def test_every_head_gives_nothing_to_later_tokens():
    _, weights = smollm.attention_weights(REPEATED)  # (30, 9, 12, 12)
    assert weights.shape == (30, 9, 12, 12)
    assert np.all(np.triu(weights, k=1) == 0)
    assert np.allclose(weights.sum(axis=-1), 1)


def test_three_query_heads_share_each_key_value_head():
    shared = smollm.repeat_kv(np.arange(3.0).reshape(3, 1, 1))[:, 0, 0]
    assert shared.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]  # query head h reads key/value head h // 3


def test_a_batch_gives_what_each_text_gives_alone(monkeypatch):
    texts = ["The cat sat.", "A dog ran!"]  # four tokens each
    together = smollm.run_batch(texts)
    monkeypatch.setattr(smollm, "_results", {})
    for text, batched in zip(texts, together):
        alone = smollm.run(text)
        for a, b in zip(alone[1:], batched[1:]):
            assert np.allclose(a, b, atol=1e-4)


def test_a_removed_head_changes_only_what_comes_after_it():
    _, inputs, weights, logits = smollm.run(REPEATED)
    _, inputs_zero, weights_zero, logits_zero = smollm.run(REPEATED, [(18, 6)])
    instead = np.zeros((smollm.N_LAYERS, smollm.N_HEADS, smollm.D_HEAD))
    instead[18, 6] = np.random.default_rng(0).normal(size=smollm.D_HEAD)
    _, _, _, logits_other = smollm.run(REPEATED, [(18, 6)], replacement=instead)
    assert np.array_equal(inputs[:19], inputs_zero[:19])  # layers up to 18 see the same rows
    assert np.array_equal(weights[18], weights_zero[18])  # and the head still attends as before
    assert not np.allclose(inputs[19], inputs_zero[19])
    assert not np.allclose(logits_zero, logits_other)  # the replacement is what the head adds


def test_a_head_replaced_by_a_constant_tells_no_position_about_later_tokens():
    """Replaced by a vector that does not depend on the text, a head keeps the mask's promise."""
    instead = np.random.default_rng(1).normal(size=(smollm.N_LAYERS, smollm.N_HEADS, smollm.D_HEAD))
    _, short, _, _ = smollm.run("The black cat", [(17, 4), (18, 6)], replacement=instead)
    _, long, _, _ = smollm.run("The black cat drank the milk", [(17, 4), (18, 6)], replacement=instead)
    assert np.allclose(long[:, :3], short, atol=1e-3 * np.abs(short).max())


def test_generating_appends_the_most_likely_token_each_time():
    words = smollm.generate(PARIS, 3)
    assert words[0] == " Paris"
    assert smollm.next_tokens(PARIS + "".join(words[:2]), 1)[0][0] == words[2]


def test_the_weights_are_read_once_per_process():
    code = ("import gguf.quants as q, smollm\n"
            "calls = []\n"
            "original = q.dequantize\n"
            "q.dequantize = lambda *a: calls.append(1) or original(*a)\n"
            "smollm.next_tokens('The cat', 2); smollm.attention_weights('The dog'); smollm.generate('A', 2)\n"
            "print(len(calls))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=SNIPPETS, capture_output=True, text=True, check=True)
    assert int(result.stdout) == 272  # every tensor of the file, once

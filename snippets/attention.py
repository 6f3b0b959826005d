"""Scaled dot-product attention in NumPy.

The reference implementation used on every page of this site. It depends on
NumPy only: copy this file into your project and import it.

    output, weights = scaled_dot_product_attention(q, k, v, mask=None, score_bias=None)
    output, weights = multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, n_heads, mask=None)
    output, weights = multi_head_attention(..., biases=(b_q, b_k, b_v, b_o))  # projection biases, as in BERT
    mask = look_ahead_mask(n)   # a decoder's: each word sees itself and the words before it

Shapes follow the usual convention: queries on rows, keys on columns.

    q        (..., n_q, d_k)   one row per query word
    k        (..., n_k, d_k)   one row per key word
    v        (..., n_k, d_v)   one row per value word (the same words as k)
    mask     broadcastable to (..., n_q, n_k), True = "may attend"
    score_bias  broadcastable to (..., n_q, n_k), added to the scaled scores (e.g. T5's position bias)
    weights  (..., n_q, n_k)   each row sums to 1
    output   (..., n_q, d_v)   one row per query word

multi_head_attention projects the rows (x @ w), splits the projections into
n_heads column slices of width d_head = d_model / n_heads, runs
scaled_dot_product_attention on each (weights (..., n_heads, n_q, n_k)),
puts the heads' outputs side by side again and multiplies them by w_o.

What a Transformer layer does with that output (post-norm, as in the original):

    x = add_and_norm(x, sublayer_out)   # layer_norm(x + sublayer_out): added, then normalised

Two kinds of bias, two names: `score_bias` is added to the scores (one number
per query-key pair); `biases` are the vectors a linear layer adds to its
output (x @ w + b), which BERT's projections have. layer_norm's learned
parameters are `scale` and `shift`.
"""

import numpy as np

__all__ = ["softmax", "scaled_dot_product_attention", "look_ahead_mask", "multi_head_attention",
           "split_heads", "merge_heads", "layer_norm", "add_and_norm"]


def softmax(x, axis=-1):
    """Softmax along one axis, computed without overflow.

    Parameters
    ----------
    x : array_like
        Real values, for example attention scores.
    axis : int, optional
        The axis along which the result sums to 1. Default: the last one.

    Returns
    -------
    ndarray
        An array of the same shape as `x`, with values in [0, 1] that sum to 1
        along `axis`.

    Notes
    -----
    Subtracting the maximum first leaves the result unchanged (softmax ignores
    a constant added along `axis`) and keeps ``exp`` from overflowing, so
    inputs of magnitude 1e4 are fine.

    Examples
    --------
    >>> softmax([1.0, 2.0, 3.0]).round(3)
    array([0.09 , 0.245, 0.665])
    """
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(q, k, v, mask=None, score_bias=None):
    """Attention of every query row over the key rows: softmax(q kᵀ / √d_k (+ score_bias)) v.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k)
        Queries, one row per word that attention is computed *for*.
    k : array_like, shape (..., n_k, d_k)
        Keys, one row per word that is attended *to*.
    v : array_like, shape (..., n_k, d_v)
        Values, one row per key word.
    mask : array_like of bool, optional
        Broadcastable to (..., n_q, n_k). True means "query i may attend to
        key j"; False gives that pair a weight of exactly 0. A query whose
        keys are all masked attends to nothing: its row of `weights` and its
        row of `output` are zeros (never NaN).
    score_bias : array_like, optional
        Broadcastable to (..., n_q, n_k); added to the scaled scores before
        softmax, for example a learned number per distance from query to key
        (a relative position bias, as in T5). None adds nothing.

    Returns
    -------
    output : ndarray, shape (..., n_q, d_v)
        For each query, the sum of the value rows weighted by its row of
        `weights`.
    weights : ndarray, shape (..., n_q, n_k)
        softmax(q kᵀ / √d_k) over the keys; each row sums to 1 (or is all
        zeros when every key of that query is masked).

    Raises
    ------
    ValueError
        If the shapes do not fit together, the mask is not boolean or does
        not broadcast, the score bias does not broadcast, or an input holds NaN or
        infinity.

    Examples
    --------
    >>> q = np.array([[1.0, 0.0]])                  # (n_q=1, d_k=2)
    >>> k = np.array([[1.0, 0.0], [0.0, 1.0]])      # (n_k=2, d_k=2)
    >>> v = np.array([[10.0], [20.0]])              # (n_k=2, d_v=1)
    >>> output, weights = scaled_dot_product_attention(q, k, v)
    >>> weights.round(3)
    array([[0.67, 0.33]])
    >>> output.round(2)
    array([[13.3]])
    """
    q, k, v = _as_float_arrays(q=q, k=k, v=v)
    _check_shapes(q, k, v)
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)  # (..., n_q, n_k)
    if score_bias is not None:
        scores = scores + _as_score_bias(score_bias, scores.shape)  # (..., n_q, n_k)
    if mask is None:
        weights = softmax(scores, axis=-1)  # (..., n_q, n_k)
    else:
        mask = _as_mask(mask, scores.shape)  # (..., n_q, n_k)
        weights = _masked_softmax(scores, mask)  # (..., n_q, n_k)
    output = weights @ v  # (..., n_q, d_v)
    return output, weights


def look_ahead_mask(n):
    """The decoder's mask: query i may attend to keys 0 ... i, itself and the words before it.  (n, n)

    True on and below the diagonal, False above it (the keys that come later).

    Raises
    ------
    ValueError
        If `n` is not a positive integer.

    Examples
    --------
    >>> look_ahead_mask(3).astype(int)
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]])
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer (the number of words), got {n!r}")
    return np.tril(np.ones((n, n), dtype=bool))


def split_heads(x, n_heads):
    """Split the last axis into heads: (..., n, d_model) -> (..., n_heads, n, d_head).

    Head h takes columns h·d_head ... (h+1)·d_head − 1, where d_head = d_model / n_heads.

    Examples
    --------
    >>> split_heads(np.arange(4.0).reshape(1, 4), 2)  # one word, d_model = 4, two heads
    array([[[0., 1.]],
    <BLANKLINE>
           [[2., 3.]]])
    """
    *batch, n, d_model = np.shape(x)
    _check_n_heads(d_model, n_heads)
    x = np.reshape(x, (*batch, n, n_heads, d_model // n_heads))  # (..., n, n_heads, d_head)
    return np.swapaxes(x, -2, -3)  # (..., n_heads, n, d_head)


def merge_heads(x):
    """Put the heads side by side again: (..., n_heads, n, d_head) -> (..., n, n_heads·d_head).

    The inverse of `split_heads`: head h fills columns h·d_head ... (h+1)·d_head − 1.

    Examples
    --------
    >>> merge_heads(split_heads(np.arange(4.0).reshape(1, 4), 2))
    array([[0., 1., 2., 3.]])
    """
    x = np.swapaxes(x, -2, -3)  # (..., n, n_heads, d_head)
    return np.reshape(x, (*x.shape[:-2], -1))  # (..., n, n_heads·d_head)


def multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, n_heads, mask=None, biases=None, score_bias=None):
    """Several heads of scaled dot-product attention side by side, then one projection W_O.

    Each head attends with its own slice of the projections: head h uses
    columns h·d_head ... (h+1)·d_head − 1 of ``x_q @ w_q``, ``x_kv @ w_k`` and
    ``x_kv @ w_v``, with d_head = d_model / n_heads. The heads' outputs are
    concatenated in that order and multiplied by `w_o`.

    Parameters
    ----------
    x_q : array_like, shape (..., n_q, d_model)
        The rows the queries come from (for self-attention, the same as `x_kv`).
    x_kv : array_like, shape (..., n_k, d_model)
        The rows the keys and values come from.
    w_q, w_k, w_v, w_o : array_like, shape (d_model, d_model)
        Projections, applied as ``x @ w`` (rows are words).
    n_heads : int
        How many heads; must divide d_model.
    mask : array_like of bool, optional
        As in `scaled_dot_product_attention`, broadcastable to
        (..., n_heads, n_q, n_k); True means "may attend". A mask of shape
        (n_q, n_k) applies to every head; with a batch, give the heads' axis
        as 1: (batch, 1, n_q, n_k).
    biases : sequence of four array_like of shape (d_model,), optional
        (b_q, b_k, b_v, b_o), the vectors the projections add: ``x @ w_q + b_q``
        and so on (BERT's projections have them). None adds nothing.
    score_bias : array_like, optional
        As in `scaled_dot_product_attention`, broadcastable to
        (..., n_heads, n_q, n_k): one number per head and pair, added to the
        scaled scores (T5's relative position bias has shape (n_heads, n_q, n_k)).

    Returns
    -------
    output : ndarray, shape (..., n_q, d_model)
        ``concat(head_0, ..., head_{n_heads-1}) @ w_o`` (``+ b_o`` with biases).
    weights : ndarray, shape (..., n_heads, n_q, n_k)
        Each head's attention weights.

    Raises
    ------
    ValueError
        If n_heads does not divide d_model, the shapes do not fit, or an input
        holds NaN or infinity (and for a bad mask, as `scaled_dot_product_attention`).

    Notes
    -----
    PyTorch's ``torch.nn.MultiheadAttention(d_model, n_heads, bias=False)``
    (with ``biases``, ``torch.nn.MultiheadAttention(d_model, n_heads)``)
    computes the same thing from weights stored transposed (it applies
    ``x @ W.T``): ``w_q, w_k, w_v = (W.T for W in in_proj_weight.chunk(3))``
    and ``w_o = out_proj.weight.T``. Its boolean ``attn_mask`` marks the pairs
    that may *not* attend, so ``mask = ~attn_mask``; its inputs are
    (n, batch, d_model) unless ``batch_first=True``; and it returns the
    weights averaged over heads unless ``average_attn_weights=False``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.standard_normal((3, 4))                       # (n=3, d_model=4)
    >>> w_q, w_k, w_v, w_o = rng.standard_normal((4, 4, 4))   # each (4, 4)
    >>> output, weights = multi_head_attention(x, x, w_q, w_k, w_v, w_o, n_heads=2)
    >>> output.shape, weights.shape
    ((3, 4), (2, 3, 3))
    >>> weights.sum(axis=-1)                                  # every head's rows sum to 1
    array([[1., 1., 1.],
           [1., 1., 1.]])
    """
    x_q, x_kv = _as_float_arrays(x_q=x_q, x_kv=x_kv)
    w_q, w_k, w_v, w_o = _as_weight_matrices(x_q.shape[-1], w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o)
    b_q, b_k, b_v, b_o = _as_bias_vectors(x_q.shape[-1], biases)  # each (d_model,)
    _check_heads(x_q, x_kv, n_heads)
    q = split_heads(x_q @ w_q + b_q, n_heads)  # (..., n_heads, n_q, d_head)
    k = split_heads(x_kv @ w_k + b_k, n_heads)  # (..., n_heads, n_k, d_head)
    v = split_heads(x_kv @ w_v + b_v, n_heads)  # (..., n_heads, n_k, d_head)
    heads, weights = scaled_dot_product_attention(q, k, v, mask, score_bias)  # (..., n_heads, n_q, d_head)
    return merge_heads(heads) @ w_o + b_o, weights  # (..., n_q, d_model), (..., n_heads, n_q, n_k)


def layer_norm(x, scale=None, shift=None, eps=1e-5):
    """Each row shifted to mean 0 and scaled to variance 1 across its own columns, then each column scaled and shifted.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
        One row per word.
    scale, shift : array_like, shape (d_model,), optional
        The learned parameters of a trained layer normalisation: column c of
        the normalised rows is multiplied by ``scale[c]`` and ``shift[c]`` is
        added (``torch.nn.LayerNorm``'s weight and bias). None leaves them
        out, as this site's toy does: scale 1, shift 0.
    eps : float, optional
        Added to the variance before the square root, so a row whose entries
        are all equal gives zeros, not a division by zero. 1e-5 is PyTorch's
        default for ``torch.nn.LayerNorm``; BERT uses 1e-12.

    Returns
    -------
    ndarray, shape (..., n, d_model)
        ``(x - mean) / sqrt(variance + eps) * scale + shift``, the mean and
        variance taken over the last axis of each row.

    Raises
    ------
    ValueError
        If `x` has fewer than 2 dimensions, no columns, or holds NaN or
        infinity, if `scale` or `shift` is not one number per column, or if
        `eps` is not positive.

    Notes
    -----
    Without `scale` and `shift` the order of a row's entries is kept (one
    number is subtracted from all, all are divided by one positive number);
    a learned scale and shift, one per column, can change it.

    Examples
    --------
    >>> layer_norm([[1.0, 2.0, 3.0]]).round(3)
    array([[-1.225,  0.   ,  1.225]])
    """
    (x,) = _as_float_arrays(x=x)
    if x.shape[-1] == 0:
        raise ValueError(f"x must have at least one column, got shape {x.shape}")
    if not eps > 0:
        raise ValueError(f"eps must be positive, got {eps!r}")
    for name, parameter in (("scale", scale), ("shift", shift)):
        if parameter is not None and np.shape(parameter) != x.shape[-1:]:
            raise ValueError(f"{name} must hold one number per column, shape {x.shape[-1:]}, "
                             f"got {np.shape(parameter)}")
    mean = x.mean(axis=-1, keepdims=True)  # (..., n, 1)
    variance = x.var(axis=-1, keepdims=True)  # (..., n, 1)
    normalised = (x - mean) / np.sqrt(variance + eps)  # (..., n, d_model)
    if scale is not None:
        normalised = normalised * scale  # (..., n, d_model)
    if shift is not None:
        normalised = normalised + shift  # (..., n, d_model)
    return normalised


def add_and_norm(x, sublayer_out, eps=1e-5):
    """The residual connection and layer normalisation around a sub-layer: LayerNorm(x + sublayer_out).

    A sub-layer (attention, or the feed-forward network) does not replace a
    word's row: its output is added to the row it was computed from, and the
    sum is normalised. This is the original Transformer's order (post-norm,
    Vaswani et al. 2017, section 3.1).

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
        The rows that went into the sub-layer.
    sublayer_out : array_like, shape (..., n, d_model)
        What the sub-layer computed from them, one row per row of `x`; for
        attention, its output after W_O.
    eps : float, optional
        As in `layer_norm`.

    Returns
    -------
    ndarray, shape (..., n, d_model)
        ``layer_norm(x + sublayer_out, eps=eps)``.

    Raises
    ------
    ValueError
        If the two shapes differ (a residual adds row to row, so nothing is
        broadcast), or as `layer_norm`.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0]])
    >>> add_and_norm(x, np.array([[0.0, 3.0]])).round(3)   # the sum (1, 3), normalised
    array([[-1.,  1.]])
    """
    x, sublayer_out = _as_float_arrays(x=x, sublayer_out=sublayer_out)
    if x.shape != sublayer_out.shape:
        raise ValueError(
            f"x and sublayer_out must have the same shape (one output row per input row), "
            f"got x {x.shape} and sublayer_out {sublayer_out.shape}"
        )
    return layer_norm(x + sublayer_out, eps=eps)  # (..., n, d_model)


def _masked_softmax(scores, mask):
    """Softmax over the last axis using only the entries where `mask` is True."""
    allowed = np.where(mask, scores, -np.inf)
    row_max = np.max(allowed, axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)  # rows with no allowed key
    e = np.where(mask, np.exp(allowed - row_max), 0.0)
    total = np.sum(e, axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def _as_float_arrays(**arrays):
    out = []
    for name, a in arrays.items():
        a = np.asarray(a, dtype=float)
        if a.ndim < 2:
            raise ValueError(
                f"{name} must have at least 2 dimensions (one row per word), "
                f"got shape {a.shape}"
            )
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or infinity")
        out.append(a)
    return out


def _check_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q and k must have the same last dimension d_k, "
            f"got q {q.shape} and k {k.shape}"
        )
    if q.shape[-1] == 0:
        raise ValueError(f"d_k must be at least 1, got q {q.shape}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of rows n_k (one per key word), "
            f"got k {k.shape} and v {v.shape}"
        )
    if k.shape[-2] == 0:
        raise ValueError(f"k must have at least one row, got k {k.shape}")
    try:
        np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the leading (batch) dimensions of q, k and v do not broadcast: "
            f"q {q.shape}, k {k.shape}, v {v.shape}"
        ) from None


def _as_mask(mask, scores_shape):
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise ValueError(
            f"mask must be a boolean array (True = may attend), got dtype {mask.dtype}"
        )
    try:
        return np.broadcast_to(mask, scores_shape)
    except ValueError:
        raise ValueError(
            f"mask of shape {mask.shape} does not broadcast to the score shape "
            f"(..., n_q, n_k) = {scores_shape}"
        ) from None


def _as_score_bias(bias, scores_shape):
    bias = np.asarray(bias, dtype=float)
    if not np.all(np.isfinite(bias)):
        raise ValueError("score_bias contains NaN or infinity (use mask to forbid a pair)")
    try:
        return np.broadcast_to(bias, scores_shape)
    except ValueError:
        raise ValueError(
            f"score_bias of shape {bias.shape} does not broadcast to the score shape "
            f"(..., n_q, n_k) = {scores_shape}"
        ) from None


def _as_weight_matrices(d_model, **matrices):
    out = []
    for name, w in matrices.items():
        w = np.asarray(w, dtype=float)
        if w.shape != (d_model, d_model):
            raise ValueError(
                f"{name} must have shape (d_model, d_model) = ({d_model}, {d_model}), "
                f"got {w.shape}"
            )
        if not np.all(np.isfinite(w)):
            raise ValueError(f"{name} contains NaN or infinity")
        out.append(w)
    return out


def _as_bias_vectors(d_model, biases):
    if biases is None:
        return np.zeros((4, d_model))
    if len(biases) != 4:
        raise ValueError(f"biases must be four vectors (b_q, b_k, b_v, b_o), got {len(biases)}")
    out = []
    for name, b in zip(("b_q", "b_k", "b_v", "b_o"), biases):
        b = np.asarray(b, dtype=float)
        if b.shape != (d_model,):
            raise ValueError(f"{name} must have shape (d_model,) = ({d_model},), got {b.shape}")
        if not np.all(np.isfinite(b)):
            raise ValueError(f"{name} contains NaN or infinity")
        out.append(b)
    return out


def _check_heads(x_q, x_kv, n_heads):
    if x_kv.shape[-1] != x_q.shape[-1]:
        raise ValueError(
            f"x_q and x_kv must have the same last dimension d_model, "
            f"got x_q {x_q.shape} and x_kv {x_kv.shape}"
        )
    _check_n_heads(x_q.shape[-1], n_heads)


def _check_n_heads(d_model, n_heads):
    if isinstance(n_heads, bool) or not isinstance(n_heads, (int, np.integer)) or n_heads < 1:
        raise ValueError(f"n_heads must be a positive integer, got {n_heads!r}")
    if d_model % n_heads:
        raise ValueError(
            f"d_model = {d_model} is not divisible by n_heads = {n_heads}: "
            f"every head needs the same width d_model / n_heads"
        )

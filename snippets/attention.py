"""Scaled dot-product attention in NumPy.

The reference implementation used on every page of this site. It depends on
NumPy only: copy this file into your project and import it.

    output, weights = scaled_dot_product_attention(q, k, v, mask=None)

Shapes follow the usual convention: queries on rows, keys on columns.

    q        (..., n_q, d_k)   one row per query word
    k        (..., n_k, d_k)   one row per key word
    v        (..., n_k, d_v)   one row per value word (the same words as k)
    mask     broadcastable to (..., n_q, n_k), True = "may attend"
    weights  (..., n_q, n_k)   each row sums to 1
    output   (..., n_q, d_v)   one row per query word
"""

import numpy as np

__all__ = ["softmax", "scaled_dot_product_attention"]


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


def scaled_dot_product_attention(q, k, v, mask=None):
    """Attention of every query row over the key rows: softmax(q kᵀ / √d_k) v.

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
        not broadcast, or an input holds NaN or infinity.

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
    if mask is None:
        weights = softmax(scores, axis=-1)  # (..., n_q, n_k)
    else:
        mask = _as_mask(mask, scores.shape)  # (..., n_q, n_k)
        weights = _masked_softmax(scores, mask)  # (..., n_q, n_k)
    output = weights @ v  # (..., n_q, d_v)
    return output, weights


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

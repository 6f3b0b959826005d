"""The sinusoidal position encoding of the original Transformer, in NumPy.

Vaswani et al. (2017), section 3.5: position ``pos`` gets, in columns 2i and
2i + 1,

    PE(pos, 2i)     = sin(pos * omega_i)
    PE(pos, 2i + 1) = cos(pos * omega_i),    omega_i = 1 / base ** (2i / d_model)

with base = 10000, so the wavelengths run from 2*pi (i = 0) up to almost
10000 * 2*pi. The running example's two position columns are the pair i = 0.

    pe = sinusoidal_position_encoding(n_positions, d_model)   # (n_positions, d_model)

Rotary position embedding (RoPE; Su et al. 2021), used by Llama and most
recent decoders, puts position into attention another way: nothing is added
to a word's row; instead each query and key is turned, pair of columns by
pair of columns, by the angle pos * omega_i, the angle of the sines above.

    q = rotary_position_embedding(q)   # (..., n, d_k): row pos turned by pos * omega_i

Which columns form a pair is a matter of how the weights are stored: columns 2i and
2i + 1 (``pairs="adjacent"``, the default: GGUF files, Meta's Llama code) or i and
i + d/2 (``pairs="halves"``: Hugging Face's checkpoints). Applied to the other layout,
RoPE gives plausible, wrong scores, so name the one your weights use.
"""

import numpy as np


def frequencies(d_model, base=10000.0):
    """The angular frequency omega_i of each sine/cosine pair.  (d_model // 2,)

    Parameters
    ----------
    d_model : int
        Width of a row; must be even, since the columns come in pairs.
    base : float, optional
        10000 in the original Transformer.

    Examples
    --------
    >>> frequencies(8)
    array([1.   , 0.1  , 0.01 , 0.001])
    """
    if not isinstance(d_model, (int, np.integer)) or d_model < 2 or d_model % 2:
        raise ValueError(f"d_model must be an even integer >= 2 (sine and cosine come in pairs), got {d_model!r}")
    i = np.arange(d_model // 2)  # (d_model / 2,)
    return base ** (-2 * i / d_model)


def sinusoidal_position_encoding(n_positions, d_model, base=10000.0):
    """Position encoding of positions 0 .. n_positions - 1, sine in even columns, cosine in odd.

    Parameters
    ----------
    n_positions : int
        How many positions (words) to encode, at least 1.
    d_model : int
        Width of each row, even.
    base : float, optional
        10000 in the original Transformer.

    Returns
    -------
    ndarray, shape (n_positions, d_model)

    Examples
    --------
    >>> sinusoidal_position_encoding(2, 4).round(2)
    array([[0.  , 1.  , 0.  , 1.  ],
           [0.84, 0.54, 0.01, 1.  ]])
    """
    if not isinstance(n_positions, (int, np.integer)) or n_positions < 1:
        raise ValueError(f"n_positions must be a positive integer, got {n_positions!r}")
    angles = np.arange(n_positions)[:, None] * frequencies(d_model, base)  # (n, d_model / 2)
    pe = np.empty((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def shift_matrix(offset, d_model, base=10000.0):
    """The fixed linear map that takes PE(pos) to PE(pos + offset), for every pos.  (d_model, d_model)

    Each sine/cosine pair is a point on a circle; moving ``offset`` places on
    rotates it by offset * omega_i, whatever pos is. Use it on rows:
    ``pe[pos] @ shift_matrix(k, d_model)`` equals ``pe[pos + k]``.
    """
    m = np.zeros((d_model, d_model))
    for i, omega in enumerate(frequencies(d_model, base)):
        c, s = np.cos(offset * omega), np.sin(offset * omega)
        # row vector (sin a, cos a) @ [[c, -s], [s, c]] = (sin(a + b), cos(a + b)), b = offset * omega
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, -s], [s, c]]
    return m


def rotary_position_embedding(x, base=10000.0, positions=None, pairs="adjacent"):
    """Rotary position embedding: row `pos` of `x` turned, pair by pair, by the angles pos * omega_i.

    Each pair of columns forms a point in a plane; in row pos it is turned by
    pos * omega_i, omega_i = 1 / base ** (2i / d) as in `frequencies`. Given
    to queries and keys, it makes their dot product depend on how far apart
    the two positions are, never on where they are: turning the query by a
    and the key by b leaves the score of turning the key alone by b − a.

    Which columns pair up depends on how the weights were stored, and a wrong
    choice gives scores that look plausible and are wrong, with no error:

    - ``pairs="adjacent"``: columns 2i and 2i + 1 (Su et al. 2021; Meta's Llama
      code; GGUF files written by llama.cpp, whose converter reorders the rows
      of W_Q and W_K into this layout; ``smollm.py`` reads such a file);
    - ``pairs="halves"``: columns i and i + d/2 (Hugging Face's ``rotate_half``,
      for weights in Hugging Face's safetensors layout).

    Parameters
    ----------
    x : array_like, shape (..., n, d)
        Query or key rows, one per position; d even.
    base : float, optional
        10000 in Su et al. (2021) and Llama 2; SmolLM2 uses 100000.
    positions : array_like of int, shape (n,), optional
        The position of each row; by default 0 ... n − 1. With a KV cache, a new
        token's query and key are turned by their own position, not by 0.
    pairs : {"adjacent", "halves"}, optional
        Which columns form each pair (above).

    Returns
    -------
    ndarray, shape (..., n, d)

    Raises
    ------
    ValueError
        If `x` has fewer than 2 dimensions or an odd width, `positions` is not one
        position per row, or `pairs` is neither "adjacent" nor "halves".

    Examples
    --------
    >>> rotary_position_embedding(np.ones((2, 2))).round(2)   # pair 0 turns 1 radian per position
    array([[ 1.  ,  1.  ],
           [-0.3 ,  1.38]])
    >>> x = np.arange(8.0).reshape(2, 4)
    >>> halves = rotary_position_embedding(x[:, [0, 2, 1, 3]], pairs="halves")  # the same pairs, stored apart
    >>> np.allclose(halves[:, [0, 2, 1, 3]], rotary_position_embedding(x))
    True
    """
    x = np.asarray(x, dtype=float)
    if x.ndim < 2:
        raise ValueError(f"x must have at least 2 dimensions (one row per position), got shape {x.shape}")
    if pairs not in ("adjacent", "halves"):
        raise ValueError(f'pairs must be "adjacent" (columns 2i, 2i + 1: GGUF, Meta\'s Llama) or "halves" '
                         f"(columns i, i + d/2: Hugging Face's rotate_half), got {pairs!r}")
    positions = np.arange(x.shape[-2]) if positions is None else np.asarray(positions)
    if positions.shape != (x.shape[-2],):
        raise ValueError(f"positions must give one position per row, {x.shape[-2]}, got shape {positions.shape}")
    angles = positions[:, None] * frequencies(x.shape[-1], base)  # (n, d / 2)
    cos, sin = np.cos(angles), np.sin(angles)
    half = x.shape[-1] // 2
    first, second = ((slice(0, None, 2), slice(1, None, 2)) if pairs == "adjacent"
                     else (slice(0, half), slice(half, None)))
    a, b = x[..., first], x[..., second]  # the two coordinates of each pair
    turned = np.empty_like(x)
    turned[..., first] = a * cos - b * sin
    turned[..., second] = a * sin + b * cos
    return turned

"""What the site's two trained-model runners share: a file checked by its hash, read-only weights,
one way to remove a head, and one cache of forward passes whose key says what a run depends on.

`minilm.py` (the encoder) and `smollm.py` (the decoder) each load their model with
`checked_file`, hand out weights that no caller can change (`read_only`), take heads
out with `remove_heads`, and remember what they computed in a `RunCache`:

    cache = RunCache("minilm", model_sha256, code=[Path("minilm.py"), Path("attention.py")])
    key = cache.key(token_ids, removed=[(2, 0)], replacement=None)
    cache.get(key)            # None the first time
    cache.put(key, (inputs, weights, output))

A cache lives in memory, up to `max_bytes`. Given a folder (or when the environment
variable WHY_ATTENTION_CACHE names one, as the site's build and tests do), it also
keeps every run there, so that other processes and later builds find it: a run is
paid for once. Nothing is written anywhere unless a folder is given.
"""

import hashlib
import os
from collections import OrderedDict
from pathlib import Path

import numpy as np

CACHE_VARIABLE = "WHY_ATTENTION_CACHE"  # a folder for the runs (and weights) that later processes reuse


def file_sha256(path):
    """The SHA-256 of a file, as hex."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def checked_file(path, sha256, name):
    """`path` as a Path, after checking that its SHA-256 is `sha256` (None: no check).

    Raises
    ------
    ValueError
        If the file's SHA-256 differs: it is not the file `name` names, whatever shipped it.
    """
    path = Path(path)
    if sha256 is not None:
        found = file_sha256(path)
        if found != sha256:
            raise ValueError(f"{path} is not {name}: its SHA-256 is {found}, the file the site was "
                             f"written for has {sha256}")
    return path


def read_only(arrays):
    """The same arrays, marked read-only: weights shared by every caller cannot be changed by one."""
    for array in arrays.values() if isinstance(arrays, dict) else arrays:
        array.flags.writeable = False
    return arrays


def cache_folder(folder=None):
    """The folder given, or (for None) the one WHY_ATTENTION_CACHE names; None for memory only (folder=False)."""
    if folder is False:
        return None
    folder = folder or os.environ.get(CACHE_VARIABLE)
    return Path(folder) if folder else None


def remove_heads(heads, removed, replacement=None):
    """Each head's output before W_O, with the `removed` heads' replaced.

    Parameters
    ----------
    heads : ndarray, shape (..., n_heads, n, d_head)
        What each head computed: its weights times the values.
    removed : array_like of bool, shape (..., n_heads)
        True where a head is removed.
    replacement : array_like, shape (n_heads, d_head), optional
        What a removed head puts out instead, at every position (for example its mean
        output over other texts). None puts out zeros.

    Returns
    -------
    ndarray, shape (..., n_heads, n, d_head)

    Examples
    --------
    >>> heads = np.ones((2, 3, 4))                 # 2 heads, 3 positions, d_head = 4
    >>> remove_heads(heads, [False, True])[:, 0]   # head 1 removed: zeros at every position
    array([[1., 1., 1., 1.],
           [0., 0., 0., 0.]])
    """
    removed = np.asarray(removed, dtype=bool)
    if removed.shape[-1] != heads.shape[-3]:
        raise ValueError(f"removed must say for each of the {heads.shape[-3]} heads whether it is removed, "
                         f"got shape {removed.shape}")
    instead = np.zeros(heads.shape[-3:-2] + heads.shape[-1:]) if replacement is None else np.asarray(replacement)
    return np.where(removed[..., None, None], instead[:, None, :], heads)


def check_heads(removed, n_layers, n_heads):
    """(layer, head) pairs, sorted, as a tuple of int pairs.

    Raises
    ------
    ValueError
        If a pair names no head of the model: layers are 0 ... n_layers − 1, heads 0 ... n_heads − 1
        (no negative indices: (−1, 0) is not "the last layer").
    """
    pairs = []
    for pair in removed:
        layer, head = (int(i) for i in pair)
        if not (0 <= layer < n_layers and 0 <= head < n_heads):
            raise ValueError(f"no head ({layer}, {head}): layers 0-{n_layers - 1}, heads 0-{n_heads - 1}")
        pairs.append((layer, head))
    return tuple(sorted(set(pairs)))


class RunCache:
    """Forward passes already computed, each under a key that says what it depends on.

    The key hashes the model file's SHA-256, the code that computes a run (the files
    given: the runner and the site's modules it calls), the token ids, the removed
    heads and the replacement's bytes. In memory the newest runs are kept, up to
    `max_bytes`; in a folder (`cache_folder`) every run is kept as one .npz file.
    Arrays handed out are read-only: every caller of a text shares them.
    """

    def __init__(self, name, model_sha256, code, max_bytes=2 ** 30, folder=None):
        digest = hashlib.sha256(model_sha256.encode())
        for path in code:
            digest.update(Path(path).read_bytes())
        self.name, self.depends_on, self.max_bytes = name, digest.hexdigest(), max_bytes
        self.folder = cache_folder(folder)
        self._memory, self._bytes = OrderedDict(), 0

    def key(self, ids, removed=(), replacement=None):
        """The key of a run of token `ids` with `removed` heads and `replacement` (hex)."""
        digest = hashlib.sha256(self.depends_on.encode())
        digest.update(np.asarray(ids, dtype=np.int64).tobytes())
        digest.update(repr(tuple(removed)).encode())
        if replacement is not None and len(removed):
            digest.update(np.ascontiguousarray(replacement, dtype=np.float64).tobytes())
        return digest.hexdigest()

    def get(self, key):
        """The arrays stored under `key`, or None."""
        if key in self._memory:
            self._memory.move_to_end(key)
            return self._memory[key]
        path = self._path(key)
        if path is not None and path.is_file():
            with np.load(path) as stored:
                arrays = tuple(stored[f"arr_{i}"] for i in range(len(stored.files)))
            self._remember(key, read_only(arrays))
            return arrays
        return None

    def put(self, key, arrays):
        """Store a run's arrays under `key` (in the folder too, if there is one); returns them, read-only."""
        arrays = read_only(tuple(np.ascontiguousarray(a) for a in arrays))
        self._remember(key, arrays)
        path = self._path(key)
        if path is not None and not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.partial")
            with open(partial, "wb") as f:
                np.savez(f, *arrays)
            os.replace(partial, path)  # whole or not at all, whoever reads it
        return arrays

    def clear(self):
        """Forget the runs held in memory (those in the folder stay)."""
        self._memory.clear()
        self._bytes = 0

    def _remember(self, key, arrays):
        self._memory[key] = arrays
        self._bytes += sum(a.nbytes for a in arrays)
        while self._bytes > self.max_bytes and len(self._memory) > 1:
            _, old = self._memory.popitem(last=False)  # the oldest first
            self._bytes -= sum(a.nbytes for a in old)

    def _path(self, key):
        return None if self.folder is None else self.folder / "runs" / self.name / f"{key}.npz"

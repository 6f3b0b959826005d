"""all-MiniLM-L6-v2 for the reader's browser: its weights written once, as the trained-model page fetches them.

The trained-model chapter runs the model in the reader's browser when asked
(docs/javascripts/minilm-in-page.js and minilm-worker.js). This module writes what
they fetch, from the hash-checked model.safetensors that snippets/minilm.py reads
(`minilm.weights()`, which refuses any other file) and the model's own tokenizer.json:

- `model.<hash>.json`, the manifest: the model's sizes, the tokenizer's settings, where
  each tensor lies in which file, the heads the chapter names (`minilm_heads.named_heads`);
- `vocab.<hash>.txt`: WordPiece's pieces, one a line, in id order;
- `embeddings.<hash>.bin`: the position rows 0 to MAX_TOKENS − 1, segment 0's row and the
  embeddings' LayerNorm; `layer-<i>.<hash>.bin`: one encoder layer each;
- `words.<hash>/<k>.bin`: the word table, WORD_ROWS rows a file (ids k·WORD_ROWS and on),
  so a sentence fetches only the rows of its own tokens.

Every name carries a hash of the content (the word table's folder, of the whole table), so
a browser may keep the files for good. Matrices are int16 with one float32 scale per row
(row r is scale[r] × its int16 numbers): two bytes a number like fp16, but about four
times closer to NumPy's attention weights (at most 4.2e-4 against 1.6e-3 for fp16 on the
sentences tests/test_minilm_in_page.py tries; it holds the page to 1e-3). Vectors
(biases, LayerNorm) stay float32: in fp16 they alone moved the weights by 1e-3.
Little-endian, as every browser's typed arrays read them.

The export is made once and kept in .cache/minilm-in-page/<key>/, the key a hash of what
makes it (this file, snippets/minilm_heads.py and the modules it imports, the weights'
published SHA-256, tokenizer.json); with `FIGURE_CACHE=off` it goes to a temporary folder. On a miss
a worker process makes it (pool.py) while the pages are built. `start` begins, `exported`
says where it is (None under the live server while it is being made), `copy_to` puts it
into the built site at /minilm/.
"""

import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from . import cache as build_cache
from . import pool as build_pool
from .errors import GenerationError
from .figures import SNIPPETS, local_imports

FOLDER = "minilm"  # where the site serves the files, below its root
MAX_TOKENS = 64  # the longest input the page runs, [CLS] and [SEP] included: positions 0-63
WORD_ROWS = 16  # rows of the word table per file: a sentence's rows are about 80 KiB
RUNS = SNIPPETS / "minilm_heads.py"  # what the export runs (for the named heads), with the modules it imports
DONE = "exported.json"  # written last: the export in its folder is complete
# What the page's tokenizer implements (docs/javascripts/minilm-worker.js): BERT's basic rules.
TOKENIZER = {"normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                            "strip_accents": None, "lowercase": True},
             "pre_tokenizer": {"type": "BertPreTokenizer"}}

_state = {"future": None, "temporary": None}


def cache_key():
    """A hash of what makes the export: this file, the snippets it runs, the weights' SHA-256, tokenizer.json."""
    minilm = _minilm()
    digest = hashlib.sha256(Path(__file__).read_bytes() + minilm.WEIGHTS_SHA256.encode())
    for path in [RUNS, *local_imports(RUNS)]:  # minilm_heads.py, minilm.py, attention.py, ...
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update((minilm.model_dir() / "tokenizer.json").read_bytes())
    return digest.hexdigest()[:16]


def _minilm():
    if str(SNIPPETS) not in sys.path:
        sys.path.insert(0, str(SNIPPETS))
    import minilm
    return minilm


def start():
    """Begin the export: a Future of its folder, at once from the cache, else made by a worker process."""
    if _state["future"] is not None and not (_state["future"].done() and _state["future"].exception()):
        return _state["future"]
    if build_cache.enabled():
        folder = build_cache.FOLDER / "minilm-in-page" / cache_key()
    else:  # clean builds: made afresh, in a folder of this process
        _state["temporary"] = _state["temporary"] or tempfile.TemporaryDirectory(prefix="minilm-in-page-")
        folder = Path(_state["temporary"].name) / cache_key()
    if (folder / DONE).is_file():
        _state["future"] = build_pool.done(str(folder))
    else:
        _state["future"] = build_pool.submit(export, str(folder))
    return _state["future"]


def exported():
    """What a page needs of the export: {"manifest": its name below /minilm/, "bytes": what every
    sentence fetches, "sentence": the chapter's}. Waits for it, except under the live server
    while it is being made: None then (the page shows a note; pool.py has the server rebuild).
    """
    future = start()
    if build_pool.unfinished(future):
        return None
    try:
        folder = Path(future.result())
    except GenerationError:
        raise
    except Exception as error:
        raise GenerationError(f"all-MiniLM-L6-v2 for the trained-model page: {type(error).__name__}: {error}") from error
    return json.loads((folder / DONE).read_text(encoding="utf-8"))


def copy_to(site_dir):
    """The export into the built site at `site_dir`/minilm/ (hard links where the file system allows).

    Returns False when there was nothing to copy yet (under the live server, still being made).
    """
    if exported() is None:
        return False
    source, target = Path(start().result()), Path(site_dir) / FOLDER
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, copy_function=_link_or_copy, ignore=shutil.ignore_patterns(DONE))
    return True


def _link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def forget():
    """The end of a build: the next one looks again (and sees an edited snippet), unless the export is
    still being made (under the live server, which does not wait): then it waits for that one."""
    if _state["future"] is not None and _state["future"].done():
        _state["future"] = None


# ---- The export itself (in a worker process) ----

def export(folder):
    """Write the export into `folder` (made complete, or not at all); returns `folder`."""
    folder = Path(folder)
    work = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(work, ignore_errors=True)
    try:
        info = write_export(work)
    except Exception as error:
        shutil.rmtree(work, ignore_errors=True)
        raise GenerationError(f"all-MiniLM-L6-v2 for the trained-model page could not be exported: "
                              f"{type(error).__name__}: {error}") from error
    (work / DONE).write_text(json.dumps(info), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    work.replace(folder)
    for other in folder.parent.iterdir():  # an export made from other sources (45 MB each) is not needed again
        if other != folder and (other / DONE).is_file():
            shutil.rmtree(other, ignore_errors=True)
    return str(folder)


def write_export(folder):
    """Every file of the export into `folder`; returns what the pages need (see `exported`)."""
    import numpy as np

    minilm = _minilm()
    import minilm_heads

    folder.mkdir(parents=True)
    weights = minilm.weights()  # float64, after minilm.load_weights checked the file's SHA-256
    tokenizer = json.loads((minilm.model_dir() / "tokenizer.json").read_text(encoding="utf-8"))
    files, tensors = [], {}

    def write_file(stem, suffix, parts):
        data = b"".join(parts)
        name = f"{stem}.{_digest(data)}{suffix}"
        (folder / name).write_bytes(data)
        files.append({"name": name, "bytes": len(data)})
        return name

    def tensor_file(stem, named_arrays):
        parts, offset = [], 0
        for name, array in named_arrays:
            for key, part in (_matrix(array) if array.ndim == 2 else [("", array.astype("<f4"))]):
                tensors[name + key] = [len(files), offset, part.dtype.str[1:], list(part.shape)]
                parts.append(part.tobytes())
                offset += part.nbytes
        write_file(stem, ".bin", parts)

    vocab = _vocabulary(tokenizer)
    vocab_name = write_file("vocab", ".txt", ["\n".join(vocab).encode("utf-8")])
    files.pop()  # the vocabulary is fetched on its own, before the weights

    embeddings = [("position", weights["embeddings.position_embeddings.weight"][:MAX_TOKENS]),
                  ("segment", weights["embeddings.token_type_embeddings.weight"][0]),
                  ("norm.weight", weights["embeddings.LayerNorm.weight"]),
                  ("norm.bias", weights["embeddings.LayerNorm.bias"])]
    tensor_file("embeddings", [(name, np.asarray(array, dtype=float)) for name, array in embeddings])
    for layer in range(minilm.N_LAYERS):
        prefix = f"encoder.layer.{layer}."
        names = sorted(name for name in weights if name.startswith(prefix))
        tensor_file(f"layer-{layer}", [(f"{layer}." + name[len(prefix):], weights[name]) for name in names])

    table = weights["embeddings.word_embeddings.weight"]  # (30522, 384)
    if table.shape[0] != len(vocab):
        raise ValueError(f"the word table has {table.shape[0]} rows, the vocabulary {len(vocab)} pieces")
    chunks = [b"".join(part.tobytes() for _, part in _matrix(table[start:start + WORD_ROWS])[::-1])
              for start in range(0, len(table), WORD_ROWS)]  # each: its scales, then its int16 rows
    words = f"words.{_digest(b''.join(chunks))}"
    (folder / words).mkdir()
    for k, chunk in enumerate(chunks):
        (folder / words / f"{k}.bin").write_bytes(chunk)

    model = tokenizer["model"]
    special = [token["content"] for token in tokenizer["added_tokens"] if token["special"]]
    manifest = {
        "model": "sentence-transformers/all-MiniLM-L6-v2", "sha256": minilm.WEIGHTS_SHA256,
        "layers": minilm.N_LAYERS, "heads": minilm.N_HEADS, "d_model": minilm.D_MODEL,
        "max_tokens": MAX_TOKENS, "eps": minilm.LAYER_NORM_EPS,
        "vocab": vocab_name, "special": special, "unk": model["unk_token"], **_ends(tokenizer),
        "prefix": model["continuing_subword_prefix"], "max_chars": model["max_input_chars_per_word"],
        "files": files, "tensors": tensors,
        "words": {"folder": words, "rows": WORD_ROWS, "count": len(vocab)},
        "named": {pattern: [layer, head] for pattern, (layer, head, _) in minilm_heads.named_heads().items()},
    }
    text = json.dumps(manifest, ensure_ascii=False, separators=(",", ":"))
    name = f"model.{_digest(text.encode('utf-8'))}.json"
    (folder / name).write_text(text, encoding="utf-8")
    return {"manifest": name, "bytes": sum(f["bytes"] for f in files) + len(text.encode("utf-8"))
            + (folder / vocab_name).stat().st_size, "sentence": minilm_heads.SENTENCE}


def _vocabulary(tokenizer):
    """WordPiece's pieces in id order, after checking that tokenizer.json asks for what the page implements."""
    for part, wanted in TOKENIZER.items():
        if tokenizer[part] != wanted:
            raise ValueError(f"tokenizer.json's {part} is {tokenizer[part]}; the page's tokenizer "
                             f"implements {wanted} only (docs/javascripts/minilm-worker.js)")
    model = tokenizer["model"]
    if model["type"] != "WordPiece":
        raise ValueError(f"tokenizer.json's model is {model['type']}, not WordPiece")
    by_id = {i: piece for piece, i in model["vocab"].items()}
    if sorted(by_id) != list(range(len(by_id))) or any("\n" in piece for piece in by_id.values()):
        raise ValueError("the vocabulary's ids are not 0, 1, 2, ... or a piece holds a line break")
    return [by_id[i] for i in range(len(by_id))]


def _ends(tokenizer):
    """The tokens the tokenizer puts first and last ([CLS] and [SEP]), from its template for one sentence."""
    template = tokenizer["post_processor"]["single"]
    ends = [part["SpecialToken"]["id"] for part in template if "SpecialToken" in part]
    if [next(iter(part)) for part in template] != ["SpecialToken", "Sequence", "SpecialToken"]:
        raise ValueError(f"tokenizer.json's template for one sentence is {template}, not [CLS] sentence [SEP]")
    return {"cls": ends[0], "sep": ends[1]}


def _matrix(array):
    """A matrix as [("", int16 rows), (".scale", float32 per row)]: row r = scale[r] × int16 row r."""
    import numpy as np

    array = np.asarray(array, dtype=float)
    top = np.abs(array).max(axis=1)
    scale = np.where(top > 0, top / 32767, 1.0).astype("<f4")
    rows = np.clip(np.round(array / scale.astype(float)[:, None]), -32767, 32767).astype("<i2")
    return [("", rows), (".scale", scale)]


def _digest(data):
    return hashlib.sha256(data).hexdigest()[:10]

"""The build's worker processes: figures and notebooks are made on every core.

Not a hook itself (mkdocs.yml does not list it); hooks/snippet_figures.py and
hooks/notebooks.py hand it the work that a cache did not answer: drawing a
figure, running a notebook's cells and rendering it. MkDocs renders pages in
one process, one after the other; the workers draw and run meanwhile, and a
page waits only for what it shows.

The pool starts at the first piece of work of a build, so a build whose caches
answer everything starts no process, and it stops at the end of the build
(`shutdown`), so each build's workers import the snippets afresh: an edit under
`mkdocs serve` is always seen. Workers are spawned, not forked: MkDocs' server
runs threads, and a forked child of a threaded process can deadlock.
"""

import multiprocessing
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HOOKS = str(Path(__file__).resolve().parent)

_pool = None
_lock = threading.Lock()  # the notebooks' threads submit too


def workers():
    """How many processes draw and run: one per core, at least one."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def submit(function, *args):
    """Run `function(*args)` in a worker process; returns a concurrent.futures.Future.

    `function` must be a module-level function of a module in hooks/ (workers import it by name).
    """
    global _pool
    with _lock:
        if _pool is None:
            if HOOKS not in sys.path:  # spawned workers start with this process's sys.path
                sys.path.append(HOOKS)
            _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=multiprocessing.get_context("spawn"))
        return _pool.submit(function, *args)


def shutdown(cancel=False):
    """Stop the workers (after a build, or when it failed)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=cancel)

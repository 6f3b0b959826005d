"""The build's worker processes: figures and notebooks are made on every core.

figures.py and notebooks.py hand it the work that a cache did not answer: drawing a
figure, running a notebook's cells and rendering it. MkDocs renders pages in
one process, one after the other; the workers draw and run meanwhile, and a
page waits only for what it shows.

Work that uses a module slow to load (a trained model's weights) can name a *lane*: all the
work of one lane goes to one worker process of its own, which loads the module once and
remembers what it computes, so that nothing is computed twice in a build (figures.py names
the lanes). The other work goes to the pool of one process per core.

The pool starts at the first piece of work of a build, so a build whose caches
answer everything starts no process, and it stops when the build's work is done
(`shutdown`), so each build's workers import the snippets afresh: an edit under
the live server (`serve`) is always seen. Workers are spawned, not forked: MkDocs' server
runs threads, and a forked child of a threaded process can deadlock.

A build waits for every figure and notebook. The live server does not: a
page whose figure or notebook is still being made gets a note in its place
(`unfinished`), the build ends, and the server serves at once. When the work is
done, this module writes .cache/serve/ready, which the server watches
(hooks/snippet_figures.py, on_serve): MkDocs rebuilds, from the cache now, and
the reader's browser reloads with every figure. On a fresh clone the first page
is served in seconds instead of after some twenty seconds of drawing.
"""

import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor, wait

from . import cache as build_cache

READY = build_cache.FOLDER / "serve"  # watched by the live server; `ready` is written there

_pool = None
_lanes = {}  # lane name -> its one-process pool
_lock = threading.Lock()  # the notebooks' threads submit too
_serve = {"on": False, "tracked": set(), "shown": False, "waiter": None}


def _start_worker(background=False):
    """In each worker, before NumPy or a snippet is imported: one thread for its linear algebra,
    the folder where the trained models keep their runs, and, under the live server, the
    lowest CPU priority (`background`).

    Under `mkdocs serve` the pages come first: MkDocs renders them in one process while the
    workers draw, and on two cores four busy workers would leave it a third of the machine, so
    a reader of a fresh clone waited for the pages as long as for the drawings. At the lowest
    priority the workers take what the pages leave, and nothing is lost: a build waits for
    every figure and notebook in any case, and its workers keep the normal priority.

    The workers are one per core already; OpenBLAS would start a thread per core in each of
    them, and threads that wait by spinning use a core while they wait. A trained model's
    forward passes and dequantized weights go to .cache/models/ (snippets/trained_models.py),
    keyed by the model file's hash and the code that computes them, so a later build, a test
    or a notebook's kernel finds them (unless `FIGURE_CACHE=off`: a build from nothing).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if build_cache.enabled():
        os.environ.setdefault("WHY_ATTENTION_CACHE", str(build_cache.MODELS))
    if background:
        os.nice(19)


def workers():
    """How many processes draw and run: one per core, at least one."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def submit(function, *args, lane=None):
    """Run `function(*args)` in a worker process; returns a concurrent.futures.Future.

    `function` must be a module-level function of a module in sitebuild/ (workers import it by name).
    With a `lane`, it runs in that lane's own process, after the lane's earlier work.
    """
    global _pool
    with _lock:
        if lane is not None:
            if lane not in _lanes:
                _lanes[lane] = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                   initializer=_start_worker, initargs=(_serve["on"],))
            executor = _lanes[lane]
        else:
            if _pool is None:
                _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start_worker, initargs=(_serve["on"],))
            executor = _pool
        future = executor.submit(function, *args)
        if _serve["on"]:
            _serve["tracked"].add(future)
        return future


def on_success(future, save):
    """Call `save(result)` once `future` has its result (not if it failed or was cancelled); returns `future`.

    How what a worker made goes into a cache.
    """
    future.add_done_callback(lambda work: work.cancelled() or work.exception() or save(work.result()))
    return future


def done(value):
    """A Future that already holds `value`: what a cache answered, handed on as the workers' work is."""
    future = Future()
    future.set_result(value)
    return future


def serving(command=None):
    """Whether pages may be served before their figures and notebooks (the live server).

    hooks/snippet_figures.py tells it the command in on_startup: `serving("serve")`.
    """
    if command is not None:
        _serve["on"] = command == "serve"
    return _serve["on"]


def track(future):
    """Count `future` among the work that a build under the live server ends without waiting for."""
    if _serve["on"]:
        with _lock:
            _serve["tracked"].add(future)


def unfinished(future):
    """True when a page is not to wait for `future`: under the live server, while it is being made.

    The page then shows a note instead, and the server rebuilds when the work is done.
    """
    if _serve["on"] and not future.done():
        _serve["shown"] = True
        return True
    return False


def shutdown(cancel=False):
    """Stop the workers: after a build (under the live server, once its work is done), or when it failed."""
    if _serve["on"] and not cancel:
        with _lock:
            if _serve["waiter"] is None:
                _serve["waiter"] = threading.Thread(target=_when_done, name="build-pool-waiter", daemon=True)
                _serve["waiter"].start()
        return
    _stop(cancel)


def _stop(cancel):
    global _pool
    with _lock:
        pools, _pool = [_pool, *_lanes.values()], None
        _lanes.clear()
    for pool in pools:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=cancel)


def _when_done():
    """Under the live server: wait for the tracked work, stop the workers, and ask for a rebuild if a page lacked any."""
    while True:
        with _lock:
            todo = {f for f in _serve["tracked"] if not f.done()}
            if not todo:
                _serve["tracked"].clear()
                _serve["waiter"] = None
                shown, _serve["shown"] = _serve["shown"], False
                break
        wait(todo)
    _stop(cancel=False)
    if shown:
        READY.mkdir(parents=True, exist_ok=True)
        (READY / "ready").write_text("every figure and notebook of the last build is made\n", encoding="utf-8")

"""Before the pages: what the pages need, made before any page is rendered.

- figures.py: every figure of every page, in each language, with its data (the numbers
  its heatmaps show), drawn from its snippet; kept in .cache/figures/;
- notebooks.py (with notebook_cells, notebook_modules, notebook_outputs, notebook_cache):
  every chapter as a notebook in each language, run without a kernel and rendered;
  kept in .cache/notebooks/;
- served_snippets.py: the modules of snippets/ served at /snippets/.

What a cache lacks is made in worker processes, one per core (pool.py); cache.py reads and
writes the cache. Runs from the build (the hooks) or on its own:

    python -m sitebuild.generate                  # fill the caches, as a build would
    python -m sitebuild.generate --out build-out  # and write what was made into a folder

What cannot be made (a snippet or a cell that raises) is a GenerationError (errors.py).
"""

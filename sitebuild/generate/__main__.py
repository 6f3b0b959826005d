"""`python -m sitebuild.generate`: make what the pages need, without building the site.

Draws every figure of every page in each language, makes every chapter's notebook (its
outputs and its HTML) and exports all-MiniLM-L6-v2 for the trained-model page's panel, from
the caches or in worker processes, into the caches the build reads (.cache/). With `--out DIR`
it also writes them: DIR/figures/<name>.<lang>.svg, DIR/notebooks/<slug>[.<lang>].ipynb and
.html, DIR/snippets/<module>.py and DIR/minilm/.
"""

import argparse
import shutil
import sys
from pathlib import Path

from ..languages import LANGUAGES
from . import figures, minilm_export, notebooks, served_snippets
from .errors import GenerationError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sitebuild.generate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES), help="default: %(default)s")
    parser.add_argument("--site-url", default="/", help="the site's address, for the notebooks' links")
    parser.add_argument("--no-notebooks", action="store_true", help="figures only")
    parser.add_argument("--out", type=Path, help="also write what was made into this folder")
    args = parser.parse_args(argv)
    if str(figures.SNIPPETS) not in sys.path:
        sys.path.insert(0, str(figures.SNIPPETS))  # snippets import their neighbours (attention, plotting, ...)
    try:
        drawn = {(stem, language): figures.drawing(stem, language)
                 for language in args.languages for stem in figures.figures_in_pages(language)}
        minilm_export.start()
        if not args.no_notebooks:
            notebooks.start(args.languages, args.site_url)
        for (stem, language), future in drawn.items():
            svg = future.result()
            if args.out:
                _write(args.out / "figures" / f"{stem}.{language}.svg", svg)
        print(f"{len(drawn)} figures", file=sys.stderr)
        for slug, language in [] if args.no_notebooks else notebooks.made():
            ipynb, html = notebooks.result(slug, language).result()
            if args.out:
                name = notebooks.label(slug, language)
                _write(args.out / "notebooks" / f"{name}.ipynb", ipynb)
                _write(args.out / "notebooks" / f"{name}.html", html)
        if not args.no_notebooks:
            print(f"{len(notebooks.made())} notebooks", file=sys.stderr)
        print(f"all-MiniLM-L6-v2 for the page: {minilm_export.exported()['manifest']}", file=sys.stderr)
        if args.out:
            minilm_export.copy_to(args.out)
            (args.out / served_snippets.FOLDER).mkdir(parents=True, exist_ok=True)
            for name in served_snippets.modules():
                shutil.copyfile(served_snippets.SNIPPETS / name, args.out / served_snippets.FOLDER / name)
    except GenerationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        figures.forget()
        minilm_export.forget()
        notebooks.stop()
    return 0


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: build times, test-suite times, page weight, Lighthouse. Prints one table.

    python tests/benchmark.py            # everything (Lighthouse when Chromium and Node are present)
    python tests/benchmark.py --quick    # one run per build, no test suite, no Lighthouse

Targets (issue "Fast builds and light pages"): cold / no-figures <= 1.5; warm
rebuild within 10% of the no-figures build; every page <= 350 KiB as loaded;
every figure <= 60 KiB; Lighthouse mobile performance >= 0.98 and
accessibility, best practices, SEO = 1.00. The training demo of
learning-relevance (snippets/relevance_training.py) trains in <= 3 s on one
core. This script reports; it asserts nothing.
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import CHROMIUM, CHROMIUM_ARGS, free_port, serve_directory

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache"
LIGHTHOUSE_VERSION = "12.2.3"  # newer versions need Node 22
LIGHTHOUSE_PAGES = ["", "zh/", "query-key-scores/", "zh/decoder-self-attention/"]
CHROMIUM_FLAGS = ["--headless=new", *CHROMIUM_ARGS]  # for Lighthouse, which starts Chromium itself


def build(site, **env):
    """One `mkdocs build`; returns seconds."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=ROOT, check=True,
                   capture_output=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env})
    return time.perf_counter() - start


def median_build(runs, site, **env):
    return statistics.median(build(site, **env) for _ in range(runs))


def time_pytest(*args):
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                            cwd=ROOT, capture_output=True, text=True)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "?"
    return time.perf_counter() - start, summary


def training_seconds(runs):
    """Median time of one training run of the learning-relevance demo, pinned to one core."""
    code = ("import time, relevance_training as rt; s = time.perf_counter(); rt.train(); "
            "print(time.perf_counter() - s)")
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    times = [float(subprocess.run([*pin, sys.executable, "-c", code], cwd=ROOT / "snippets", env=env,
                                  check=True, capture_output=True, text=True).stdout) for _ in range(runs)]
    return statistics.median(times)


def serve(site):
    port = free_port()
    return serve_directory(site, port), f"http://127.0.0.1:{port}/"


def page_weights(site, base):
    """Bytes each page loads in Chromium (HTML, CSS, JS, fonts, images), by URL."""
    from playwright.sync_api import sync_playwright

    pages = sorted(p.relative_to(site).parent.as_posix() for p in site.rglob("index.html"))
    weights = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for page_path in pages:
            url = base + ("" if page_path == "." else page_path + "/")
            page = browser.new_page()
            sizes = []
            page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
            page.goto(url, wait_until="networkidle")
            weights[url[len(base) - 1:]] = sum(sizes)
            page.close()
        browser.close()
    return weights


def largest_figure(site):
    """Size in bytes of the largest inline figure SVG on any page."""
    largest = (0, "")
    for page in site.rglob("*.html"):
        for stem, svg in re.findall(r'<figure class="snippet-figure" id="([^"]+)">\s*(<svg.*?</svg>)',
                                    page.read_text(encoding="utf-8"), re.S):
            largest = max(largest, (len(svg.encode()), stem))
    return largest


def lighthouse(base):
    """Mobile Lighthouse scores per page, or a reason why they were not measured."""
    if not (shutil.which("node") and shutil.which("npm") and os.path.exists(CHROMIUM)):
        return "skipped: needs Node.js, npm and Chromium"
    prefix = CACHE / "lighthouse"
    binary = prefix / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        subprocess.run(["npm", "install", "--silent", "--prefix", str(prefix), f"lighthouse@{LIGHTHOUSE_VERSION}"],
                       check=True, capture_output=True)
    scores = {}
    for path in LIGHTHOUSE_PAGES:
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "report.json"
            subprocess.run([str(binary), base + path, "--quiet", "--output=json", f"--output-path={report}",
                            "--only-categories=performance,accessibility,best-practices,seo",
                            f"--chrome-flags={' '.join(CHROMIUM_FLAGS)}"],
                           check=True, capture_output=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
            data = json.loads(report.read_text())
        categories = data["categories"]
        failed = [a for a, r in data["audits"].items() if r.get("score") is not None and r["score"] < 1
                  and r.get("scoreDisplayMode") in {"binary", "numeric"}
                  and any(a == ref["id"] for c in categories.values() for ref in c["auditRefs"] if ref.get("weight"))]
        scores["/" + path] = ({k: categories[k]["score"] for k in
                               ("performance", "accessibility", "best-practices", "seo")}, failed)
    return scores


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run per build, no tests, no Lighthouse")
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    rows = []
    work = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        site = work / "site"
        cold = median_build(runs, site, FIGURE_CACHE="off")
        no_figures = median_build(runs, site, FIGURES="off")
        build(site)  # fill the figure cache
        warm = median_build(runs, site)
        page = ROOT / "docs" / "input-to-attention.md"
        original = page.read_text(encoding="utf-8")
        try:
            page.write_text(original.replace("Before we can ask", "Before we ask", 1), encoding="utf-8")
            prose_edit = build(site)
        finally:
            page.write_text(original, encoding="utf-8")
        rows += [
            ("cold build, no cache (median of %d)" % runs, f"{cold:.1f} s", ""),
            ("build with figures off (FIGURES=off)", f"{no_figures:.1f} s", f"cold / no-figures = {cold / no_figures:.2f} (target <= 1.5)"),
            ("warm rebuild, nothing changed", f"{warm:.1f} s", f"{(warm / no_figures - 1) * 100:+.0f}% vs no-figures (target <= +10%)"),
            ("rebuild after a prose edit", f"{prose_edit:.1f} s", "no snippet re-run (cache hit)"),
        ]
        rows.append(("training demo, one core (median of %d)" % runs, f"{training_seconds(runs):.2f} s",
                     "snippets/relevance_training.py (target <= 3 s)"))
        build(site)
        server, base = serve(site)
        try:
            weights = page_weights(site, base) if os.path.exists(CHROMIUM) else {}
            size, stem = largest_figure(site)
            if weights:
                heaviest = max(weights, key=weights.get)
                rows.append(("heaviest page as loaded", f"{weights[heaviest] / 1024:.0f} KiB",
                             f"{heaviest} (target <= 350 KiB); lightest {min(weights.values()) / 1024:.0f} KiB; {len(weights)} pages"))
            rows.append(("largest figure (inline SVG)", f"{size / 1024:.1f} KiB", f"{stem} (target <= 60 KiB)"))
            if not args.quick:
                result = lighthouse(base)
                if isinstance(result, str):
                    rows.append(("Lighthouse (mobile)", result, ""))
                else:
                    for path, (scores, failed) in result.items():
                        rows.append((f"Lighthouse mobile {path}", " / ".join(f"{v:.2f}" for v in scores.values()),
                                     "perf / a11y / best practices / SEO" + (f"; below 1: {', '.join(failed)}" if failed else "")))
        finally:
            server.shutdown()
        if not args.quick:
            for label, selection in [("tests: unit and snippet", ["tests/test_attention.py", "tests/test_snippets.py",
                                                                  "tests/test_figure_cache.py", "docs"]),
                                     ("tests: build", ["tests", "--ignore=tests/test_browser.py",
                                                       "--ignore=tests/test_attention.py", "--ignore=tests/test_snippets.py",
                                                       "--ignore=tests/test_figure_cache.py"]),
                                     ("tests: browser", ["tests/test_browser.py"])]:
                seconds, summary = time_pytest(*selection)
                rows.append((label, f"{seconds:.0f} s", summary))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    width = max(len(r[0]) for r in rows)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>18}  {note}")


if __name__ == "__main__":
    main()

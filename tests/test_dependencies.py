"""The lock (requirements.txt) agrees with the direct requirements (requirements.in) and with this environment.

requirements.in names the packages the project uses, each pinned, and says
why; requirements.txt is written from it by `uv pip compile` (README,
"Dependencies") and pins every package they pull in, with hashes. These tests
fail when someone edits one file and not the other, or hand-edits the lock.
"""

import re
import subprocess
import sys
from importlib import metadata

from packaging.markers import Marker

from conftest import ROOT

DIRECT = ROOT / "requirements.in"
LOCK = ROOT / "requirements.txt"
UPDATE_COMMAND = ("uv pip compile --universal --python-version 3.11.5 --generate-hashes "
                  "requirements.in -o requirements.txt")
# What `python -m venv` puts into every environment before the lock is installed.
VENV_SEEDS = {"pip", "setuptools"}


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


def lock_problems(direct_text, lock_text):
    """Why the lock and the direct requirements disagree (empty when they agree)."""
    direct = direct_pins(direct_text)
    entries = lock_entries(lock_text)
    locked = {e["name"]: e for e in entries}
    problems = []
    for name, version in direct.items():
        if name not in locked:
            problems.append(f"{name}=={version} is in requirements.in but not in the lock")
        elif all(e["version"] != version for e in entries if e["name"] == name):
            problems.append(f"{name}: requirements.in pins {version}, the lock {locked[name]['version']}")
    for e in entries:
        if "-r requirements.in" in e["via"] and e["name"] not in direct:
            problems.append(f"the lock says {e['name']} comes from requirements.in, which does not name it")
        parents = [p for p in e["via"] if p != "-r requirements.in"]
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


def test_the_lock_agrees_with_the_direct_requirements():
    problems = lock_problems(DIRECT.read_text(encoding="utf-8"), LOCK.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems) + f"\nUpdate the lock: {UPDATE_COMMAND}"


def test_the_lock_says_how_it_was_made():
    assert UPDATE_COMMAND in LOCK.read_text(encoding="utf-8")
    assert UPDATE_COMMAND in DIRECT.read_text(encoding="utf-8")
    assert UPDATE_COMMAND in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_direct_requirement_is_pinned():
    for line in DIRECT.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][\w.]*", line), line


def test_this_environment_holds_exactly_the_locked_versions():
    """What is installed here is what the lock pins for this Python, and nothing else."""
    expected = {e["name"]: e["version"] for e in lock_entries(LOCK.read_text(encoding="utf-8"))
                if applies_here(e)}
    installed = {canonical(d.metadata["Name"]): d.version for d in metadata.distributions()}
    wrong = [f"{name}: locked {version}, installed {installed.get(name, 'nothing')}"
             for name, version in sorted(expected.items()) if installed.get(name) != version]
    extra = sorted(set(installed) - set(expected) - VENV_SEEDS)
    assert not wrong and not extra, "\n".join(wrong + [f"{name} is installed but not locked" for name in extra])


def test_pip_check_is_clean():
    result = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


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

"""ProperDocs builds the same site as MkDocs, byte for byte, but for the generator tag.

ProperDocs (requirements.in) is a BSD-licensed fork of MkDocs 1.x that runs MkDocs'
plugins, hooks and themes; it reads mkdocs.yml when given it with `-f`.
tests/test_build_checks.py builds a fresh clone with it, `--strict`, in a fresh environment
and with `FIGURE_CACHE=off` (so it draws and runs everything itself), for the same address
and date as the session's MkDocs build (`built_site`), and checks with `site_differences`
below that both builds hold the same files with the same bytes, except the one thing each
engine writes differently: its name and version in every page's `<meta name="generator">`
tag. The tests here show that comparison can fail.
"""

import re

from conftest import differing_files, site_files

# The engine's part of Material's generator tag: "mkdocs-1.6.1" or "mkdocs-ProperDocs 1.6.7"
# (the Material version after it must match).
GENERATOR = re.compile(rb'(<meta name="generator" content=")mkdocs-(?:ProperDocs )?[0-9][0-9a-z.]*(, )')


def without_generator(name, data):
    """A file's bytes, with the engine's name in a page's generator tag replaced by ENGINE."""
    return GENERATOR.sub(rb"\1ENGINE\2", data) if name.endswith(".html") else data


def first_difference(a, b, context=60):
    """Where two byte strings first differ, with a little text around it from each."""
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    around_a, around_b = (data[max(0, i - context):i + context].decode("utf-8", "replace") for data in (a, b))
    return f"at byte {i}: {around_a!r} != {around_b!r}"


def site_differences(site_a, site_b):
    """How two built sites differ beyond the engine's name in the generator tag (empty when they do not)."""
    a, b = site_files(site_a), site_files(site_b)
    differing = differing_files(site_a, site_b, without_generator)
    problems = [f"only in {site_a}: {name}" for name in differing if name not in b]
    problems += [f"only in {site_b}: {name}" for name in differing if name not in a]
    for name in (name for name in differing if name in a and name in b):
        x, y = (without_generator(name, files[name].read_bytes()) for files in (a, b))
        problems.append(f"{name} differs {first_difference(x, y)}")
    return problems


# The comparison can fail: small doctored sites.

PAGE = ('<head><meta name="generator" content="mkdocs-{engine}, mkdocs-material-9.8.2">'
        '<title>Home</title></head><p>{text}</p>\n')


def write_site(root, engine="1.6.1", text="Attention", material="9.8.2", extra=None):
    (root / "zh").mkdir(parents=True)
    for name in ("index.html", "zh/index.html"):
        page = PAGE.format(engine=engine, text=text).replace("9.8.2", material)
        (root / name).write_text(page, encoding="utf-8")
    (root / "search.json").write_text('{"docs": []}', encoding="utf-8")
    if extra:
        (root / extra).write_text("x", encoding="utf-8")
    return root


def test_two_engines_names_alone_are_no_difference(tmp_path):
    mkdocs = write_site(tmp_path / "a")
    properdocs = write_site(tmp_path / "b", engine="ProperDocs 1.6.7")
    assert site_differences(mkdocs, properdocs) == []


def test_a_changed_page_is_caught(tmp_path):
    mkdocs = write_site(tmp_path / "a")
    properdocs = write_site(tmp_path / "b", engine="ProperDocs 1.6.7", text="Attentiom")
    problems = site_differences(mkdocs, properdocs)
    assert [p.split(" differs")[0] for p in problems] == ["index.html", "zh/index.html"]
    assert "<p>Attention</p>" in problems[0] and "<p>Attentiom</p>" in problems[0]


def test_another_theme_version_in_the_generator_tag_is_caught(tmp_path):
    mkdocs = write_site(tmp_path / "a")
    properdocs = write_site(tmp_path / "b", engine="ProperDocs 1.6.7", material="9.8.3")
    assert len(site_differences(mkdocs, properdocs)) == 2


def test_a_missing_or_extra_file_is_caught(tmp_path):
    mkdocs = write_site(tmp_path / "a", extra="sitemap.xml")
    properdocs = write_site(tmp_path / "b", engine="ProperDocs 1.6.7", extra="robots.txt")
    assert site_differences(mkdocs, properdocs) == [f"only in {mkdocs}: sitemap.xml", f"only in {properdocs}: robots.txt"]


def test_the_generator_tag_is_ignored_only_in_pages(tmp_path):
    mkdocs = write_site(tmp_path / "a")
    properdocs = write_site(tmp_path / "b", engine="ProperDocs 1.6.7")
    (mkdocs / "search.json").write_bytes((mkdocs / "index.html").read_bytes())
    (properdocs / "search.json").write_bytes((properdocs / "index.html").read_bytes())
    [problem] = site_differences(mkdocs, properdocs)
    assert problem.startswith("search.json differs")

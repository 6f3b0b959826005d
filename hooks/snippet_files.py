"""MkDocs hook: the modules that the figure snippets import are served at /snippets/ (sitebuild/generate/served_snippets.py)."""

from mkdocs.structure.files import File, InclusionLevel

from sitebuild.generate.served_snippets import FOLDER, SNIPPETS, modules


def on_files(files, config):
    for name in modules():  # in each build: MkDocs checks links against them, mkdocs-static-i18n keeps one copy
        files.append(File(f"{FOLDER}/{name}", str(SNIPPETS.parent), config.site_dir, config.use_directory_urls,
                          inclusion=InclusionLevel.NOT_IN_NAV))
    return files

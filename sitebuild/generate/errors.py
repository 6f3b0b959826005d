"""The generator's one error: what it could not make, said in words (the snippet, the language, the chapter).

A build engine shows it as its own build error (hooks/layers.py turns it into MkDocs' PluginError);
`python -m sitebuild.generate` prints it and exits with 1.
"""


class GenerationError(Exception):
    """A figure, a notebook or a served file the generator could not make."""

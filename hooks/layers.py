"""The repository root on sys.path, so that the hooks import the layers in sitebuild/.

Not a hook itself (mkdocs.yml does not list it). MkDocs puts a hook's folder on sys.path only
while it imports the hook; the build's worker processes start with this process's sys.path.
"""

import functools
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.append(ROOT)

from sitebuild.generate.errors import GenerationError  # noqa: E402  (needs ROOT on sys.path)


def stops_the_build(event):
    """A hook event in which the generator's GenerationError stops the build as MkDocs' PluginError.

    MkDocs then prints the message (the snippet, the language, the chapter) instead of a traceback.
    """
    @functools.wraps(event)
    def wrapper(*args, **kwargs):
        try:
            return event(*args, **kwargs)
        except GenerationError as error:
            raise PluginError(str(error)) from error
    return wrapper

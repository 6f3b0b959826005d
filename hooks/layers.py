"""What the hooks share: the generator's errors stop the build as MkDocs errors.

Not a hook itself (mkdocs.yml does not list it). The layers, sitebuild/, are installed in
the environment (`pip install -e .`, README's commands), so every hook imports them.
"""

import functools

from mkdocs.exceptions import PluginError

from sitebuild.generate.errors import GenerationError


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

"""The repository root on sys.path, so that the hooks import the layers in sitebuild/.

Not a hook itself (mkdocs.yml does not list it). MkDocs puts a hook's folder on sys.path only
while it imports the hook; the build's worker processes start with this process's sys.path.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.append(ROOT)

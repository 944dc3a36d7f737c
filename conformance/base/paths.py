"""Where the package is, and the checkout it was loaded from: the one owner of both paths.

Every stage that finds a file of the project (the features, the docs' build, the project's own
``pyproject.toml`` for a scenario check) starts from here, so that moving a module never changes
what it finds.
"""

from __future__ import annotations

from pathlib import Path

#: the ``conformance`` package's folder
PACKAGE = Path(__file__).resolve().parents[1]
#: the folder that holds the package: the checkout in a work tree, site-packages when installed
REPO = PACKAGE.parent

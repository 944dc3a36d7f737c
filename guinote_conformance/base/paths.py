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

#: The project's homes, declared once (pyproject.toml's [project.urls] says the same; a test checks
#: they agree): the published rulebook (Read the Docs, .readthedocs.yaml builds both editions of
#: every tagged release) and the source, whose tags ``v<version>`` the CI recipes install.
RULEBOOK_HOME = "https://guinote-conformance.readthedocs.io"
SOURCE_HOME = "https://github.com/guinote-conformance/guinote-conformance"


def published_rulebook(version: str, language: str = "en") -> str:
    """The root of one edition of the rulebook published for ``version``: Read the Docs serves the
    tag ``v<version>`` at ``/v<version>/`` (the project's URL scheme is "multiple versions without
    translations": both editions are one build, ``en/`` and ``es/`` side by side)."""
    return f"{RULEBOOK_HOME}/v{version}/{language}"

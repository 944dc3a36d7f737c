"""The language of a session's scenarios: the English feature files, or the Spanish ones generated from them.

``--language es`` runs the Spanish feature files (:mod:`guinote_conformance.catalogue.spanish`), generated
through the steps' Spanish phrasings (:data:`guinote_conformance.run.steps.phrasebook.PHRASEBOOK`). Each
Spanish file has the English file's lines, so a Spanish scenario is the English one at the same
line: the catalogue's entry, the results' feature and line, the reruns, the expectations and the
stored realisations are the English scenario's, and only the steps shown with a failure are the
Spanish text that ran.

In: the session's ``--language``. Out: the folder of feature files the suite collects
(:func:`session_root`, read by :mod:`guinote_conformance.suite` when pytest imports it), and the English
file behind a Spanish one (:func:`english_source`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from guinote_conformance.catalogue.features import FeatureError
from guinote_conformance.catalogue.rule_index import default_root
from guinote_conformance.catalogue.spanish import is_spanish_folder, spanish_features

LANGUAGES = ("en", "es")

#: the folder of the current session's feature files (set when the plugin is configured)
_ROOT: list[Path] = []


def features_root(language: str) -> Path:
    """The feature files of ``language``; the Spanish ones generated if they are not there yet."""
    if language == "en":
        return default_root()
    if language != "es":
        raise pytest.UsageError(f"--language is one of {', '.join(LANGUAGES)}, not {language!r}")
    import guinote_conformance.run.steps  # noqa: F401  (every step declared, so every phrasing known)
    from guinote_conformance.run.steps.phrasebook import PHRASEBOOK  # the steps' module fills it when imported

    try:
        return spanish_features(PHRASEBOOK)
    except FeatureError as error:
        raise pytest.UsageError(f"the Spanish feature files cannot be generated: {error}") from None


def configure(config: pytest.Config) -> Path:
    """The session's folder of feature files, kept for :func:`session_root`: an author's own
    (``--guinote-features``, a folder or one file, as written) or the suite's in the session's language."""
    own = config.getoption("guinote_features")
    root = Path(own) if own else features_root(config.getoption("language") or "en")
    _ROOT[:] = [root]
    return root


def session_root() -> Path:
    """The folder of feature files of the session being collected, or its one file (the English
    folder outside a session)."""
    return _ROOT[0] if _ROOT else default_root()


def english_source(path: Path) -> Path | None:
    """The English feature file that the generated Spanish file ``path`` renders (None: not a Spanish one)."""
    return default_root() / path.name if is_spanish_folder(path.parent) else None

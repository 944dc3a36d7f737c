"""Where the extension finds the project's data, and the data itself (read once per build
through :mod:`guinote_conformance.catalogue.rulebook`, re-read when a file changes)."""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path
from typing import Any

from sphinx.environment import BuildEnvironment

from guinote_conformance.catalogue.rulebook import RulebookData, load_rulebook

_CACHE: dict[tuple[str, tuple[tuple[str, int, int], ...]], RulebookData] = {}
#: the data whose errors were reported in this build (once, at the first page that reads it)
_REPORTED: set[int] = set()


def reset() -> None:
    """A new build reads the data afresh (and reports its errors again)."""
    _CACHE.clear()
    _REPORTED.clear()


def repo_root(env: BuildEnvironment) -> Path:
    configured = env.config.guinote_root
    return Path(configured).resolve() if configured else Path(env.srcdir).resolve().parent


def features_dir(env: BuildEnvironment) -> Path:
    configured = env.config.guinote_features_dir
    return Path(configured).resolve() if configured else repo_root(env) / "features"


def schemas_dir(env: BuildEnvironment) -> Path:
    configured = env.config.guinote_schemas_dir
    return Path(configured).resolve() if configured else repo_root(env) / "adapters" / "schemas"


def results_path(env: BuildEnvironment, option: str | None = None) -> Path | None:
    """The results file to show; ``None``: run the suite now (:mod:`guinote_conformance.report.published`)."""
    chosen = option or os.environ.get("GUINOTE_RESULTS") or env.config.guinote_results
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.is_absolute() else (Path.cwd() / path).resolve()


def _signature(paths: list[Path]) -> tuple[tuple[str, int, int], ...]:
    result = []
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            continue
        result.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(result)


def load_data(env: BuildEnvironment) -> RulebookData:
    root = repo_root(env)
    folder = features_dir(env)
    probe = RulebookData(root, folder)
    key = (str(folder), _signature(probe.data_files()))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = load_rulebook(folder, root)
    return _CACHE[key]


def first_report(data: RulebookData) -> bool:
    """True the first time in this build that ``data``'s errors are to be reported."""
    if id(data) in _REPORTED:
        return False
    _REPORTED.add(id(data))
    return True


def engine_specs() -> tuple[dict[str, Any], dict[str, Any]]:
    """The flags and the profiles of the reference engine (``reference_engine/profiles.toml``)."""
    from guinote_conformance.reference_engine.flags import flag_specs, profile_specs

    return dict(flag_specs()), dict(profile_specs())


def engine_files() -> list[Path]:
    """The reference engine's files: pages that show its behaviour depend on them."""
    try:
        package = import_module("guinote_conformance.reference_engine")
    except ImportError:
        return []
    folder = Path(str(package.__file__)).parent
    return [folder / "profiles.toml", *sorted(folder.glob("*.py"))]

"""The report folder of ``run`` and ``report``: checked, held while the reports are written, and
honest about the reports it replaces.

Two commands writing into one folder at once would mix their files (one run's ``results.json``
beside the other's ``index.html``) without a word. A command therefore holds a lock on the
folder (:mod:`filelock`, the file ``.guinote-conformance.lock`` in it) from the moment it checks
the folder until it ends; a second command that finds the folder held is an input error that
names the folder and asks for another ``--report-dir``. A later run into a folder that holds an
earlier run's reports replaces them, and says which run it replaces (its start time, read from
the ``results.json`` there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.base.untrusted import shown

#: The lock file in a report folder (hidden: it is the folder's, not a report).
LOCK_NAME = ".guinote-conformance.lock"
#: The files a run writes into its report folder.
REPORT_FILES = ("results.json", "junit.xml", "index.html")


@dataclass
class ReportFolder:
    """A report folder held by this process until :meth:`release`."""

    path: Path
    lock: FileLock
    #: what the folder held before, in one line (``None``: no earlier reports)
    earlier: str | None

    def release(self) -> None:
        self.lock.release()


def earlier_run(folder: Path) -> str | None:
    """One line naming the earlier reports in ``folder`` (the run's start time from its
    ``results.json``), or ``None`` when it holds none."""
    found = [name for name in REPORT_FILES if (folder / name).exists()]
    if not found:
        return None
    started = None
    try:
        data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        started = data["run"]["started"] if isinstance(data, dict) else None
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no results.json, or not one run wrote: the files are still named
    if isinstance(started, str) and started:
        return f"the reports of the run started {shown(started)}"
    return f"earlier reports ({', '.join(found)})"


def claim(path: Path, option: str = "--report-dir") -> ReportFolder:
    """The report folder at ``path``, created, writable and held by this process; an
    :class:`InputError` naming the ``option`` that gave it if it is a file, cannot be written,
    or another command holds it."""
    path = path.resolve()
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {path}: is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".guinote-write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise InputError(f"{option} {path}: cannot write there ({error.strerror or error})") from None
    lock = FileLock(path / LOCK_NAME, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise InputError(
            f"{option} {path}: another guinote-conformance command is writing its reports there; "
            f"choose another {option}"
        ) from None
    except OSError as error:
        raise InputError(f"{option} {path}: cannot lock it ({error.strerror or error})") from None
    return ReportFolder(path, lock, earlier_run(path))


__all__ = ["LOCK_NAME", "REPORT_FILES", "ReportFolder", "claim", "earlier_run"]

"""The campaign folder of ``compare --campaign DIR``: a fuzzing run that can be stopped and resumed.

In: the folder, and what the run is (:class:`Identity`: the engine spec, the seed, the depth, the
configurations, the games per batch, the steering window, the known-divergences file). Out: the
batches already finished (:attr:`Campaign.results`, by batch index); each batch the run finishes,
appended to the journal as it comes back (:meth:`Campaign.append`); and the derived files, rebuilt
from the journal (:meth:`Campaign.write_derived`).

The folder holds:

* ``campaign.json``: what the campaign is (format ``guinote-campaign/1``), written once when it is
  created; a run whose options name another campaign (another engine, seed, depth, configuration,
  batch size, window or known file) is refused, with the member that differs;
* ``journal.jsonl``: one line per finished batch (:func:`guinote_conformance.fuzz.batch.play_batch`), JSON
  with every non-ASCII character escaped, each written with one ``write`` and flushed to the disk
  before the next batch is counted. It is only ever appended to. After a ``kill -9`` its last line
  may be torn (cut short): that line is dropped, and cut off the file when the next run appends, so
  that batch is played again; a line that cannot be read anywhere else is an error that names it;
* ``coverage.json`` and ``groups.json``: the rule coverage and the divergence groups (each with its
  count, its configurations and its smallest example as a replayable record), derived from the
  journal and rewritten whole (a new file renamed over the old) every half minute of a run
  (:data:`guinote_conformance.fuzz.driver.DERIVED_EVERY`) and when it ends, or stops on a lost worker or
  scheduler; after a ``kill -9`` they are at most that far behind the journal until the next run.

One run at a time: the folder is locked while a run writes into it (released when its process
ends, even by ``kill -9``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from guinote_conformance.base.untrusted import scrub
from guinote_conformance.fuzz.batch import report_of
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.known import Known
from guinote_conformance.oracle.divergence import Config

FORMAT = "guinote-campaign/1"
JOURNAL = "journal.jsonl"


class CampaignError(Exception):
    """A campaign folder that cannot be used (in use, another campaign's, unreadable): a usage error."""


@dataclass(frozen=True)
class Identity:
    """What a campaign is: two runs with the same identity play the same games."""

    engine: str
    seed: int
    depth: str
    steer: bool
    configs: tuple[Config, ...]
    batch: int
    window: int
    #: the SHA-256 of the known-divergences file, or ``""``
    known: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "engine": self.engine,
            "seed": self.seed,
            "depth": self.depth,
            "steer": self.steer,
            "configs": [{"label": c.label, "flags": dict(c.flags), "profile": c.profile} for c in self.configs],
            "batch": self.batch,
            "window": self.window,
            "known": self.known,
        }


def recorded(folder: Path | None, member: str) -> Any:
    """A member of the ``campaign.json`` in ``folder``; ``None`` without one (or one that cannot be read:
    opening the campaign says why)."""
    if folder is None:
        return None
    try:
        found = json.loads((folder / "campaign.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found.get(member) if isinstance(found, dict) else None


def file_digest(path: Path | None) -> str:
    """The SHA-256 of a file's bytes (``""`` for none)."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else ""


class Campaign:
    """The finished batches of a run: in a folder (a campaign), or in memory (a run of ``--jobs``)."""

    def __init__(self, folder: Path | None, identity: Identity) -> None:
        self.folder = folder
        self.identity = identity
        #: the finished batches' results, by batch index
        self.results: dict[int, dict[str, Any]] = {}
        #: what opening the folder found worth saying (a torn last line)
        self.notes: list[str] = []
        self._lock: FileLock | None = None
        self._journal: int | None = None

    # ---------------------------------------------------------------------------- the folder

    def __enter__(self) -> Campaign:
        if self.folder is None:
            return self
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise CampaignError(f"--campaign {folder}: not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        self._lock = FileLock(str(folder / ".lock"))
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            raise CampaignError(f"--campaign {folder}: another run is using this campaign") from None
        try:
            self._check_identity(folder / "campaign.json")
            good = self._read_journal(folder / JOURNAL)
            self._journal = os.open(folder / JOURNAL, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            if os.fstat(self._journal).st_size > good:  # a torn last line: cut off before appending after it
                os.ftruncate(self._journal, good)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *_: object) -> None:
        if self._journal is not None:
            os.close(self._journal)
            self._journal = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _check_identity(self, path: Path) -> None:
        wanted = self.identity.to_json()
        if not path.exists():
            _write_atomically(path, wanted)
            return
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CampaignError(f"{path}: cannot read the campaign: {error}") from None
        if not isinstance(found, dict) or found.get("format") != FORMAT:
            got = found.get("format") if isinstance(found, dict) else found
            raise CampaignError(f"{path}: not a campaign of this version (format {got!r}; expected {FORMAT!r})")
        for member, value in wanted.items():
            if found.get(member) != value:
                raise CampaignError(
                    f"{path}: this campaign was started with another {member} ({_brief(found.get(member))}; this run: "
                    f"{_brief(value)}): give the same options to resume it, or another --campaign folder"
                )

    def _read_journal(self, path: Path) -> int:
        """Read the journal's finished batches; the length of its readable part (a torn last line left out)."""
        if not path.exists():
            return 0
        data = path.read_bytes()
        good = 0
        for number, line in enumerate(data.splitlines(keepends=True), 1):
            try:
                if not line.endswith(b"\n"):
                    raise ValueError("no end of line")
                result = json.loads(line)
                index = int(result["batch"])
            except (ValueError, KeyError, TypeError) as error:
                if good + len(line) == len(data):  # the last line, cut short by a run that was killed
                    self.notes.append(
                        f"{path}:{number}: the last line was cut short (a run killed while writing it): "
                        "its batch will be played again"
                    )
                    break
                raise CampaignError(f"{path}:{number}: not a finished batch: {error}") from None
            self.results.setdefault(index, result)  # a batch written twice: the first is kept
            good += len(line)
        return good

    def append(self, result: Mapping[str, Any]) -> None:
        """Keep a finished batch: in the journal (one write, flushed to the disk) and in :attr:`results`."""
        index = int(result["batch"])
        if index in self.results:
            return
        if self._journal is not None:
            line = json.dumps(scrub(dict(result)), ensure_ascii=True, separators=(",", ":")) + "\n"
            os.write(self._journal, line.encode("ascii"))
            os.fsync(self._journal)
        self.results[index] = dict(result)

    # ---------------------------------------------------------------------------- what it found

    def report(self, engine: str, known: Sequence[Known] = ()) -> FuzzReport:
        """Every finished batch as one report, in the order of the batches (so that it does not depend on
        which finished first: the same batches make the same report)."""
        return merged_report(engine, (self.results[index] for index in sorted(self.results)), known)

    def write_derived(self, report: FuzzReport) -> None:
        """Rewrite ``coverage.json`` and ``groups.json`` from ``report`` (:meth:`report`)."""
        if self.folder is None:
            return
        seen, observable, unseen = report.coverage_summary()
        _write_atomically(
            self.folder / "coverage.json",
            {"format": FORMAT, "games": report.games, "hands": report.hands, "batches": len(self.results),
             "seen": seen, "observable": observable, "unseen": unseen, "counts": dict(sorted(report.coverage.items()))},
        )  # fmt: skip
        groups = [
            {
                "cause": {"kind": g.cause.kind, "subject": g.cause.subject, "rule": g.cause.rule},
                "count": g.count,
                "configs": g.configs,
                "known": g.known.reason if g.known else None,
                "example": g.example.record(),
            }
            for g in sorted(report.groups.values(), key=lambda g: (g.cause.kind, g.cause.subject, g.cause.rule))
        ]
        _write_atomically(self.folder / "groups.json", {"format": FORMAT, "groups": groups})


def merged_report(engine: str, results: Iterable[Mapping[str, Any]], known: Sequence[Known] = ()) -> FuzzReport:
    """Batch results (:func:`~guinote_conformance.fuzz.batch.play_batch`) added up in the order given."""
    report = FuzzReport(engine)
    for result in results:
        report.add(report_of(result["report"], engine, known))
    return report


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."


def _write_atomically(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to a new file beside ``path``, then rename it over ``path``."""
    text = json.dumps(scrub(data), indent=1, ensure_ascii=False) + "\n"
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, 0o644)  # (mkstemp's file is private: this one is a report)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


__all__ = ["FORMAT", "Campaign", "CampaignError", "Identity", "file_digest", "merged_report", "recorded"]

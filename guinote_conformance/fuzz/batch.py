"""A batch: the unit of work of ``compare --jobs``, ``--cluster`` and ``--campaign``.

In: a :class:`Batch`, a few games of one configuration (their numbers, ``first`` to
``first + count - 1``) and the steering state to start them from. Out: its result, a JSON-ready
mapping (:func:`play_batch`): the games, hands and actions played, the rule coverage, the uses of
each deal generator and policy, the divergence groups (each with its smallest example as a record),
and why a configuration was not applicable or why the batch stopped. The result is the line the
campaign's journal keeps (:mod:`guinote_conformance.fuzz.campaign`), and :func:`report_of` reads it back
as a :class:`~guinote_conformance.fuzz.findings.FuzzReport`.

A batch is played the same wherever it runs: each game's generator comes from the seed, the
configuration and the game's number, and its steering starts from the state the batch carries (the
coverage the client had merged, :mod:`guinote_conformance.fuzz.driver`) and a generator of its own, seeded
from the seed, the configuration and the batch's first game. Which worker plays it, and what that
worker played before, change nothing.

A worker keeps its engines between batches (:func:`engine_for`, one per engine spec and thread):
a served engine's process is started once per worker, not once per batch.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import random
import threading
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import JSON, Engine, EngineError, EngineInfo
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base.exit_codes import CheckError
from guinote_conformance.base.untrusted import bounded, scrub
from guinote_conformance.fuzz.findings import FuzzReport, Group
from guinote_conformance.fuzz.known import Known, find_known
from guinote_conformance.fuzz.steering import Steering
from guinote_conformance.oracle.divergence import Cause, Config, Divergence

#: The format of a batch's result (a line of the campaign's journal).
RESULT_FORMAT = 1


@dataclass(frozen=True)
class Batch:
    """Games ``first`` to ``first + count - 1`` of ``config``, from the steering state ``seen``
    (the rules seen so far) and ``uses`` (how often each deal generator and policy was chosen)."""

    index: int
    config: Config
    first: int
    count: int
    spec: str
    seed: int = 0
    depth: str = "match"
    steer: bool = True
    known: Sequence[Known] = ()
    timeout: float = 10.0
    max_engine_failures: int = 5
    seen: tuple[str, ...] = ()
    uses: tuple[tuple[str, int], ...] = ()
    #: stop starting games after this ``time.time()`` (a run given ``--seconds``); a batch cut
    #: short says so (``partial``) and a campaign does not keep it
    deadline: float | None = None
    #: seconds the engine has to start and answer its first hello (``--start-timeout``)
    start_timeout: float = STARTUP_TIMEOUT


class EngineUnavailableOnWorker(EngineError):
    """The engine could not be loaded on a worker (the message names the worker and the command)."""


def worker_name() -> str:
    """Who is playing: the Dask worker's name and address, or this process's id."""
    try:
        from distributed import get_worker

        worker = get_worker()
        return f"{worker.name} ({worker.address})" if str(worker.name) != worker.address else worker.address
    except (ImportError, ValueError):
        return f"process {os.getpid()}"


#: This process's engines: (thread, engine spec) -> the engine and what it declared.
_ENGINES: dict[tuple[int, str], tuple[Engine, EngineInfo]] = {}
_LOCK = threading.Lock()


def engine_for(spec: str, timeout: float, start_timeout: float = STARTUP_TIMEOUT) -> tuple[Engine, EngineInfo]:
    """The engine of ``spec`` for this thread, opened at its first batch and kept open after it;
    an engine that cannot be opened is :class:`EngineUnavailableOnWorker`."""
    from guinote_conformance.engines.specs import parse_engine_spec

    key = (threading.get_ident(), spec)
    with _LOCK:
        found = _ENGINES.get(key)
    if found is not None:
        return found
    parsed = None
    try:  # an in-process engine's own exceptions are its failures, as in a run of one job
        parsed = parse_engine_spec(spec)
        engine = parsed.open(timeout=timeout, start_timeout=start_timeout, contained=True)
        info = engine.info()
    except (EngineError, CheckError, OSError, ValueError) as error:  # (CheckError: a factory or import that failed)
        command = " ".join(parsed.protocol_argv()) if parsed is not None and not parsed.in_process else ""
        where = f"the command {command!r}" if command else f"the engine {spec!r}"
        raise EngineUnavailableOnWorker(
            f"worker {worker_name()} could not start {where}: {bounded(str(error), 1000)}"
            + (" (a served engine must be installed on every worker, at the same path)" if command else "")
        ) from None
    with _LOCK:
        _ENGINES[key] = (engine, info)
    return engine, info


def forget_engine(spec: str) -> None:
    """Close and forget this thread's engine of ``spec`` (after a batch whose engine went down)."""
    with _LOCK:
        found = _ENGINES.pop((threading.get_ident(), spec), None)
    if found is not None:
        with contextlib.suppress(Exception):
            found[0].close()


@atexit.register
def _close_engines() -> None:
    with _LOCK:
        engines = list(_ENGINES.values())
        _ENGINES.clear()
    for engine, _ in engines:
        with contextlib.suppress(Exception):
            engine.close()


def steering_seed(seed: int, config: Config, first: int) -> int:
    """The seed of a batch's own steering generator."""
    return zlib.crc32(f"{seed}:{config.label}:steer:{first}".encode()) & 0x7FFFFFFF


def play_batch(
    batch: Batch, engine: Engine | None = None, progress: Callable[[FuzzReport], None] | None = None
) -> dict[str, Any]:
    """Play ``batch`` (on ``engine``, or on this worker's engine of its spec); its result. ``progress``
    is called after each game with the batch's report so far (a batch played by the client shows its
    findings as they come)."""
    from guinote_conformance.adapters.reference import ReferenceEngine
    from guinote_conformance.fuzz.fuzzer import DOWN_KINDS, Fuzzer

    info = engine.info() if engine is not None else None
    if engine is None:
        engine, info = engine_for(batch.spec, batch.timeout, batch.start_timeout)
    assert info is not None
    fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth=batch.depth, steer=batch.steer, known=batch.known,
                    seed=batch.seed, max_engine_failures=batch.max_engine_failures)  # fmt: skip
    fuzzer.steering = Steering(
        random.Random(steering_seed(batch.seed, batch.config, batch.first)),
        seen=dict.fromkeys(batch.seen, 1),
        uses=dict(batch.uses),
        steer=batch.steer,
    )
    before = dict(batch.uses)
    seconds = None if batch.deadline is None else max(batch.deadline - time.time(), 0.0)
    attempts = [0]

    def count(report: FuzzReport) -> None:
        attempts[0] += 1
        if progress is not None:
            progress(report)

    fuzzer.progress = count
    report = fuzzer.run([batch.config], batch.first + batch.count, seconds=seconds, first=batch.first)
    # cut short by the run's time: not every game was tried, nor did the configuration or the engine end it
    partial = attempts[0] < batch.count and not report.not_applicable and not report.stopped
    down = any(g.cause.kind == "failure" and g.cause.subject in DOWN_KINDS for g in report.groups.values())
    if down:  # the next batch starts the engine anew
        forget_engine(batch.spec)
    uses = {name: count - before.get(name, 0) for name, count in fuzzer.steering.uses.items()}
    result = {
        "format": RESULT_FORMAT,
        "batch": batch.index,
        "config": batch.config.label,
        "first": batch.first,
        "count": batch.count,
        "worker": worker_name(),
        "partial": partial,
        "uses": {name: count for name, count in sorted(uses.items()) if count},
        "report": report_json(report),
    }
    return dict(scrub(result))


def report_json(report: FuzzReport) -> dict[str, JSON]:
    """What a batch found, as JSON (every divergence example as its replayable record)."""
    return {
        "hands": report.hands,
        "games": report.games,
        "actions": report.actions,
        "seconds": round(report.seconds, 4),
        "played": dict(report.played),
        "not_applicable": dict(report.not_applicable),
        "start_failures": dict(report.start_failures),
        "coverage": dict(sorted(report.coverage.items())),
        "strategies": dict(report.strategies),
        "first_divergence": report.first_divergence,
        "stopped": report.stopped,
        "passed_over": report.passed_over,
        "own_shuffle_ends": report.own_shuffle_ends,
        "own_deals": report.own_deals,
        "ended_early": dict(report.ended_early),
        "groups": [
            {
                "cause": [g.cause.kind, g.cause.subject, g.cause.rule],
                "count": g.count,
                "configs": dict(g.configs),
                "first_hand": g.first_hand,
                "ended": g.ended,
                "example": g.example.record(),
            }
            for g in report.groups.values()
        ],
    }


def divergence_of(record: Mapping[str, Any]) -> Divergence:
    """The divergence a record written by :meth:`Divergence.record` holds."""
    config = record["config"]
    found = record["divergence"]
    return Divergence(
        Config(str(config["label"]), dict(config["flags"]), str(config.get("profile", ""))),
        dict(record["setup"]),
        list(record["actions"]),
        Cause(str(found["kind"]), str(found["subject"]), str(found["rule"])),
        found["expected"],
        found["got"],
        int(record.get("seed", 0)),
        str(record.get("strategy", "")),
        passed_over=tuple(record.get("passed_over", ())),
    )


def report_of(data: Mapping[str, Any], engine: str, known: Sequence[Known] = ()) -> FuzzReport:
    """A batch's findings (:func:`report_json`) as a report; each group's known divergence found again in ``known``."""
    report = FuzzReport(engine, hands=int(data["hands"]), games=int(data["games"]), actions=int(data["actions"]),
                        seconds=float(data["seconds"]))  # fmt: skip
    report.played.update(data["played"])
    report.not_applicable.update(data["not_applicable"])
    report.start_failures.update(data["start_failures"])
    report.coverage.update(data["coverage"])
    report.strategies.update(data["strategies"])
    report.first_divergence = data["first_divergence"]
    report.stopped = str(data["stopped"])
    report.passed_over = int(data["passed_over"])
    report.own_shuffle_ends = int(data["own_shuffle_ends"])
    report.own_deals = int(data.get("own_deals", 0))  # (a campaign's batches of an earlier version)
    report.ended_early.update(data.get("ended_early", {}))
    for group in data["groups"]:
        cause = Cause(*(str(part) for part in group["cause"]))
        example = divergence_of(group["example"])
        report.groups[cause] = Group(cause, example, int(group["count"]), dict(group["configs"]),
                                     find_known(known, cause, example.config.label), int(group["first_hand"]),
                                     int(group["ended"]))  # fmt: skip
    return report


__all__ = [
    "Batch",
    "EngineUnavailableOnWorker",
    "divergence_of",
    "engine_for",
    "play_batch",
    "report_json",
    "report_of",
    "worker_name",
]

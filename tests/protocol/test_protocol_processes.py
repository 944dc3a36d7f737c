"""No process the harness starts outlives it, and the protocol's promises are kept.

Every hostile engine here starts children (and grandchildren) that sleep, and writes their pids
to a file; every process of a test also carries a unique value of ``HOSTILE_TEST_MARK`` in its
environment, so a survivor is found even if its pid was never written. A process that is a zombie
(dead, waiting for its new parent to reap it) counts as gone.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters import protocol
from guinote_conformance.adapters.interface import end_game
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import (
    MARK_VARIABLE,
    EngineCrashed,
    EngineFailure,
    EngineTimeout,
    GarbageAnswer,
    SubprocessEngine,
    WrongId,
)
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.engines.explicit_draw import ExplicitDrawEngine
from guinote_conformance.engines.recording import RecordingEngine
from guinote_conformance.run.driver import ScenarioRun

from .conftest import ROOT, EngineFactory, deck_setup, hostile

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds processes through /proc (Linux)"),
]

READERS = ["select", "thread"]
TEST_MARK = "HOSTILE_TEST_MARK"


class Watch:
    """The pid file of one test's hostile engine and the environment that marks its processes."""

    def __init__(self, folder: Path) -> None:
        self.pidfile = folder / "pids"
        self.log = folder / "commands"
        self.value = uuid.uuid4().hex
        self.env = {**os.environ, TEST_MARK: self.value}

    def pids(self) -> list[int]:
        return [int(pid) for pid in self.pidfile.read_text().split()] if self.pidfile.exists() else []

    def marked(self) -> list[int]:
        """Every live process whose environment carries this test's mark."""
        needle = f"{TEST_MARK}={self.value}".encode()
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    environ = Path(f"/proc/{entry}/environ").read_bytes()
                except OSError:
                    continue
                if needle in environ.split(b"\0") and _alive(int(entry)):
                    found.append(int(entry))
        return found

    def survivors(self, pids: list[int] | None = None, wait: float = 3.0) -> list[int]:
        """The processes still alive after at most ``wait`` seconds (a SIGKILL takes a moment)."""
        deadline = time.monotonic() + wait
        while True:
            alive = sorted({*(pid for pid in (self.pids() if pids is None else pids) if _alive(pid)),
                            *(self.marked() if pids is None else ())})  # fmt: skip
            if not alive or time.monotonic() > deadline:
                return alive
            time.sleep(0.05)

    def commands(self) -> list[tuple[int, str]]:
        lines = self.log.read_text().split("\n") if self.log.exists() else []
        return [(int(pid), cmd) for pid, cmd in (line.split(" ", 1) for line in lines if line)]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.fixture
def watch(tmp_path: Path) -> Watch:
    return Watch(tmp_path)


def play(game: object, actions: int) -> None:
    for _ in range(actions):
        legal = game.legal_actions()  # type: ignore[attr-defined]
        game.apply(legal[0])  # type: ignore[attr-defined]


def failure_of(call: Callable[[], object]) -> EngineFailure:
    with pytest.raises(EngineFailure) as caught:
        call()
    return caught.value


# ------------------------------------------------------------------ orphans


@pytest.mark.parametrize(
    ("mode", "kind"), [("crash", EngineCrashed), ("hang", EngineTimeout), ("garbage", GarbageAnswer)]
)
def test_a_failing_engine_takes_its_children_with_it(
    make_engine: EngineFactory, watch: Watch, mode: str, kind: type[EngineFailure]
) -> None:
    engine = make_engine(hostile("spawn_then_fail", str(watch.pidfile), mode), env=watch.env, timeout=0.5)
    game = engine.start(deck_setup())
    first = watch.pids()
    assert len(first) == 2 and watch.survivors(first, wait=0) == sorted(first)  # a child and a grandchild, asleep
    play(game, 1)
    assert isinstance(failure_of(lambda: play(game, 1)), kind)
    assert watch.survivors(first) == []  # killed with the engine, not at the end of the run
    again = engine.start(deck_setup(1))  # relaunched: it starts two more
    play(again, 1)
    assert len(watch.pids()) == 4
    engine.close()
    assert watch.survivors() == []


def test_an_engine_found_dead_between_requests_is_relaunched_without_its_children(
    make_engine: EngineFactory, watch: Watch
) -> None:
    engine = make_engine(hostile("spawn_and_stop", str(watch.pidfile), str(watch.log)), env=watch.env)
    engine.info()
    first = watch.pids()
    assert engine.pid is not None and len(first) == 2
    os.kill(engine.pid, signal.SIGKILL)
    time.sleep(0.2)
    engine.start(deck_setup()).legal_actions()
    assert watch.survivors(first) == []
    assert len(watch.pids()) == 4 and len(watch.survivors(wait=0)) >= 2  # the second launch's, alive
    engine.close()
    assert watch.survivors() == []


def test_an_engine_that_exits_cleanly_after_stop_leaves_no_child(make_engine: EngineFactory, watch: Watch) -> None:
    engine = make_engine(hostile("spawn_and_stop", str(watch.pidfile), str(watch.log)), env=watch.env)
    game = engine.start(deck_setup())
    play(game, 2)
    game.end()
    engine.close()
    assert [cmd for _, cmd in watch.commands()] == ["hello", "start", "legal", "apply", "legal", "apply", "end", "stop"]
    assert len(watch.pids()) == 2
    assert watch.survivors() == []


def test_children_that_leave_the_process_group_are_found_by_the_launch_mark(
    make_engine: EngineFactory, watch: Watch
) -> None:
    engine = make_engine(hostile("setsid_child", str(watch.pidfile)), env=watch.env)
    engine.info()
    pids = watch.pids()
    assert len(pids) == 2
    assert all(os.getpgid(pid) != engine.pid for pid in pids)  # out of the engine's group
    assert MARK_VARIABLE.encode() in Path(f"/proc/{pids[-1]}/environ").read_bytes()
    engine.close()
    assert watch.survivors() == []


def test_an_engine_dropped_without_close_is_killed_with_its_children(watch: Watch) -> None:
    """The finalizer kills the process tree too (a harness that forgets close, or exits)."""
    engine = SubprocessEngine(hostile("spawn_and_stop", str(watch.pidfile), str(watch.log)), env=watch.env)
    engine.info()
    del engine
    import gc

    gc.collect()
    assert len(watch.pids()) == 2
    assert watch.survivors() == []


# ------------------------------------------------------------------ a crash is a crash, at once


@pytest.mark.parametrize("reader", READERS)
def test_a_crash_whose_child_holds_stdout_is_a_crash_within_a_second_or_two(
    make_engine: EngineFactory, watch: Watch, reader: str
) -> None:
    engine = make_engine(hostile("child_holds_stdout", str(watch.pidfile)), env=watch.env, timeout=20.0, reader=reader)
    game = engine.start(deck_setup())
    began = time.monotonic()
    failure = failure_of(game.legal_actions)
    assert time.monotonic() - began < 3.0  # not the 20 s timeout (the engine starts a child first)
    assert isinstance(failure, EngineCrashed)
    message = str(failure)
    assert "exited with status 3" in message and "held open by a process it started" in message
    assert "assertion failed in legal moves" in message  # the stderr tail
    assert '"cmd":"legal"' in message  # the request
    assert watch.survivors() == []  # the child holding the pipe is killed too
    assert engine.start(deck_setup(1)).state("phase") == "free"


# ------------------------------------------------------------------ stop and end


def test_end_reaches_the_engine_through_every_wrapper_and_is_optional(watch: Watch) -> None:
    engine = SubprocessEngine(hostile("spawn_and_stop", str(watch.pidfile), str(watch.log)), env=watch.env)
    wrapped = RecordingEngine(ExplicitDrawEngine(engine))
    try:
        game = wrapped.start(deck_setup())
        end_game(game)
        end_game(game)  # once only
        assert [cmd for _, cmd in watch.commands()].count("end") == 1
        end_game(ReferenceEngine().start(deck_setup()))  # an in-process game without end(): nothing to do
    finally:
        engine.close()


def test_the_driver_ends_a_replaced_game_and_the_scenario_s_game(watch: Watch) -> None:
    engine = SubprocessEngine(hostile("spawn_and_stop", str(watch.pidfile), str(watch.log)), env=watch.env)
    try:
        info = engine.info()
        setup = deck_setup()
        run = ScenarioRun(engine=engine, info=info, profile="lascuarenta", flags=dict(setup["flags"]), setup=setup)
        run.ensure_game()
        run._start(deck_setup(1))  # a game replaced
        run.end_game()
        run.end_game()
        commands = [cmd for _, cmd in watch.commands()]
        assert commands.count("start") == 2 and commands.count("end") == 2
    finally:
        engine.close()


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip


def test_a_parallel_run_stops_every_engine_ends_every_game_and_leaves_no_process(watch: Watch, tmp_path: Path) -> None:
    engine = f"cmd:{sys.executable} {hostile('spawn_and_stop')[1]} {watch.pidfile} {watch.log}"
    done = cli("run", "--engine", engine, "-j", "2", "--area", "deck", "--profile", "lascuarenta",
               "--report-dir", str(tmp_path / "reports"), env=watch.env)  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    commands = watch.commands()
    launched = {pid for pid, cmd in commands if cmd == "hello"}
    stopped = {pid for pid, cmd in commands if cmd == "stop"}
    assert len(launched) >= 3  # the controller's handshake and one engine per worker at least
    assert launched == stopped  # every process got stop, the workers' too
    counts = Counter(cmd for _, cmd in commands)
    assert counts["start"] > 20 and counts["end"] == counts["start"]
    assert len(watch.pids()) == 2 * len(launched)
    assert watch.survivors() == []


# ------------------------------------------------------------------ garbage of every shape


@pytest.mark.parametrize(
    ("kind", "fragment"),
    [
        ("too_deep", f"nested deeper than {protocol.MAX_DEPTH} levels"),
        ("duplicate", "a member name is repeated"),
        ("utf8", "not valid UTF-8"),
        ("surrogate", "surrogate"),
        ("nan", "not JSON"),
        ("infinity", "not JSON"),
        ("huge_number", "infinity"),
        ("escape", "control character"),
    ],
)
def test_garbage_of_any_shape_is_garbage_naming_the_request_with_an_escaped_excerpt(
    make_engine: EngineFactory, kind: str, fragment: str
) -> None:
    engine = make_engine(hostile("odd_json", kind))
    game = engine.start(deck_setup())
    pid = engine.pid
    failure = failure_of(game.legal_actions)
    assert isinstance(failure, GarbageAnswer)
    message = str(failure)
    assert fragment in message
    assert '"cmd":"legal"' in message and '"id":3' in message  # the request, and the answer's excerpt
    assert len(message) < 2000
    assert not any(ord(c) < 32 and c not in "\n\t" for c in message)  # no raw ESC or NUL
    assert pid is not None and not _alive(pid) and not engine.alive  # killed, as for any garbage
    assert engine.start(deck_setup(1)).state("phase") == "free"


def test_the_nesting_bound_itself_is_accepted(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("odd_json", "deep"))
    assert engine.start(deck_setup()).legal_actions() == []


def test_an_id_that_is_a_float_is_a_wrong_id(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("odd_json", "float_id"))
    assert isinstance(failure_of(engine.start(deck_setup()).legal_actions), WrongId)


def test_the_nesting_bound_is_the_one_the_encoder_keeps() -> None:
    """MAX_DEPTH is orjson's own encoding limit: if a new orjson moves it, this says so."""
    deepest: list[object] = []
    for _ in range(protocol.MAX_DEPTH - 1):
        deepest = [deepest]
    assert protocol.decode(protocol.encode({"x": deepest[0]})) is not None  # MAX_DEPTH levels with the object
    with pytest.raises(protocol.NotProtocolJSON, match="nested deeper"):
        protocol.decode(b"[" * (protocol.MAX_DEPTH + 1) + b"]" * (protocol.MAX_DEPTH + 1))
    assert protocol.decode(b'{"a":"\\u003a","b":1}') == {"a": ":", "b": 1}  # an escaped colon is no member
    with pytest.raises(protocol.NotProtocolJSON):
        protocol.decode(b'{"a":"\\u003a","a":1}')


# ------------------------------------------------------------------ py: engines that exit


@pytest.mark.parametrize(
    ("factory", "fragment"),
    [
        ("tests.protocol.exiting_factory:make", "make() raised SystemExit(0)"),
        ("tests.protocol.exiting_factory:make_with_message", "raised SystemExit('no engine here')"),
        ("tests.protocol.exiting_module:make", "importing 'tests.protocol.exiting_module' raised SystemExit(4)"),
    ],
)
def test_a_py_engine_whose_factory_exits_is_an_engine_that_cannot_start(
    factory: str, fragment: str, tmp_path: Path
) -> None:
    done = cli("run", "--engine", f"py:{factory}", "--area", "deck", "-j", "1", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.ENGINE_UNAVAILABLE, done.stdout + done.stderr
    assert fragment in done.stderr and "Traceback" not in done.stderr + done.stdout


# ------------------------------------------------------------------ timeouts name the scenario


def test_a_timeout_is_reported_with_the_scenario_s_file_and_line(watch: Watch, tmp_path: Path) -> None:
    engine = f"cmd:{sys.executable} {hostile('hang', 'start')[1]} start"
    done = cli("run", "--engine", engine, "--scenario", "features/deck.feature:8", "--profile", "lascuarenta",
               "-j", "1", "--timeout", "0.5", "--report-dir", str(tmp_path), env=watch.env)  # fmt: skip
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    assert results and all(result["status"] == "timeout" for result in results)
    for result in results:  # the line of the step that was waiting, as for a failure or an error
        where = re.match(rf"{re.escape(result['feature'])}:(\d+): ", result["message"])
        assert where is not None and int(where.group(1)) >= result["line"], result["message"]
    assert watch.survivors() == []


def test_the_server_passes_end_on_to_a_served_engine_s_game() -> None:
    from guinote_conformance.adapters.reference import ReferenceGame
    from guinote_conformance.adapters.serve import Server

    ended: list[object] = []

    class Ending(ReferenceGame):
        def end(self) -> None:
            ended.append(self)

    class Engine(ReferenceEngine):
        def start(self, setup: Mapping[str, Any]) -> Ending:
            return Ending(super().start(setup).game)

    server = Server(Engine())
    game = server.dispatch({"id": 1, "cmd": "start", "setup": deck_setup()})["game"]
    assert server.dispatch({"id": 2, "cmd": "end", "game": game}) == {"id": 2, "ok": True}
    assert len(ended) == 1
    assert server.dispatch({"id": 3, "cmd": "end", "game": game})["error"] == "unknown_game"
    assert len(ended) == 1

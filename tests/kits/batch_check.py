"""What the kit tests check of the optional command ``batch``, which every kit's protocol loop answers.

Each kit answers ``batch`` on top of the game's own legal, apply and state, and declares the
capability ``batch`` in hello with no line of the engine's author. These checks hold for any kit:

* :func:`assert_batch_equals_one_at_a_time`: on the wire, a ``batch`` answers each action exactly
  as ``apply``, ``legal`` and ``state`` do when asked one at a time, refused actions mid-way
  included (the rest is still applied), a field the engine does not know left out of every
  ``state`` and listed once in ``unknown_fields``, ``step_fields`` honoured; the answer is valid
  under ``batch.response.json``;
* :func:`assert_batch_errors`: an unknown game, a malformed request and an engine failure part-way
  are answered as errors for the whole request, and the engine keeps serving;
* :func:`assert_compare_agrees`: ``compare``'s fuzzer finds the same, hand for hand, with the
  kit's ``batch`` as without it.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from guinote_conformance.adapters.gcp.validation import response_violations
from guinote_conformance.adapters.harness.setups import explicit_deal, field_names
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.fuzzer import Fuzzer

#: Fields no engine knows (the first), or that a kit's skeleton does not answer without the capability.
UNKNOWN = ("no_such_field", "hand_rule", "match.cotos.0")
#: Actions every engine refuses: a card of no Spanish 40-card deck, and an action of no type.
REFUSED: tuple[dict[str, Any], ...] = ({"type": "play", "seat": 0, "card": "9o"}, {"type": "frobnicate"})


class Session:
    """One engine process, spoken to line by line (the exact answers, not the harness's reading of them)."""

    def __init__(self, argv: Sequence[str], cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(
            list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.next_id = 0

    def ask(self, cmd: str, **members: Any) -> dict[str, Any]:
        """Send one request; its answer (checked to echo the id)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.next_id += 1
        self.process.stdin.write(json.dumps({"id": self.next_id, "cmd": cmd, **members}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"the engine closed stdout after {cmd} (exit {self.process.poll()})"
        answer: dict[str, Any] = json.loads(line)
        assert answer["id"] == self.next_id, answer
        return answer

    def ok(self, cmd: str, **members: Any) -> dict[str, Any]:
        answer = self.ask(cmd, **members)
        assert answer["ok"] is True, f"{cmd}: {answer}"
        return answer

    def __enter__(self) -> Session:
        hello = self.ok("hello", protocol=2)
        assert "batch" in hello["engine"]["capabilities"], hello["engine"]["capabilities"]
        self.engine: dict[str, Any] = hello["engine"]
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                assert self.ask("stop")["ok"] is True
        finally:
            if self.process.stdin is not None:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()


def a_setup(engine: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """An explicit deal under the engine's first profile (every kit takes explicit deals)."""
    flags = next(iter(engine["profiles"].values()))
    return {"flags": flags, "dealer": 0, **explicit_deal(flags, seed)}


def one_at_a_time(
    session: Session, setup: Mapping[str, Any], fields: Sequence[str], actions: Sequence[dict[str, Any]] | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play a game with one request per call: the actions played (``actions``, or chosen among the legal
    ones, with a refused one now and then) and, for the state before them and after each, what apply
    answered, the legal actions and every field (an unknown one as ``None``, the key present)."""
    game = session.ok("start", setup=setup)["game"]

    def snapshot() -> dict[str, Any]:
        state: dict[str, Any] = {}
        for name in fields:
            answer = session.ask("state", game=game, field=name)
            if answer["ok"]:
                state[name] = answer["value"]
            else:
                assert answer["error"] == "unknown_field", answer
                state[name] = UnknownName(name)
        return {"legal": session.ok("legal", game=game)["actions"], "state": state}

    steps, played = [snapshot()], []
    for number in range(len(actions) if actions is not None else 80):
        legal = steps[-1]["legal"]
        if actions is not None:
            action = actions[number]
        elif number % 5 == 3 or not legal:
            action = REFUSED[number % 2]
        else:
            action = legal[(number * 7) % len(legal)]
        answer = session.ok("apply", game=game, action=action)
        del answer["id"], answer["ok"]
        played.append(action)
        steps.append({**answer, **snapshot()})
        if actions is None and steps[-1]["state"].get("phase") in ("hand_over", "match_over"):
            break
    session.ok("end", game=game)
    return played, steps


class UnknownName(str):
    """A field the engine answered ``unknown_field`` for (at one step)."""


def expected_batch(steps: Sequence[dict[str, Any]], names: Sequence[Sequence[str]]) -> tuple[list[Any], set[str]]:
    """The snapshots a batch should answer (``names[i]``: the fields asked at step ``i``), and its unknown fields."""
    unknown = {name for step, asked in zip(steps, names, strict=True) for name in asked if isinstance(
        step["state"][name], UnknownName)}  # fmt: skip
    shaped = []
    for step, asked in zip(steps, names, strict=True):
        state = {name: step["state"][name] for name in asked if name not in unknown}
        shaped.append({**step, "state": state})
    return shaped, unknown


def assert_batch_equals_one_at_a_time(argv: Sequence[str], cwd: Path | None = None, *, seeds: int = 2) -> None:
    """A ``batch`` answers what the same actions answer one request at a time (see the module docstring)."""
    with Session(argv, cwd) as session:
        fields = list(dict.fromkeys([*field_names(int(session.engine["flags"]["players"][0])), *UNKNOWN]))
        for seed in range(seeds):
            setup = a_setup(session.engine, seed)
            actions, steps = one_at_a_time(session, setup, fields, None)
            refused = [step for step in steps[1:] if step["accepted"] is False]
            assert refused and steps[-1]["accepted"] is True and len(actions) > 20, "the game shows too little"
            # every field at every step, then fewer fields, a different list at each step
            step_fields = [[name for index, name in enumerate(fields) if (index + number) % 3] for number in
                           range(len(actions))]  # fmt: skip
            for per_step in (None, step_fields):
                game = session.ok("start", setup=setup)["game"]
                request: dict[str, Any] = {"game": game, "actions": actions, "fields": fields}
                if per_step is not None:
                    request["step_fields"] = per_step
                answer = session.ok("batch", **request)
                violations = response_violations("batch", answer)
                assert not violations, violations
                names = [fields, *(per_step or [fields] * len(actions))]
                expected, unknown = expected_batch(steps, names)
                assert set(answer.get("unknown_fields", [])) == unknown and "no_such_field" in unknown
                assert len(answer.get("unknown_fields", [])) == len(unknown), "an unknown field listed twice"
                assert answer["before"] == expected[0]
                assert len(answer["steps"]) == len(actions)
                for number, (got, wanted) in enumerate(zip(answer["steps"], expected[1:], strict=True)):
                    assert got == wanted, f"step {number} ({actions[number]}): batch {got} != one at a time {wanted}"
                session.ok("end", game=game)
            # the game a batch played goes on as the one played one request at a time
            game = session.ok("start", setup=setup)["game"]
            half = len(actions) // 2
            session.ok("batch", game=game, actions=actions[:half], fields=[])
            rest = session.ok("batch", game=game, actions=actions[half:], fields=["phase"])
            assert [step["legal"] for step in rest["steps"]] == [step["legal"] for step in steps[half + 1 :]]
            session.ok("end", game=game)


def assert_batch_errors(argv: Sequence[str], cwd: Path | None = None) -> None:
    """Errors of a ``batch`` fail the whole request, as the reference server answers them; the engine serves on."""
    with Session(argv, cwd) as session:
        assert session.ask("batch", game="nope", actions=[], fields=[])["error"] == "unknown_game"
        game = session.ok("start", setup=a_setup(session.engine, 0))["game"]
        malformed: list[dict[str, Any]] = [
            {"fields": []},
            {"actions": {"type": "draw"}, "fields": []},
            {"actions": [{"type": "draw"}, 3], "fields": []},
            {"actions": [], "fields": "phase"},
            {"actions": [], "fields": [1]},
            {"actions": [{"type": "draw"}], "fields": [], "step_fields": []},
            {"actions": [{"type": "draw"}], "fields": [], "step_fields": [[2]]},
        ]
        for members in malformed:
            answer = session.ask("batch", game=game, **members)
            assert answer["ok"] is False and answer["error"] == "bad_request", (members, answer)
            assert answer["message"], answer
        empty = session.ok("batch", game=game, actions=[], fields=["phase"])
        assert empty["steps"] == [] and empty["before"]["state"] == {"phase": "free"}
        session.ok("end", game=game)


def summary(report: Any) -> dict[str, Any]:
    """What a fuzzing run found, comparable between two runs of the same games."""
    groups = {str(cause): (group.count, group.ended, group.first_hand) for cause, group in report.groups.items()}
    return {
        "hands": report.hands, "games": report.games, "actions": report.actions, "groups": groups,
        "passed_over": report.passed_over, "ended_early": dict(report.ended_early), "stopped": report.stopped,
        "first_divergence": report.first_divergence, "coverage": dict(report.coverage),
    }  # fmt: skip


def assert_compare_agrees(argv: Sequence[str], cwd: Path | None = None, *, games: int = 12) -> None:
    """``compare``'s fuzzer finds the same against the kit with ``batch`` as one request at a time."""
    found = []
    for batch in (True, False):
        engine = SubprocessEngine(list(argv), timeout=20.0, startup_timeout=30.0, cwd=None if cwd is None else str(cwd))
        try:
            info = engine.info()
            assert "batch" in info.capabilities
            fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth="hand", seed=11, batch=batch)
            found.append(summary(fuzzer.run([resolve(info, name) for name in info.profiles], games)))
        finally:
            engine.close()
    assert found[0]["hands"] >= games and found[0]["groups"], "the skeleton's known divergences were not found"
    assert found[0] == found[1]

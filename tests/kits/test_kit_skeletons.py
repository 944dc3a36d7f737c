"""The single-file kits (kits/python, kits/node): their protocol loop answers ``batch`` for any game.

Their ``Game`` is a stub for the author to fill in, so the loop is checked around a toy game put in
its place in a scratch copy (the lines between ``class Game`` and the loop's banner): four seats
play their cards in turn, anything else is refused. The toy hands out its own lists and changes
them in place afterwards, forgets a field after the first card (``muestra``: unknown late) and
fails on a ``tute``: what a real engine may do, and the batch must answer as one request at a time
would. The untouched stubs declare ``batch`` too (:func:`test_the_untouched_stub_declares_batch`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kits.batch_check import Session, a_setup, assert_batch_equals_one_at_a_time, assert_batch_errors
from tests.kits.conftest import KITS, toolchain

PYTHON_TOY = '''
class Game:
    """A toy: the seats play their cards in turn, any card; it fails on a tute."""

    def __init__(self, setup):
        self.hands = [list(hand) for hand in setup["hands"]]
        self.turn, self.played, self.trick = 0, 0, []

    def legal(self):
        if self.played == 24:
            return []
        return [{"type": "play", "seat": self.turn, "card": card} for card in self.hands[self.turn]]

    def apply(self, action):
        if action.get("type") == "tute":
            raise RuntimeError("the toy fails on a tute")
        if action not in self.legal():
            return {"accepted": False, "code": "NOT_LEGAL", "message": "not legal: " + json.dumps(action)}
        self.hands[self.turn].remove(action["card"])
        if len(self.trick) == 4:
            self.trick.clear()
        self.trick.append(action["card"])
        self.played, self.turn = self.played + 1, (self.turn + 1) % 4
        return {"accepted": True, "events": [{"type": "card_played", "seat": action["seat"], "card": action["card"]}]}

    def state(self, field):
        if field == "phase":
            return "hand_over" if self.played == 24 else "free"
        if field == "turn":
            return None if self.played == 24 else self.turn
        if field == "trick":
            return self.trick
        if field == "muestra" and self.played == 0:
            return None
        if field in ("hand.0", "hand.1", "hand.2", "hand.3"):
            return self.hands[int(field[-1])]
        raise UnknownField(field)
'''

NODE_TOY = """
class Game {
  constructor(setup) {
    this.hands = setup.hands.map((hand) => [...hand]);
    this.turn = 0;
    this.played = 0;
    this.trick = [];
  }

  legal() {
    if (this.played === 24) return [];
    return this.hands[this.turn].map((card) => ({ type: 'play', seat: this.turn, card }));
  }

  apply(action) {
    if (action.type === 'tute') throw new Error('the toy fails on a tute');
    const same = (a) => JSON.stringify(a) === JSON.stringify(action);
    const message = `not legal: ${JSON.stringify(action)}`;
    if (!this.legal().some(same)) return { accepted: false, code: 'NOT_LEGAL', message };
    const hand = this.hands[this.turn];
    hand.splice(hand.indexOf(action.card), 1);
    if (this.trick.length === 4) this.trick.length = 0;
    this.trick.push(action.card);
    this.played += 1;
    this.turn = (this.turn + 1) % 4;
    return { accepted: true, events: [{ type: 'card_played', seat: action.seat, card: action.card }] };
  }

  state(field) {
    if (field === 'phase') return this.played === 24 ? 'hand_over' : 'free';
    if (field === 'turn') return this.played === 24 ? null : this.turn;
    if (field === 'trick') return this.trick;
    if (field === 'muestra' && this.played === 0) return null;
    if (['hand.0', 'hand.1', 'hand.2', 'hand.3'].includes(field)) return this.hands[Number(field.slice(-1))];
    throw new UnknownField(field);
  }
}
"""

#: The stub's Game class, up to the protocol loop's banner.
GAME = re.compile(r"^class Game\b.*?(?=^(?:# |// )-{10,})", re.MULTILINE | re.DOTALL)

SKELETONS = {
    "python": ("python/skeleton_engine.py", PYTHON_TOY, [sys.executable]),
    "node": ("node/skeleton_engine.js", NODE_TOY, ["node"]),
}


def _with_toy(language: str, into: Path) -> list[str]:
    """The command of a copy of the kit whose Game is the toy."""
    path, toy, interpreter = SKELETONS[language]
    if language == "node":
        toolchain("node", install="apt-get install nodejs")
    source = (KITS / path).read_text(encoding="utf-8")
    replaced, count = GAME.subn(lambda _: toy.lstrip("\n") + "\n\n", source)
    assert count == 1, f"no Game class before the protocol loop's banner in kits/{path}"
    target = into / Path(path).name
    target.write_text(replaced, encoding="utf-8")
    return [*interpreter, str(target)]


@pytest.mark.parametrize("language", sorted(SKELETONS))
def test_batch_answers_as_one_request_at_a_time(language: str, tmp_path: Path) -> None:
    argv = _with_toy(language, tmp_path)
    assert_batch_equals_one_at_a_time(argv, seeds=1)
    assert_batch_errors(argv)


@pytest.mark.parametrize("language", sorted(SKELETONS))
def test_a_failure_part_way_fails_the_whole_batch_and_the_engine_serves_on(language: str, tmp_path: Path) -> None:
    with Session(_with_toy(language, tmp_path)) as session:
        game = session.ok("start", setup=a_setup(session.engine, 0))["game"]
        first = session.ok("legal", game=game)["actions"][0]
        answer = session.ask("batch", game=game, actions=[first, {"type": "tute", "seat": 1, "rank": "R"}], fields=[])
        assert answer["ok"] is False and answer["error"] == "engine_error", answer
        assert "the toy fails on a tute" in answer["message"]
        assert session.ok("state", game=game, field="trick")["value"] == [first["card"]]  # applied before the failure


@pytest.mark.parametrize("language", sorted(SKELETONS))
def test_the_untouched_stub_declares_batch(language: str) -> None:
    path, _, interpreter = SKELETONS[language]
    toolchain(interpreter[0], install="apt-get install nodejs" if interpreter[0] == "node" else "a Python 3.11")
    requests = [{"id": 1, "cmd": "hello", "protocol": 2}, {"id": 2, "cmd": "batch", "game": "g1", "actions": [],
                "fields": []}, {"id": 3, "cmd": "stop"}]  # fmt: skip
    done = subprocess.run(
        [*interpreter, str(KITS / path)],
        input="".join(json.dumps(request) + "\n" for request in requests),
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    assert answers[0]["engine"]["capabilities"] == ["batch"]
    assert answers[1]["error"] == "unknown_game"
    assert answers[2] == {"id": 3, "ok": True}

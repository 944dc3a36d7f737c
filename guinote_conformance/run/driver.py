"""The scenario driver: what the Gherkin steps do, expressed as calls on the engine interface.

One :class:`ScenarioRun` lives for one scenario under one profile. ``Given`` steps build a
setup (a deal, a deck order or a mid-hand position: :class:`~guinote_conformance.run.scenario_setup.ScenarioSetup`,
which it extends); the game starts lazily at the first ``When``/``Then`` step. Step definitions
stay one line each: they parse their text and call a method here.

In: the started game and the text of the ``When``/``Then`` steps. Out: the actions applied and
their outcomes, and each check's verdict: an ``AssertionError`` worded "what: expected X, got Y"
(read by :mod:`guinote_conformance.run.verdict`), a check the protocol does not require of the engine
noted as not made, or :class:`~guinote_conformance.results.status.NotApplicable`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.adapters.gcp.json_text import same_value
from guinote_conformance.adapters.interface import JSON, OWN_SHUFFLE, Accepted, GameHandle, Outcome, Rejected
from guinote_conformance.adapters.obligations import NEEDS_REASON_CODES
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.engines.explicit_draw import PartlyKnown
from guinote_conformance.oracle.divergence import describe_action
from guinote_conformance.results.status import NotApplicable
from guinote_conformance.run.scenario_setup import ScenarioSetup, normal


@dataclass
class ScenarioRun(ScenarioSetup):
    outcome: Outcome | None = None
    last_action: dict[str, Any] | None = None
    events: list[dict[str, JSON]] = field(default_factory=list)
    #: the checks of the Then steps not made, each "line: what: why" (what the protocol does not
    #: require of this engine: a reason code, a rule ID, a field of a capability it lacks)
    unchecked: list[str] = field(default_factory=list)
    #: the lines of the scenario's Then steps run so far (the plugin notes them), and the lines
    #: where a check was made
    then_lines: list[int] = field(default_factory=list)
    checked_lines: set[int] = field(default_factory=set)

    def not_checked(self, what: str, why: str) -> None:
        """Note a check of a Then step that the protocol does not let the suite make of this engine."""
        self.unchecked.append(f"{self.location.line}: {what}: {why}")

    def nothing_checked(self) -> str | None:
        """Why the scenario checked nothing (every Then step asked what the protocol does not
        require of this engine), or ``None``: such a run is not applicable, never a pass."""
        unchecked = {int(note.partition(":")[0]) for note in self.unchecked}
        lines = set(self.then_lines)
        if not lines or not lines <= unchecked or lines & self.checked_lines:
            return None
        return "nothing it checks is required of this engine: " + "; ".join(
            note.partition(": ")[2] for note in self.unchecked
        )

    # ------------------------------------------------------------------ running

    def _check_new_point(self, game: GameHandle, action: Mapping[str, Any], what: str) -> None:
        """A deal after a point was won starts a new point: a question for the match."""
        if (
            action.get("type") == "deal"
            and game.state("phase") == "hand_over"
            and game.state("hand_winner") is not None
        ):
            self.need_match(what)

    def act(self, action: dict[str, Any]) -> Outcome:
        game = self.ensure_game()
        if action.get("type") == "deal" and (action.get("deck") or "hands" in action):
            self.need_cards_of_next_hand("deals the next hand")
        self._check_new_point(game, action, "deals the first hand of a new point")
        self.last_action = action
        self.outcome = game.apply(action)
        if isinstance(self.outcome, Accepted):
            self.events.extend(self.outcome.events)
        return self.outcome

    def deal_next(self, order: list[str]) -> None:
        """Deal the next hand from the deck order ``order``, top card first.

        An engine that deals its own way refuses deck orders: it is given the same cards as the
        explicit form of the deal (the hands the rules deal from ``order``, the muestra, the
        stock). A scenario about dealing itself (a ``DEAL-`` rule) is then not applicable. An
        engine that refuses both forms once the hand is over deals the next hand itself: the run
        is not applicable (:meth:`~guinote_conformance.run.scenario_setup.ScenarioSetup.next_deal_refused`)."""
        game = self.ensure_game()
        action: dict[str, Any] = {"type": "deal", "deck": order}
        outcome = self.act(action)
        if isinstance(outcome, Rejected) and game.state("phase") == "hand_over":
            explicit = self._explicit_next(game, order)
            if explicit is not None and isinstance(self.act(explicit), Accepted):
                if any(rule.startswith("DEAL-") for rule in self.rules):
                    raise NotApplicable(
                        "the scenario deals the next hand from a deck order; the engine refuses deck orders "
                        "(it took the explicit deal of the same cards)"
                    )
                return
        self._dealt_next(game, action, outcome)

    def deal_next_explicit(self, cards: Mapping[str, Any]) -> None:
        """Deal the next hand as its explicit form ``cards`` (hands, muestra, stock); an engine
        that refuses it once the hand is over is given the deck order of the same cards."""
        game = self.ensure_game()
        action: dict[str, Any] = {"type": "deal", **cards}
        outcome = self.act(action)
        if isinstance(outcome, Rejected) and game.state("phase") == "hand_over":
            as_deck = self._order_next(game, cards)
            if as_deck is not None and isinstance(self.act(as_deck), Accepted):
                return
        self._dealt_next(game, action, outcome)

    def _dealt_next(self, game: GameHandle, action: Mapping[str, Any], outcome: Outcome) -> None:
        """The next hand's deal done, or its refusal: not applicable when it is of the cards
        (:meth:`next_deal_refused`), else a failure."""
        if isinstance(outcome, Rejected):
            refused = self.next_deal_refused(game)
            if refused is not None:
                raise refused
            raise AssertionError(
                f"expected {describe_action(action, gerund=True)} to be accepted, but it was refused: "
                f"{outcome.code} {outcome.rule} {outcome.message}".rstrip()
            )

    def attempt_deal_next(self, order: list[str]) -> Outcome:
        """Ask for the next hand's deal from ``order``, accepted or not (a refusal is the answer the
        scenario checks). An engine that deals its own way refuses any deck order (as BAD_ACTION, or
        with a code of its own when it gives none of the suite's): it is asked again with the explicit
        form of the same cards, as :meth:`deal_next` does, and then with no cards (a deal in "any
        order", the form an engine that deals the next hand itself takes: the only one asked of an
        engine that declares ``own_shuffle``), so that the answer is about the deal, not its cards."""
        game = self.ensure_game()
        if OWN_SHUFFLE in self.info.capabilities:
            return self.act({"type": "deal", "deck": []})
        outcome = self.act({"type": "deal", "deck": order})
        own_codes = not self.obligations.gives_reason_code("BAD_ACTION")
        for form in ("explicit", "none"):
            if not (isinstance(outcome, Rejected) and (outcome.code == "BAD_ACTION" or own_codes)):
                break
            retry = (
                self._explicit_next(game, order, any_dealer=True)
                if form == "explicit"
                else {"type": "deal", "deck": []}
            )
            if retry is not None:
                outcome = self.act(retry)
        return outcome

    def must(self, action: dict[str, Any]) -> list[dict[str, JSON]]:
        """Apply an action the scenario expects to be accepted."""
        outcome = self.act(action)
        if isinstance(outcome, Rejected):
            raise AssertionError(
                f"expected {describe_action(action, gerund=True)} to be accepted, but it was refused: "
                f"{outcome.code} {outcome.rule} {outcome.message}".rstrip()
            )
        return outcome.events

    def play_tricks(self, rows: Sequence[Sequence[str]]) -> None:
        """Each row is one trick, cards in playing order from the leader; a pending draw is made first."""
        for row in rows:
            cards = self.cards(" ".join(row))
            if len(cards) != self.players:
                raise self.fail_input(f"a trick has {self.players} cards, this row has {len(cards)}: {' '.join(row)}")
            if self.state("draw_pending"):
                self.must({"type": "draw"})
            for card in cards:
                turn = self.state("turn")
                self.must({"type": "play", "seat": turn, "card": card})

    def play_out(self) -> None:
        """Play the rest of the hand: draws when due, each seat its first legal card in deck order."""
        order = {code: index for index, code in enumerate(deck_codes(self.deck_size))}
        for _ in range(10 * self.deck_size):
            phase = self.state("phase")
            if phase not in ("free", "arrastre"):
                return
            if self.state("draw_pending"):
                self.must({"type": "draw"})
                continue
            turn = self.state("turn")
            plays = [a for a in self.legal() if a.get("type") == "play" and a.get("seat") == turn]
            if not plays:
                raise AssertionError(f"seat {turn} has no legal card to play in phase {phase}")
            self.must(min(plays, key=lambda a: order[str(a["card"])]))
        raise AssertionError("the hand did not end")

    def legal(self) -> list[dict[str, JSON]]:
        return [dict(action) for action in self.ensure_game().legal_actions()]

    def state(self, name: str) -> JSON:
        why = self.obligations.field(name)
        if why is not None:
            raise NotApplicable(f"the scenario reads the state field {name}, which {why}")
        return self.ensure_game().state(name)

    def expect_field(self, name: str, expected: JSON) -> None:
        """The Then step on a state field: checked when the protocol requires the field of the engine."""
        why = self.obligations.field(name, expected)
        if why is not None:
            self.ensure_game()
            self.not_checked(f"state field {name}", why)
            return
        self.expect_equal(f"state field {name}", expected, self.ensure_game().state(name))

    def expect_member(self, kind: str, member: str, expected: JSON) -> None:
        """The Then step on a member of the last ``kind`` event: checked when it is required of the engine."""
        event = self.last_event(kind)
        why = self.obligations.member(kind, member, expected)
        if why is not None:
            self.not_checked(f"member {member} of the {kind} event", why)
            return
        self.expect_equal(f"member {member} of the {kind} event", expected, event.get(member))

    def observation(self, seat: int, name: str) -> JSON:
        if "observations" not in self.info.capabilities:
            raise NotApplicable(
                "the scenario checks a player's observation; the engine lacks the 'observations' capability"
            )
        return self.ensure_game().observation(seat, name)

    def last_event(self, kind: str) -> dict[str, JSON]:
        for event in reversed(self.events):
            if event.get("type") == kind:
                return event
        raise AssertionError(f"no {kind!r} event happened; events so far: {[e.get('type') for e in self.events]}")

    # ------------------------------------------------------------------ checks

    def expect_refused(self, code: str | None = None, rule: str | None = None) -> None:
        outcome = self.outcome
        if outcome is None:
            raise self.fail_input("'is refused' needs a preceding 'tries to' step")
        assert self.last_action is not None
        doing = describe_action(self.last_action, gerund=True)
        if isinstance(outcome, Accepted):
            wanted = f" as {code}" if code else ""
            raise AssertionError(f"expected {doing} to be refused{wanted}, but it was accepted")
        if code and self.obligations.gives_reason_code(code, rule):  # reason_codes, or reason_codes_<area>
            assert outcome.code == code, f"{doing} was refused as {outcome.code}, expected {code}"
            if rule:
                assert rule in outcome.rule.split(" / ") or outcome.rule == rule, (
                    f"{doing} was refused under rule {outcome.rule or '(none)'}, expected {rule}"
                )
        elif code:
            self.not_checked(f"reason code {code}" + (f" under rule {rule}" if rule else ""), NEEDS_REASON_CODES)
        self.checked_lines.add(self.location.line)  # the refusal itself is checked

    def expect_hand_end(self, reason: str | None, rule: str | None) -> None:
        """The last hand ended (a ``hand_over`` event), for ``reason`` of the vocabulary if given,
        under ``rule`` if given and the engine gives the suite's rule IDs for that rule's area."""
        event = self.last_event("hand_over")
        self.checked_lines.add(self.location.line)  # the hand's end itself is checked
        if reason:
            self.expect_equal("reason the hand ended", reason, event.get("reason"))
        if rule and self.obligations.gives_rule(rule):
            self.expect_equal("rule under which the hand ended", rule, event.get("rule"))
        elif rule:
            self.not_checked(f"rule {rule} of the hand's end", NEEDS_REASON_CODES)

    def expect_accepted(self) -> None:
        if self.outcome is None or self.last_action is None:
            raise self.fail_input("'is accepted' needs a preceding 'tries to' step")
        if isinstance(self.outcome, Rejected):
            refusal = f"{self.outcome.code} {self.outcome.message}"
            doing = describe_action(self.last_action, gerund=True)
            raise AssertionError(f"expected {doing} to be accepted, but it was refused: {refusal}")

    def expect_equal(self, what: str, expected: Any, got: Any) -> None:
        self.checked_lines.add(self.location.line)
        if not same_value(normal(expected), normal(got)):  # (not !=: a field that is false is not 0)
            raise AssertionError(f"{what}: expected {json.dumps(expected)}, got {json.dumps(got)}")

    def has_action(self, action: Mapping[str, Any]) -> bool:
        wanted = dict(action)
        game = self.ensure_game()
        self._check_new_point(game, wanted, "asks whether the first hand of a new point may be dealt")
        if isinstance(game, PartlyKnown):
            why = game.unknowable(wanted)
            if why is not None:
                raise NotApplicable(why)
        return any(all(candidate.get(k) == v for k, v in wanted.items()) for candidate in self.legal())

    def playable(self, seat: int) -> list[str]:
        return sorted(str(a["card"]) for a in self.legal() if a.get("type") == "play" and a.get("seat") == seat)

"""The setup of a scenario run: what its ``Given`` steps build, and how the game starts from it.

``Given`` steps build a setup (a deal, a deck order or a mid-hand position); the game starts
lazily at the first ``When``/``Then`` step (:meth:`ScenarioSetup.ensure_game`): the setup is
given to the engine, or, for a position, loaded (capability ``positions``) or reached by play
(the stored realisation's deal and actions, each checked against the reference's).

In: the engine and the profile's flags of one run, and the text of the ``Given`` steps (cards,
suits, seats, deal tables). Out: the started game, or the reason the scenario cannot run: a
scenario that is itself wrong (:class:`FeatureInputError`, with file:line), an engine that parted
from the reference on the way to the position (:class:`PrefixDivergence`), or a capability the
engine lacks (:class:`~guinote_conformance.results.status.NotApplicable`). The ``When``/``Then`` steps
are :mod:`guinote_conformance.run.driver`'s.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guinote_conformance.adapters.interface import (
    JSON,
    OWN_SHUFFLE,
    Accepted,
    Engine,
    EngineInfo,
    GameHandle,
    Rejected,
    SetupRejected,
    UnknownField,
    end_game,
)
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.vocabulary import EVENT_RULES, SUITS, NotationError, card_code, deck_codes
from guinote_conformance.catalogue.spanish import english_label
from guinote_conformance.oracle.divergence import describe_action
from guinote_conformance.oracle.steps import event_difference
from guinote_conformance.results.status import NotApplicable
from guinote_conformance.run import realisations
from guinote_conformance.run.position import Realisation, Replay, compared_fields, read_field


class FeatureInputError(Exception):
    """A scenario that is itself wrong (unknown card, card dealt twice...), with file:line."""


class PrefixDivergence(AssertionError):
    """The engine parted from the reference while the suite reached the scenario's position by play.

    Told apart from a failure of the scenario's own steps: the engine "diverged while reaching the
    position" rather than "broke the rule under test"."""


#: How a scenario's mid-hand position is set up: ``load`` it (capability ``positions``),
#: ``realise`` it by dealing and playing the stored realisation, or ``auto``: load it when the
#: engine can, realise it otherwise.
POSITION_SETUPS = ("auto", "load", "realise")

#: Finds the realisation of a run's position and the reference's replay of it (the plugin's).
Realiser = Callable[["ScenarioSetup"], tuple[Realisation, Replay]]


#: Why a run that deals the next hand from its cards is not applicable to an engine that refuses
#: them in every form (:meth:`ScenarioSetup.next_deal_refused`), and what the engine should say.
NEXT_DEAL_REFUSED = "the scenario deals the next hand from the cards it gives; the engine refused them in every form"
OWN_SHUFFLE_HINT = (
    f"an engine that deals the next hand itself declares the capability '{OWN_SHUFFLE}' and takes the deal with "
    "no cards (docs/checking/protocol.md, The next hand)"
)


def own_shuffle_reason(what: str) -> str:
    """Why a run that gives the next hand's cards (``what`` it does) is not applicable to an
    engine that declares ``own_shuffle`` (the words the run and its opening summary share)."""
    return f"the scenario {what}; the engine deals it from its own shuffle ('{OWN_SHUFFLE}')"


SUIT_WORDS = {name: code for code, name in SUITS.items()}
DECK_ORDER_NOTE = "deck order: oros, copas, espadas, bastos; in each suit A 2 3 4 5 6 7 (8 9) S C R"


@dataclass
class Location:
    path: str = "?"
    line: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class ScenarioSetup:
    engine: Engine
    info: EngineInfo
    profile: str
    flags: dict[str, str]
    location: Location = field(default_factory=Location)
    setup: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    setup_line: Location = field(default_factory=Location)
    game: GameHandle | None = None
    scenario: str = ""
    feature: Path | None = None
    position_setup: str = "auto"
    realiser: Realiser | None = None
    #: the rule IDs the scenario is tagged with
    rules: tuple[str, ...] = ()

    @property
    def obligations(self) -> Obligations:
        """What the protocol requires of the engine under test (what may be compared)."""
        return Obligations.of(self.info)

    # ------------------------------------------------------------------ input parsing

    def fail_input(self, message: str) -> FeatureInputError:
        return FeatureInputError(f"{self.location}: {message}")

    def card(self, text: str) -> str:
        try:
            code = card_code(text)
        except NotationError as error:
            raise self.fail_input(str(error)) from None
        if code not in deck_codes(self.deck_size):
            raise self.fail_input(f"card {code} is not in the {self.deck_size}-card deck")
        return code

    def cards(self, text: str) -> list[str]:
        """Space-separated cards; ``-`` means none."""
        words = text.replace(",", " ").split()
        if words == ["-"]:
            return []
        return [self.card(word) for word in words]

    def suit(self, word: str) -> str:
        key = word.strip().lower()
        if key in SUIT_WORDS:
            return SUIT_WORDS[key]
        if key in SUITS:
            return key
        raise self.fail_input(f"unknown suit {word!r}; suits are oros, copas, espadas, bastos")

    def seat(self, number: int) -> int:
        if not 0 <= number < self.players:
            raise self.fail_input(
                f"seat {number} does not exist at a {self.players}-player table (seats 0..{self.players - 1})"
            )
        return number

    @property
    def players(self) -> int:
        return int(self.flags.get("players", "4"))

    @property
    def deck_size(self) -> int:
        return int(self.flags.get("deck", "40"))

    # ------------------------------------------------------------------ setups

    def _check_not_started(self) -> None:
        if self.game is not None:
            raise self.fail_input("a Given step that sets up the game must come before the first When/Then step")

    def _rest_of_deck(self, used: Sequence[str]) -> list[str]:
        taken = set(used)
        return [code for code in deck_codes(self.deck_size) if code not in taken]

    def _check_unique(self, cards: Sequence[str]) -> None:
        seen: set[str] = set()
        for code in cards:
            if code in seen:
                raise self.fail_input(f"card {code} is dealt twice")
            seen.add(code)

    def deal_from_deck(self, dealer: int, rows: Sequence[Sequence[str]]) -> None:
        """A deck order, top first; a final ``...`` stands for the rest of the deck in order."""
        self._check_not_started()
        order: list[str] = []
        rest = False
        for row in rows:
            for cell in row:
                for word in cell.split():
                    if word == "...":
                        rest = True
                    else:
                        order.append(self.card(word))
        self._check_unique(order)
        if rest:
            order += self._rest_of_deck(order)
        if len(order) != self.deck_size:
            raise self.fail_input(
                f"the deck has {len(order)} cards, expected {self.deck_size} (end it with '...' for the rest)"
            )
        self.setup = {"dealer": self.seat(dealer), "deck": order}
        self.setup_line = Location(self.location.path, self.location.line)

    def _seat_rows(self, rows: Sequence[Sequence[str]], labels: Sequence[str]) -> dict[str, list[str]]:
        parsed: dict[str, list[str]] = {}
        for row in rows:
            if len(row) != 2:
                raise self.fail_input(
                    f"each row has two cells: a label ({', '.join(labels)}) and cards; got {list(row)}"
                )
            label = english_label(row[0].strip().lower())  # a Spanish table's labels (jugador 2, mazo)
            if label not in labels:
                raise self.fail_input(f"unknown row {row[0]!r}; rows are {', '.join(labels)}")
            if label in parsed:
                raise self.fail_input(f"row {row[0]!r} is given twice")
            words = row[1].split()
            rest = words[-1:] == ["..."]
            parsed[label] = self.cards(" ".join(words[:-1] if rest else words)) + (["..."] if rest else [])
        return parsed

    def explicit_deal(self, dealer: int, rows: Sequence[Sequence[str]]) -> None:
        """Hands per seat, the muestra and the stock (``...`` = the rest of the deck in order)."""
        self._check_not_started()
        self.setup = {"dealer": self.seat(dealer), **self.dealt_cards(rows)}
        self.setup_line = Location(self.location.path, self.location.line)

    def dealt_cards(self, rows: Sequence[Sequence[str]]) -> dict[str, Any]:
        """The ``hands``, ``muestra`` and ``stock`` of a deal table: a row per seat, the muestra
        and the stock (``...`` or no stock row = the rest of the deck in order). An explicit
        deal's setup, and the explicit form of the next hand's ``deal``."""
        seats = [f"seat {n}" for n in range(self.players)]
        parsed = self._seat_rows(rows, [*seats, "muestra", "stock"])
        for label in seats:
            if label not in parsed:
                raise self.fail_input(f"the deal has no row for {label}")
            if len(parsed[label]) != 6:
                raise self.fail_input(f"{label} is dealt {len(parsed[label])} cards; every player gets 6")
        if len(parsed.get("muestra", [])) != 1:
            raise self.fail_input("the deal needs exactly one muestra card")
        hands = [parsed[label] for label in seats]
        muestra = parsed["muestra"][0]
        stock = [c for c in parsed.get("stock", ["..."]) if c != "..."]
        used = [c for hand in hands for c in hand] + [muestra] + stock
        self._check_unique(used)
        if parsed.get("stock", ["..."])[-1:] == ["..."]:
            stock += self._rest_of_deck(used)
        return {"hands": hands, "muestra": muestra, "stock": stock}

    def position_hands(
        self, rows: Sequence[Sequence[str]], leader: int, *, muestra: str | None, trump: str | None
    ) -> None:
        """A mid-hand position: each seat's hand, who leads, and the muestra or the trump."""
        self._check_not_started()
        seats = [f"seat {n}" for n in range(self.players)]
        parsed = self._seat_rows(rows, [*seats, "stock"])
        hands = [parsed.get(label, []) for label in seats]
        stock = parsed.get("stock", [])
        if "..." in stock:
            raise self.fail_input("a position lists its stock card by card")
        self._check_unique([c for hand in hands for c in hand] + stock + ([muestra] if muestra else []))
        self.position = {"hands": hands, "leader": self.seat(leader), "stock": stock}
        if muestra:
            self.position["muestra"] = muestra
        if trump:
            self.position["trump"] = trump
        self.setup_line = Location(self.location.path, self.location.line)

    def position_set(self, key: str, value: Any) -> None:
        self._check_not_started()
        if self.position is None:
            raise self.fail_input("this step completes a position: start with 'Given a hand in the ...'")
        if key == "trick":
            self._check_unique([c for hand in self.position["hands"] for c in hand] + [c for _, c in value])
        self.position[key] = value

    # ------------------------------------------------------------------ starting the game

    def ensure_game(self) -> GameHandle:
        if self.game is not None:
            return self.game
        if self.position is not None:
            if self.position_setup == "load" or (
                self.position_setup == "auto" and "positions" in self.info.capabilities
            ):
                if "positions" not in self.info.capabilities:
                    raise NotApplicable(
                        "the scenario starts from a mid-hand position; the engine lacks the 'positions' capability"
                    )
                return self._start({"position": self.position})
            return self._realise()
        if self.setup:
            return self._start(dict(self.setup))
        raise self.fail_input("the scenario has no deal: start with a Given step that deals or sets up a hand")

    def _start(self, setup: dict[str, Any]) -> GameHandle:
        setup["flags"] = self.flags
        self.end_game()  # a game replaced is done with
        try:
            self.game = self.engine.start(setup)
        except SetupRejected as rejected:
            explicit = self._explicit_setup(setup) if rejected.unsupported else None
            if explicit is not None:
                try:
                    self.game = self.engine.start(explicit)
                except SetupRejected:
                    pass
                else:
                    return self.game
            if rejected.unsupported:
                raise NotApplicable(f"engine does not support {', '.join(rejected.unsupported)}") from None
            if "deck" not in setup and "hands" in setup and self.position is not None:
                raise PrefixDivergence(
                    f"{self.setup_line}: diverged while reaching the position: the engine refused the deal that "
                    f"starts it ({rejected}); the reference accepts it (DEAL-01)"
                ) from None
            raise FeatureInputError(f"{self.setup_line}: the engine refused the setup: {rejected}") from None
        return self.game

    def _explicit_setup(self, setup: Mapping[str, Any]) -> dict[str, Any] | None:
        """The explicit deal of the cards a deck-order ``setup`` deals (with the ``deal`` flag's method),
        for an engine that deals its own way; ``None`` when the setup is no deck order or the scenario
        is about dealing itself (a ``DEAL-`` rule: the way a deck is dealt is what it checks)."""
        if "deck" not in setup or any(rule.startswith("DEAL-") for rule in self.rules):
            return None
        dealt = self._dealt(list(setup["deck"]), int(setup.get("dealer", 0)))
        return None if dealt is None else {"flags": setup["flags"], "dealer": setup.get("dealer", 0), **dealt}

    def _dealt(self, order: list[str], dealer: int) -> dict[str, Any] | None:
        """The hands, muestra and stock that ``dealer`` deals from the deck ``order`` (DEAL-02, DEAL-03)."""
        from guinote_conformance.reference_engine.cards import CardError, parse_card
        from guinote_conformance.reference_engine.deal import deal_from_deck

        try:
            method = self.flags.get("deal", "one_by_one")
            dealt = deal_from_deck([parse_card(c) for c in order], self.players, dealer, method, self.deck_size)
        except (CardError, ValueError):
            return None
        return {
            "hands": [[card.code for card in hand] for hand in dealt.hands],
            "muestra": dealt.muestra.code,
            "stock": [card.code for card in dealt.stock],
        }

    def end_game(self) -> None:
        """Tell the engine that the scenario's game is done with (the handle's optional ``end``).

        Called when the scenario is over, whatever its outcome: a failure here belongs to no
        scenario (its verdict is made), and an engine broken by it shows at its next request."""
        game, self.game = self.game, None
        if game is not None:
            with contextlib.suppress(Exception):
                end_game(game)

    def need_match(self, what: str) -> None:
        """Scenarios about the match score need the ``match`` capability (several points)."""
        if "match" not in self.info.capabilities:
            raise NotApplicable(f"the scenario {what}; the engine lacks the 'match' capability")

    def _realise(self) -> GameHandle:
        """Reach the position by play: the stored realisation's deal, then its actions, each checked
        against what the reference did at the same point."""
        assert self.position is not None
        if any(self.position.get(key) for key in ("match_points", "cotos")):
            self.need_match("starts from a match score, reached by playing earlier points")
        if self.realiser is None:
            raise NotApplicable("the scenario starts from a mid-hand position and no realisation is available")
        try:
            realisation, reference = self.realiser(self)
        except realisations.RealisationFileError as error:
            raise FeatureInputError(f"{self.setup_line}: {error}") from None
        except realisations.NoRealisation as why:
            capability = "" if "positions" in self.info.capabilities else "the engine lacks 'positions' and "
            raise NotApplicable(f"the scenario starts from a mid-hand position; {capability}{why}") from None
        game = self._start(dict(realisation.setup))
        total = len(realisation.actions)
        if any(action.get("type") == "deal" for action in realisation.actions):
            self.need_cards_of_next_hand("is reached by dealing a next hand")
        for number, (action, expected) in enumerate(zip(realisation.actions, reference.events, strict=True), 1):
            where = f"{self.setup_line}: diverged while reaching the position, at prefix action {number} of {total}"
            outcome = game.apply(action)
            if isinstance(outcome, Rejected) and action.get("type") == "deal" and action.get("deck"):
                # an engine that deals its own way: the explicit deal of the same cards (protocol.md, the next hand)
                explicit = self._explicit_next(game, [str(card) for card in action["deck"]])
                if explicit is not None and isinstance(retried := game.apply(explicit), Accepted):
                    outcome = retried
                elif (refused := self.next_deal_refused(game)) is not None:
                    raise refused
            if isinstance(outcome, Rejected):
                raise PrefixDivergence(
                    f"{where} ({describe_action(action, gerund=True)}): the engine refused it as {outcome.code} "
                    f"{outcome.rule} {outcome.message}".rstrip()
                    + f"; the reference accepted it ({_rules_of(expected) or 'PLAY-02'})"
                )
            mismatch = _event_mismatch(expected, outcome.events, self.obligations)
            if mismatch:
                raise PrefixDivergence(f"{where} ({describe_action(action, gerund=True)}): {mismatch}")
        for name in compared_fields(self.position, self.players):
            if self.obligations.field(name) is not None:
                continue  # not required of this engine (the match score without 'match'...): not compared
            try:
                got = read_field(game, name)
            except UnknownField as error:
                raise PrefixDivergence(f"{self.setup_line}: diverged while reaching the position: {error}") from None
            expected_value = read_field(reference.game, name)
            if normal(got) != normal(expected_value):
                raise PrefixDivergence(
                    f"{self.setup_line}: diverged while reaching the position: after the {total} prefix actions "
                    f"the state field {name} is {json.dumps(got)}, the reference has {json.dumps(expected_value)}"
                )
        return game

    def need_cards_of_next_hand(self, what: str) -> None:
        """Scenarios that deal the next hand give its cards: an engine that deals it from its own
        shuffle (``own_shuffle``) cannot be given them."""
        if OWN_SHUFFLE in self.info.capabilities:
            raise NotApplicable(own_shuffle_reason(what))

    def next_deal_refused(self, game: GameHandle) -> NotApplicable | None:
        """The verdict on a next hand's deal whose cards the engine refused in every form the
        harness has for them (a deck order, the explicit deal, each as the other when the first
        was refused): *not applicable* when the engine is in ``hand_over``, where the deal is
        its one legal action, so that the refusal is of the cards, not of the deal (an engine
        that deals the next hand itself, as real ones do, and has not declared ``own_shuffle``);
        ``None`` (the refusal stands as the engine's answer) in any other phase: it does not
        take the hand to be over, or takes the match to be over. Whether a next hand may be
        dealt at all is checked without cards (``the next hand may be dealt``, a deal attempted
        too soon), for every engine. The deal with no cards is tried, to say which engine it is."""
        if game.state("phase") != "hand_over":
            return None
        took = isinstance(game.apply({"type": "deal", "deck": []}), Accepted)
        how = "it took a deal with no cards" if took else "it refused a deal with no cards too"
        # the engine's own words are left out: the reason is counted, one line for all such runs
        return NotApplicable(f"{NEXT_DEAL_REFUSED} (a deck order, the explicit deal); {how}: {OWN_SHUFFLE_HINT}")

    def _last_trick_taker(self, game: GameHandle, *, any_dealer: bool = False) -> int | None:
        """The seat that took the last trick, who deals the next hand (PRE-10, MATCH-11)."""
        last = game.state("last_trick_winner")
        if isinstance(last, float) and last.is_integer():
            last = int(last)  # a number is a number (the protocol compares them by value)
        if not isinstance(last, int) or isinstance(last, bool):
            return 0 if any_dealer else None
        return last

    def _explicit_next(self, game: GameHandle, order: list[str], *, any_dealer: bool = False) -> dict[str, Any] | None:
        """The explicit form of the next deal from ``order``: dealt by the taker of
        the last trick (PRE-10, MATCH-11), with the ``deal`` flag's method (DEAL-02, DEAL-03).
        ``any_dealer``: a deal asked for too soon, whose cards matter less than its refusal,
        is dealt by seat 0 when the engine names no taker of the last trick."""
        from guinote_conformance.reference_engine.match import next_dealer

        last = self._last_trick_taker(game, any_dealer=any_dealer)
        if last is None:
            return None
        dealt = self._dealt(order, next_dealer(last) % self.players)
        return None if dealt is None else {"type": "deal", **dealt}

    def _order_next(self, game: GameHandle, cards: Mapping[str, Any]) -> dict[str, Any] | None:
        """The deck-order form of the explicit next deal ``cards`` (hands, muestra, stock): the
        order the taker of the last trick deals them from with the ``deal`` flag's method (the
        inverse of :meth:`_explicit_next`; an engine that takes deck orders is never owed the
        explicit form, protocol.md, Versioning)."""
        from guinote_conformance.reference_engine.cards import CardError, parse_card
        from guinote_conformance.reference_engine.deal import DealtHand, order_of_deal
        from guinote_conformance.reference_engine.match import next_dealer

        last = self._last_trick_taker(game)
        if last is None:
            return None
        try:
            hands = tuple(tuple(parse_card(str(card)) for card in hand) for hand in cards["hands"])
            dealt = DealtHand(
                hands, parse_card(str(cards["muestra"])), tuple(parse_card(str(c)) for c in cards["stock"])
            )
            method = self.flags.get("deal", "one_by_one")
            order = order_of_deal(dealt, self.players, next_dealer(last) % self.players, method)
        except (CardError, ValueError, KeyError, TypeError):
            return None
        return {"type": "deal", "deck": [card.code for card in order]}


def _rules_of(events: Sequence[Mapping[str, JSON]]) -> str:
    """The rules the reference carried out with ``events`` (for a divergence message)."""
    rules: list[str] = []
    for event in events:
        rule = event.get("rule") if event.get("type") == "hand_over" else EVENT_RULES.get(str(event.get("type")))
        if rule and str(rule) not in rules:
            rules.append(str(rule))
    return ", ".join(rules)


def _event_mismatch(
    expected: Sequence[Mapping[str, JSON]], got: Sequence[Mapping[str, JSON]], obligations: Obligations
) -> str:
    """How the engine's events differ from the reference's, in what the protocol requires of the
    engine (:func:`guinote_conformance.oracle.steps.event_difference`), or ``""``."""
    difference = event_difference(expected, got, obligations)
    if difference is None:
        return ""
    if "." not in difference.subject:
        kinds = [e.get("type") for e in obligations.vocabulary_events(expected)]
        got_kinds = [e.get("type") for e in obligations.vocabulary_events(got)]
        return f"the engine's events are {got_kinds}, the reference's {kinds} ({_rules_of(expected)})"
    kind = difference.subject.partition(".")[0]
    rule = _rules_of([event for event in expected if event.get("type") == kind][:1])
    return (
        f"event {difference.subject} is {json.dumps(difference.got)}, "
        f"the reference has {json.dumps(difference.expected)} ({rule})"
    )


def normal(value: Any) -> Any:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return sorted(value)
    return value

"""The reference engine, plugged in through the engine interface like any other engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from guinote_conformance import __version__
from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Action,
    EngineInfo,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
    UnknownField,
)
from guinote_conformance.adapters.vocabulary import EXPLICIT_DEAL
from guinote_conformance.reference_engine import Game
from guinote_conformance.reference_engine import __name__ as engine_package
from guinote_conformance.reference_engine.actions import (
    DRAW,
    ActionFormatError,
    Draw,
    IllegalAction,
    Play,
    action_from_json,
    events_to_json,
    plays_of,
)
from guinote_conformance.reference_engine.cards import CardError, parse_card
from guinote_conformance.reference_engine.deal import DealtHand, check_explicit_deal, order_of_deal
from guinote_conformance.reference_engine.flags import RulesError, flag_specs, make_rules, profile_names, rules_for
from guinote_conformance.reference_engine.views import UnknownField as EngineUnknownField
from guinote_conformance.reference_engine.views import observation_field, state_field, state_fields

#: the reference engine is released with the suite: its version (``hello``) is the suite's
VERSION = __version__


class ReadOnlyAction(dict[str, JSON]):
    """The JSON form of a legal action, built once and shared by every list of legal actions
    that holds it, so read-only: a change would reach every later list. Listing the legal
    actions builds nothing (the fuzzer lists them twice per action, and building their forms
    cost as much as finding them). It is equal to, encoded like, copied and pickled as the plain
    dict it reads as; ``dict(action)`` is a copy that may be changed."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a legal action of the reference engine is read-only: change a copy, dict(action)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type[dict[str, JSON]], tuple[dict[str, JSON]]]:
        return dict, (dict(self),)


#: The shared form of each of the engine's shared actions (its plays and its draw, which live as
#: long as the engine's module), by identity: a look-up by value would hash the action, a call.
_SHARED_ACTIONS: list[Draw | Play] = [DRAW, *(play for seat in range(4) for play in plays_of(seat).values())]
_SHARED_FORMS: dict[int, dict[str, JSON]] = {id(action): ReadOnlyAction(action.to_json()) for action in _SHARED_ACTIONS}
#: The other way: the shared action each shared form stands for, by the form's identity (an action
#: handed back as the engine listed it, as the differential fuzzer does, is not read again).
_ACTIONS_OF_FORMS: dict[int, Draw | Play] = {id(_SHARED_FORMS[id(action)]): action for action in _SHARED_ACTIONS}


class ReferenceGame:
    def __init__(self, game: Game) -> None:
        self.game = game

    def legal_actions(self) -> list[dict[str, JSON]]:
        forms = _SHARED_FORMS
        return [forms.get(id(action)) or action.to_json() for action in self.game.legal_actions()]

    def apply(self, action: Action) -> Outcome:
        shared = _ACTIONS_OF_FORMS.get(id(action))
        try:
            if shared is not None:
                return Accepted(events_to_json(self.game.apply(shared)))
            if action.get("type") == "deal" and any(key in action for key in EXPLICIT_DEAL):
                action = self._as_deck_order(action)
            events = self.game.apply(action_from_json(action))
        except IllegalAction as illegal:
            return Rejected(illegal.code, illegal.rule, illegal.message)
        except (ActionFormatError, CardError) as error:
            return Rejected("BAD_ACTION", "", str(error))
        return Accepted(events_to_json(events))

    def _as_deck_order(self, action: Action) -> Action:
        """The explicit form of the next deal (``hands`` in seat order, ``muestra``, ``stock``
        top first) as the deck order that deals it from the next dealer (PRE-10)."""
        if "deck" in action:
            raise ActionFormatError("a deal gives either a deck order ('deck') or the hands, muestra and stock")
        if self.game.phase != "hand_over":
            return {"type": "deal", "deck": []}  # the game refuses a deal now, with its own reason
        rules = self.game.rules
        hands, muestra, stock = action.get("hands"), action.get("muestra"), action.get("stock", [])
        if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
            raise ActionFormatError("an explicit deal gives 'hands': a list of card lists, one per seat")
        if not isinstance(stock, list):
            raise ActionFormatError("an explicit deal gives 'stock': a list of cards, top first")
        dealt = DealtHand(
            tuple(tuple(parse_card(str(c)) for c in hand) for hand in hands),
            parse_card(str(muestra)),
            tuple(parse_card(str(c)) for c in stock),
        )
        check_explicit_deal(dealt.hands, dealt.muestra, dealt.stock, rules.player_count, rules.deck_size)
        order = order_of_deal(dealt, rules.player_count, self.game.next_dealer(), rules.deal)
        return {"type": "deal", "deck": [card.code for card in order]}

    def allowed_by(self, action: Action, *, window: bool = False) -> str:
        """The rule that lets the reference accept ``action`` (a play or a cante) where a stricter
        engine refuses it (:meth:`guinote_conformance.reference_engine.game.Game.allowed_by`); ``""`` for another
        action, one it refuses, or garbage. Not part of the engine interface: the comparisons ask
        it of the reference only, to name what the engine under test does not offer. With
        ``window``, for a cante or a tute, the rule that keeps the singer's window open."""
        try:
            return self.game.allowed_by(action_from_json(action), window=window)
        except (ActionFormatError, CardError):
            return ""

    def state(self, name: str) -> JSON:
        try:
            return state_field(self.game, name)
        except EngineUnknownField as error:
            raise UnknownField(str(error)) from None

    def state_fields(self, names: Sequence[str]) -> dict[str, JSON]:
        """Several fields of the state in one call (optional: the differential fuzzer reads a few
        after every action, and asks any in-process engine that has this method for them at once).
        A field the engine does not know is left out, as in the protocol's ``batch`` answer."""
        return state_fields(self.game, names)

    def observation(self, seat: int, name: str) -> JSON:
        try:
            return observation_field(self.game, seat, name)
        except EngineUnknownField as error:
            raise UnknownField(str(error)) from None


class ReferenceEngine:
    """In-process adapter for :mod:`reference_engine`."""

    def info(self) -> EngineInfo:
        return EngineInfo(
            name="guinote-reference",
            version=VERSION,
            language="python",
            profiles={name: rules_for(name).as_dict() for name in profile_names()},
            flags={name: list(spec.values) for name, spec in flag_specs().items()},
            capabilities=frozenset({"positions", "observations", "reason_codes", "match"}),
            homepage=engine_package,
        )

    def start(self, setup: Setup) -> ReferenceGame:
        flags = dict(setup.get("flags", {}))
        specs = flag_specs()
        unsupported = [
            f"{name}={value}" for name, value in flags.items() if name not in specs or value not in specs[name].values
        ]
        if unsupported:
            raise SetupRejected(f"unsupported flag values: {', '.join(unsupported)}", unsupported)
        try:
            rules = make_rules(flags)
            dealer = int(setup.get("dealer", 0))
            if "position" in setup:
                return ReferenceGame(Game.from_position(rules, setup["position"]))
            if "deck" in setup:
                return ReferenceGame(Game.from_deck(rules, [parse_card(c) for c in setup["deck"]], dealer))
            hands: list[Any] = setup.get("hands", [])
            game = Game.from_deal(
                rules,
                [[parse_card(c) for c in hand] for hand in hands],
                parse_card(str(setup.get("muestra", ""))),
                [parse_card(c) for c in setup.get("stock", [])],
                dealer,
            )
            return ReferenceGame(game)
        except (RulesError, CardError, ValueError, KeyError, TypeError) as error:
            raise SetupRejected(str(error)) from None

    def close(self) -> None:
        return None


__all__ = ["ReferenceEngine", "ReferenceGame", "UnknownField"]

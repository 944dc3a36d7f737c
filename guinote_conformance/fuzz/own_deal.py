"""The next hand of an engine that deals it from its own shuffle, read back and given to the reference.

An engine that declares ``own_shuffle`` takes the next hand's deal with no cards (a hand de vueltas,
the first hand of a new point) and cannot be given them, so the reference cannot deal first and have
the engine follow. For such a hand the roles turn: the engine is dealt and plays the hand first, a
policy choosing among its legal actions (:func:`play_own_hand`, each written as the vocabulary
writes it: :func:`plain_action`); its deal is read back from what it
reports (:func:`deal_of`): the hand of every seat and the muestra after its deal, the stock from its
``cards_drawn`` events in order (the last card of the final draw is the muestra, or the seven
exchanged for it, so it is not stock), and the cards nobody drew after them in deck order (no rule
of the hand can tell their order). The reference is given that explicit deal and the same actions,
the same fields read on both sides (after each action those the engine's events say may have
changed, every one at the deal and at the end of the hand), and the steps are compared
(:func:`~guinote_conformance.fuzz.differential.compare_played`).

Where the engine does not report enough to rebuild its deal (a hand it does not show, cards that do
not make a deal, a deal with no cards refused) :class:`Unreadable` says why: the fuzzer ends the
game there and counts the reason, as it counts every game it cannot go on with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from guinote_conformance.adapters.interface import JSON, EngineError, GameHandle, UnknownField
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.fuzz.play import apply_step
from guinote_conformance.oracle.steps import ACTION_MEMBERS, FIELDS, Step, read_fields

#: The deal of the next hand with no cards: the engine shuffles (``own_shuffle``).
OWN_DEAL: dict[str, JSON] = {"type": "deal", "deck": []}


class Shadowing(Protocol):
    """What steers the choices of an own hand to the actions the reference takes too
    (:class:`~guinote_conformance.fuzz.shadow.Shadow`)."""

    def deal(self, hands: list[JSON], muestra: JSON, dealt: Step) -> None: ...

    def narrowed(self, engine: GameHandle, legal: list[dict[str, JSON]]) -> list[dict[str, JSON]]: ...

    def played(self, action: dict[str, JSON]) -> None: ...


class Unreadable(Exception):
    """The engine's own deal cannot be read back (the message says why): the game ends there."""


def play_own_hand(
    engine: GameHandle,
    reference: GameHandle,
    last: Step,
    choose: Callable[[list[dict[str, JSON]], GameHandle], dict[str, JSON]],
    *,
    players: int,
    deck_size: int,
    max_actions: int,
    align: Callable[[GameHandle, Step, Step, GameHandle], GameHandle | None] | None = None,
    shadow: Shadowing | None = None,
) -> tuple[list[Step], list[Step], GameHandle]:
    """Deal the next hand on ``engine`` from its own shuffle, play it there (``choose`` picks each
    action from its legal list), then give the reference the same deal and actions: the
    reference's steps and the engine's, each list starting with ``last`` (the end of the hand
    before, already compared), and the reference's game. After the deal, ``align`` may replace the
    reference's game with one set to the engine's mano (:func:`~guinote_conformance.fuzz.mano.follow_own_mano`),
    which then plays the hand. A ``shadow`` (:class:`~guinote_conformance.fuzz.shadow.Shadow`) narrows each
    choice to the actions the reference takes too. Raises :class:`Unreadable` where the deal cannot
    be read back."""
    dealt = apply_step(engine, dict(OWN_DEAL), FIELDS)
    if not dealt.accepted:
        raise Unreadable(f"the engine refused the next hand's deal with no cards ({dealt.code or 'no code'})")
    try:
        hands = [engine.state(f"hand.{seat}") for seat in range(players)]
        muestra = engine.state("muestra")
    except (UnknownField, EngineError) as error:
        raise Unreadable(f"the engine does not report the hands and muestra of its deal: {error}") from None
    theirs = [last, dealt]
    legal = dealt.legal
    if shadow is not None:
        shadow.deal(hands, muestra, dealt)
    for _ in range(max_actions):
        if not legal or legal[0].get("type") == "deal":
            break
        offered = shadow.narrowed(engine, list(legal)) if shadow is not None else list(legal)
        action = plain_action(choose(offered, engine))
        if shadow is not None:
            shadow.played(action)
        step = apply_step(engine, action)  # (the fields its events may change)
        theirs.append(step)
        legal = step.legal
    deal = deal_of(hands, muestra, dealt, theirs[2:], deck_size)
    first = apply_step(reference, deal, FIELDS)
    if not first.accepted:
        raise Unreadable(f"the reference refuses the engine's deal as read back: {first.code} {first.rule}")
    again = align(reference, first, dealt, engine) if align is not None else None
    if again is not None:  # the engine leads from another seat: the reference follows it
        reference = again
        first = Step(first.action, True, first.events, "", "", list(again.legal_actions()), read_fields(again, FIELDS))
    ours = [last, first]
    for step in theirs[2:]:
        assert step.action is not None
        ours.append(apply_step(reference, step.action, list(step.state)))  # the fields read of the engine
    return ours, theirs, reference


def plain_action(action: dict[str, JSON]) -> dict[str, JSON]:
    """An action of the engine's legal list as the vocabulary writes it, for both engines to play:
    its members of the vocabulary only, a seat ``0.0`` as ``0``."""
    plain = {name: action[name] for name in ACTION_MEMBERS if name in action}
    seat = plain.get("seat")
    if isinstance(seat, float) and seat.is_integer():
        plain["seat"] = int(seat)
    return plain


def deal_of(
    hands: Sequence[JSON], muestra: JSON, dealt: Step, steps: Sequence[Step], deck_size: int
) -> dict[str, JSON]:
    """The explicit ``deal`` action of the engine's own deal: the ``hands`` and ``muestra`` it
    reported after dealing, the stock as its ``cards_drawn`` events drew it (the last card of the
    final draw, the muestra's, left out), then the cards nobody drew in deck order."""
    if not all(isinstance(hand, list) and all(isinstance(card, str) for card in hand) for hand in hands):
        raise Unreadable("the engine does not report the hands of its deal (hand.<seat> is not a list of cards)")
    dealt_hands = [[str(card) for card in hand] for hand in hands if isinstance(hand, list)]
    if not isinstance(muestra, str):
        raise Unreadable("the engine does not report the muestra of its deal")
    count = dealt.state.get("stock_count")  # (a whole number, however written: 36 or 36.0)
    if not isinstance(count, int | float) or isinstance(count, bool) or not float(count).is_integer() or count < 1:
        raise Unreadable("the engine does not report how many cards are left to draw after its deal (stock_count)")
    left = int(count)
    drawn: list[str] = []
    for step in steps:
        kinds = [event.get("type") for event in step.events]
        for event in step.events:
            draws = event.get("draws") if event.get("type") == "cards_drawn" else None
            if isinstance(draws, list):
                cards = [str(pair[1]) for pair in draws if isinstance(pair, list) and len(pair) == 2]
                drawn += cards[:-1] if "arrastre_begins" in kinds else cards  # the final draw takes the muestra
    stock = drawn[: left - 1]
    seen = {card for hand in dealt_hands for card in hand} | {muestra, *stock}
    stock += [card for card in deck_codes(deck_size) if card not in seen][: left - 1 - len(stock)]
    cards = [card for hand in dealt_hands for card in hand] + [muestra] + stock
    if len(set(cards)) != len(cards) or len(cards) != deck_size:
        raise Unreadable(f"the engine's deal as read back is not a deal of the {deck_size} cards")
    return {"type": "deal", "hands": [list(hand) for hand in dealt_hands], "muestra": muestra, "stock": list(stock)}


__all__ = ["OWN_DEAL", "Shadowing", "Unreadable", "deal_of", "plain_action", "play_own_hand"]

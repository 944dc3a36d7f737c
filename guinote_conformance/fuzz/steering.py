"""Steering the fuzzer toward the rules random play rarely reaches.

Uniform random play over the legal actions almost never builds a tute, two cantes after one
trick, both sides past 100 or a winner short of thirty malas. Three things push it there:

* **deal generators** build decks that hold the interesting cards (four Reyes in one hand, the
  seven of trumps as muestra, the forty, one side holding every pair and few points...);
* **policies** choose among the legal actions with a purpose (sing whenever possible, claim
  early or only when right, let one side take every trick);
* **coverage**: each hand records which rules of the index the reference applied (the rule IDs
  behind its events and refusals, :func:`guinote_conformance.oracle.rules.rules_of_events`), and
  :class:`Steering` picks the
  generators and policies whose target rules have not been seen yet more often.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from guinote_conformance.adapters.interface import JSON, GameHandle
from guinote_conformance.adapters.vocabulary import DECK_RANKS, SUITS, deck_codes
from guinote_conformance.oracle.rules import EVENT_RULES, refusal_rules, rules_of_events
from guinote_conformance.oracle.steps import Step, read_fields

# ------------------------------------------------------------------------------------- deals


@dataclass(frozen=True)
class Layout:
    """A deal as the table sees it: each seat's six cards, the muestra and the stock (top first)."""

    hands: list[list[str]]
    muestra: str
    stock: list[str]


def explicit_deal(layout: Layout) -> dict[str, JSON]:
    """A deal as the members of an explicit deal: the ``hands`` in seat order, the ``muestra``
    and the ``stock`` top first (a setup's, and the explicit form of the ``deal`` action's)."""
    return {"hands": [list(hand) for hand in layout.hands], "muestra": layout.muestra, "stock": list(layout.stock)}


Generator = Callable[[random.Random, int, int], Layout]


def _ranks(deck_size: int) -> list[str]:
    return DECK_RANKS[deck_size]


def _build(
    rng: random.Random, players: int, deck_size: int, fixed: Mapping[int, Sequence[str]], muestra: str | None = None
) -> Layout:
    """A layout with ``fixed`` cards in those seats' hands (and ``muestra``), the rest shuffled."""
    fixed = {seat: list(dict.fromkeys(cards))[:6] for seat, cards in fixed.items() if seat < players}
    used = {card for cards in fixed.values() for card in cards} | ({muestra} if muestra else set())
    if muestra in {card for cards in fixed.values() for card in cards}:
        muestra = None  # a generator's muestra already placed in a hand: any other card will do
    rest = [card for card in deck_codes(deck_size) if card not in used]
    rng.shuffle(rest)
    hands: list[list[str]] = []
    for seat in range(players):
        hand = list(fixed.get(seat, ()))[:6]
        while len(hand) < 6:
            hand.append(rest.pop())
        rng.shuffle(hand)
        hands.append(hand)
    if muestra is None:
        muestra = rest.pop()
    return Layout(hands, muestra, rest)


def _partner(seat: int, players: int) -> int:
    return (seat + 2) % players if players == 4 else seat


def uniform_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    return _build(rng, players, deck_size, {})


def tute_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """Four Reyes (or four Sotas) in one hand."""
    rank = rng.choice("RS")
    return _build(rng, players, deck_size, {rng.randrange(players): [rank + suit for suit in SUITS]})


def forty_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """The Rey and Sota of trumps in one hand and a twenty in his partner's (or his own)."""
    trump, other = rng.sample(list(SUITS), 2)
    low = [rank for rank in _ranks(deck_size) if rank not in "RS7"]
    seat = rng.randrange(players)
    fixed: dict[int, list[str]] = {seat: ["R" + trump, "S" + trump]}
    fixed.setdefault(_partner(seat, players), []).extend(["R" + other, "S" + other])
    return _build(rng, players, deck_size, fixed, rng.choice(low) + trump)


def two_cantes_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """Two pairs in one hand and a third in his partner's: several cantes after one trick."""
    suits = rng.sample(list(SUITS), 3)
    seat = rng.randrange(players)
    fixed: dict[int, list[str]] = {seat: [r + s for s in suits[:2] for r in "RS"]}
    fixed.setdefault(_partner(seat, players), []).extend(["R" + suits[2], "S" + suits[2]])
    return _build(rng, players, deck_size, fixed)


def seven_muestra_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """The seven of trumps as muestra, its dos in a hand (``seven_is_muestra``)."""
    trump = rng.choice(list(SUITS))
    fixed = {rng.randrange(players): ["2" + trump]} if "2" in _ranks(deck_size) else {}
    return _build(rng, players, deck_size, fixed, "7" + trump)


def exchange_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """A high muestra and the seven of trumps in a hand: the exchange is worth making."""
    trump = rng.choice(list(SUITS))
    return _build(rng, players, deck_size, {rng.randrange(players): ["7" + trump]}, rng.choice("A3R") + trump)


def malas_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """One side holds the four pairs (the forty among them: 100 in cantes) and low trumps, the other the
    aces and threes: the pairs' side may pass 100 on cantes without thirty malas."""
    suits = list(SUITS)
    rng.shuffle(suits)
    trump = suits[0]
    seat = rng.randrange(players)
    partner = _partner(seat, players)
    pairs = [rank + suit for suit in suits for rank in "RS"]
    low = [rank + trump for rank in _ranks(deck_size) if rank in "24567"]
    fixed: dict[int, list[str]] = {seat: pairs[:4] + low[:2]}
    fixed.setdefault(partner, []).extend(pairs[4:] + low[2:6])
    opponents = [s for s in range(players) if s not in (seat, partner)]
    high = [rank + suit for rank in "A3" for suit in SUITS]
    rng.shuffle(high)
    for index, card in enumerate(high[: 6 * len(opponents)]):
        fixed.setdefault(opponents[index % len(opponents)], []).append(card)
    rest = [rank + trump for rank in _ranks(deck_size) if rank in "24567" and rank + trump not in low[:6]]
    muestra = rest[0] if rest else None
    return _build(rng, players, deck_size, fixed, muestra)


def both_over_deal(rng: random.Random, players: int, deck_size: int) -> Layout:
    """Every side holds two pairs, one of them the forty: both sides may pass 100."""
    suits = list(SUITS)
    rng.shuffle(suits)
    fixed: dict[int, list[str]] = {}
    for index, suit in enumerate(suits):
        seat = index % players
        fixed.setdefault(seat, []).extend(["R" + suit, "S" + suit])
    return _build(rng, players, deck_size, fixed, rng.choice(["4", "5", "6"]) + suits[0])


#: name -> (generator, the rules it aims at)
GENERATORS: dict[str, tuple[Generator, tuple[str, ...]]] = {
    "uniform": (uniform_deal, ()),
    "tute": (tute_deal, ("CANTE-21", "CANTE-22", "MATCH-09")),
    "forty": (forty_deal, ("CANTE-03", "CANTE-12")),
    "two_cantes": (two_cantes_deal, ("CANTE-09", "CANTE-10", "CANTE-11")),
    "seven_muestra": (seven_muestra_deal, ("SEVEN-09", "SEVEN-02")),
    "exchange": (exchange_deal, ("SEVEN-01", "SEVEN-03", "SEVEN-04", "SEVEN-05")),
    "malas": (malas_deal, ("SCORE-09", "SCORE-12")),
    "both_over": (both_over_deal, ("SCORE-07", "VUELTAS-14")),
}


def deck_order(layout: Layout, players: int, dealer: int, method: str) -> list[str]:
    """The deck order (top first) that deals ``layout`` from ``dealer`` (the inverse of DEAL)."""
    size = sum(len(hand) for hand in layout.hands) + 1 + len(layout.stock)
    hand_slots, muestra_slot, stock_slots = _deal_positions(players, dealer, method, size)
    order = [""] * size
    for seat, slots in enumerate(hand_slots):
        for slot, position in enumerate(slots):
            order[position] = layout.hands[seat][slot]
    order[muestra_slot] = layout.muestra
    for slot, position in enumerate(stock_slots):
        order[position] = layout.stock[slot]
    return order


@cache
def _deal_positions(
    players: int, dealer: int, method: str, size: int
) -> tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...]]:
    """Where each dealt card comes from in the deck: the reference's own deal of a known order."""
    from guinote_conformance.reference_engine.cards import parse_card
    from guinote_conformance.reference_engine.deal import deal_from_deck

    probe = [parse_card(code) for code in deck_codes(size)]
    dealt = deal_from_deck(probe, players, dealer, method, size)
    index = {card: position for position, card in enumerate(probe)}
    hands = tuple(tuple(index[card] for card in hand) for hand in dealt.hands)
    return hands, index[dealt.muestra], tuple(index[card] for card in dealt.stock)


# ------------------------------------------------------------------------------------- policies

#: A policy picks one of the legal actions; ``state`` reads a field of the reference's state.
Legal = Sequence[dict[str, JSON]]
Policy = Callable[[random.Random, Legal, "Reader"], dict[str, JSON]]


class Reader:
    """What a policy reads of the reference's game: a state field (``state("trump")``), or
    several at once (``state.many(names)``: one call to an engine that reads fields in bulk)."""

    __slots__ = ("_game",)

    def __init__(self, game: GameHandle) -> None:
        self._game = game

    def __call__(self, name: str) -> JSON:
        return self._game.state(name)

    def many(self, names: Sequence[str]) -> dict[str, JSON]:
        """The fields ``names`` (one the engine does not know reads as ``UNKNOWN_FIELD``)."""
        return read_fields(self._game, names)


_OPTIONAL = ("cante", "tute", "exchange")


_ORDER = {"2": 0, "4": 1, "5": 2, "6": 3, "7": 4, "8": 4, "9": 4, "S": 5, "C": 6, "R": 7, "3": 8, "A": 9}


@cache  # the policies sort the legal plays by it at every turn
def _strength(card: str, trump: JSON) -> int:
    return _ORDER.get(card[0], 0) + (20 if card[1:] == trump else 0)


class _ByCard(dict[str, Any]):
    """A card's value under one trump (:func:`_strengths`, :func:`_cheapnesses`), computed at
    its first look-up: a policy sorts the legal plays by it at every turn."""

    def __init__(self, value: Callable[[str, JSON], Any], trump: JSON) -> None:
        super().__init__()
        self.value, self.trump = value, trump

    def __missing__(self, card: str) -> Any:
        found = self[card] = self.value(card, self.trump)
        return found


@cache
def _strengths(trump: JSON) -> _ByCard:
    return _ByCard(_strength, trump)


def uniform_policy(rng: random.Random, legal: Legal, state: Reader) -> dict[str, JSON]:
    return rng.choice(list(legal))


def eager_policy(rng: random.Random, legal: Legal, state: Reader) -> dict[str, JSON]:
    """Sings, sings tute and exchanges whenever it may; claims a third of the time it may
    (early claims are mostly false)."""
    for action in legal:  # most turns offer plays only: one look at each, then any of them
        if action.get("type") != "play":
            break
    else:
        return rng.choice(legal)
    optional = [a for a in legal if a.get("type") in _OPTIONAL]
    if optional:
        return rng.choice(optional)
    claims = [a for a in legal if a.get("type") == "claim"]
    if not claims:
        return rng.choice(legal)  # most of the time: any action
    if rng.random() < 0.34:
        return rng.choice(claims)
    plays = [a for a in legal if a.get("type") != "claim"] or list(legal)
    return rng.choice(plays)


def patient_policy(rng: random.Random, legal: Legal, state: Reader) -> dict[str, JSON]:
    """Sings whenever it may; claims only when its side has passed 100 (a true claim)."""
    for action in legal:
        if action.get("type") == "claim":
            seat = int(action.get("seat", 0))
            side = seat % 2 if int(state("players") or 4) == 4 else seat
            total = state(f"total.{side}")
            if isinstance(total, int) and total >= 101:
                return action
    return eager_policy(rng, [a for a in legal if a.get("type") != "claim"] or list(legal), state)


def _optional_and_plays(legal: Legal) -> tuple[list[dict[str, JSON]], list[dict[str, JSON]]]:
    """The optional actions of ``legal`` (cantes, tutes, the exchange) and its plays, in one pass."""
    optional, plays = [], []
    for action in legal:
        kind = action.get("type")
        if kind == "play":
            plays.append(action)
        elif kind in _OPTIONAL:
            optional.append(action)
    return optional, plays


#: What the lopsided policies read at each turn, in one call.
_LOPSIDED_FIELDS = ("players", "trump")


def _lopsided(strong_side: int) -> Policy:
    def policy(rng: random.Random, legal: Legal, state: Reader) -> dict[str, JSON]:
        """Sings whenever it may; one side plays its strongest card, the other its weakest."""
        optional, plays = _optional_and_plays(legal)
        if optional:
            return rng.choice(optional)
        if not plays:
            return eager_policy(rng, legal, state)
        table = state.many(_LOPSIDED_FIELDS)
        players = int(table["players"] or 4)
        seat = int(plays[0].get("seat", 0))
        side = seat % 2 if players == 4 else seat
        strength = _strengths(table["trump"])
        ranked = sorted(plays, key=lambda a: strength[str(a.get("card"))])
        return ranked[-1] if side == strong_side else ranked[0]

    return policy


_POINTS = {"A": 11, "3": 10, "R": 4, "C": 3, "S": 2}


def _beats(card: str, best: str, led: str, trump: JSON) -> bool:
    """Whether ``card`` beats ``best``, the card winning a trick led in suit ``led``."""
    if card[1:] == best[1:]:
        return _strength(card, trump) > _strength(best, trump)
    return bool(card[1:] == trump)


def _winning(trick: Sequence[str], trump: JSON) -> tuple[int, str] | None:
    if not trick:
        return None
    best, index = trick[0], 0
    for number, card in enumerate(trick[1:], 1):
        if _beats(card, best, trick[0][1:], trump):
            best, index = card, number
    return index, best


_HAND_FIELDS = tuple(f"hand.{seat}" for seat in range(4))
#: What :func:`malas_policy` reads at each turn, in one call (``hand.2`` and ``hand.3`` mano a mano: unknown, unread).
_MALAS_FIELDS = ("players", "trump", "trick", "sung_suits", "stock_count", *_HAND_FIELDS,
                 "card_points.0", "card_points.1", "cante_points.0", "cante_points.1")  # fmt: skip
#: The total a side must reach to take the point (SCORE-04), and the diez de últimas (SCORE-01).
_WINS, _ULTIMAS = 101, 10
#: The most card points on the table of a trick the singers of :func:`malas_policy` take to sing.
_CHEAP_TRICK = 4


def _cheapness(card: str, trump: JSON) -> tuple[int, int]:
    """How little a card gives away: its points, then its strength."""
    return _POINTS.get(card[0], 0), _strength(card, trump)


@cache
def _cheapnesses(trump: JSON) -> _ByCard:
    return _ByCard(_cheapness, trump)


def malas_policy(rng: random.Random, legal: Legal, state: Reader) -> dict[str, JSON]:
    """The side holding the pairs sings them all, taking cheap tricks with low trumps to sing, then
    lets the tricks go but the last; the other side gives nothing away: the singers pass 100 on
    cantes with few card points (short of the thirty malas, SCORE-09)."""
    optional, plays = _optional_and_plays(legal)
    if optional:
        return rng.choice(optional)
    if not plays:
        return eager_policy(rng, legal, state)
    table = state.many(_MALAS_FIELDS)
    players = int(table["players"] or 4)
    modulo = 2 if players == 4 else players
    seat = int(plays[0].get("seat", 0))
    hands = [table[name] or [] for name in _HAND_FIELDS[:players]]
    counts = [0, 0]
    for number, hand in enumerate(hands):
        codes = "".join(hand)  # ranks are the capitals (suits are not): R and S count the Reyes and Sotas
        counts[number % modulo] += codes.count("R") + codes.count("S")
    trump = table["trump"]
    trick = [str(c) for c in table["trick"] or []]
    cheapness = _cheapnesses(trump)
    cheap = sorted(plays, key=lambda a: cheapness[str(a.get("card"))])
    singers = 0 if counts[0] >= counts[1] else 1
    if seat % modulo != singers:
        # the other side feeds the singers nothing and spends its aces and threes early, on its own
        # tricks, so that the singers' kept trump takes the last trick (the diez de últimas)
        winning = _winning(trick, trump)
        leader = (seat - len(trick)) % players
        if winning is not None and (leader + winning[0]) % players % modulo == singers:
            return cheap[0]
        return cheap[-1]
    # the singers take tricks (cheaply) while they have pairs to sing, each trick won opening a window,
    # or while their cantes, card points and the últimas would not pass 100; then they give their tricks
    # away, so that they pass 100 with as few card points as they can: short of the thirty malas
    sung = set(table["sung_suits"] or [])
    side_hands = [hand for number, hand in enumerate(hands) if number % modulo == singers]
    to_sing = any("R" + s in hand and "S" + s in hand and s not in sung for hand in side_hands for s in SUITS)
    points = _int(table[f"card_points.{singers}"]) + _int(table[f"cante_points.{singers}"])
    last = not table["stock_count"] and len(hands[seat]) == 1
    on_table = sum(_POINTS.get(card[0], 0) for card in trick)
    # the last trick (the últimas) they take: then the point is theirs to win or lose, even when both
    # sides pass 100 (SCORE-07)
    taking = last or ((to_sing or points + _ULTIMAS < _WINS) and on_table <= _CHEAP_TRICK)
    hand = hands[seat]
    keep = {c for c in hand if c[0] in "RS" and ("R" + c[1]) in hand and ("S" + c[1]) in hand and c[1] not in sung}
    spare = [a for a in cheap if a.get("card") not in keep] or cheap
    winning = _winning(trick, trump)
    if winning is None:
        return spare[0]
    best = winning[1]
    winners = [a for a in spare if _beats(str(a.get("card")), best, trick[0][1:], trump)]
    if taking:
        return winners[0] if winners else spare[0]
    losers = [a for a in spare if a not in winners]
    return losers[0] if losers else spare[0]


def _int(value: JSON) -> int:
    return value if isinstance(value, int) else 0


#: name -> (policy, the rules it aims at)
POLICIES: dict[str, tuple[Policy, tuple[str, ...]]] = {
    "uniform": (uniform_policy, ()),
    "eager": (eager_policy, ("CANTE-10", "VUELTAS-05", "VUELTAS-06")),
    "patient": (patient_policy, ("VUELTAS-06",)),
    "lopsided0": (_lopsided(0), ("SCORE-06", "SCORE-12", "VUELTAS-07")),
    "lopsided1": (_lopsided(1), ("SCORE-06", "SCORE-12", "VUELTAS-07")),
    "malas": (malas_policy, ("SCORE-09", "SCORE-12")),
}


#: Deal generator -> the policy its deals are made for, which plays them with it half the times the
#: generator is chosen: another policy rarely keeps the malas deal's singers short of the thirty malas
#: once they pass 100 (a hand in a few hundred, where the malas policy makes one in a dozen).
PLAYED_WITH: dict[str, str] = {"malas": "malas"}

# ------------------------------------------------------------------------------------- steering

#: What :class:`Steering` chooses from: each generator and policy, by its name in the uses, and its target rules.
_DEAL_TARGETS = {f"deal:{name}": targets for name, (_, targets) in GENERATORS.items()}
_POLICY_TARGETS = {f"policy:{name}": targets for name, (_, targets) in POLICIES.items()}


@dataclass
class Steering:
    """Chooses a deal generator and a policy for each hand, favouring those whose target rules
    the run has not seen yet; records the rules each hand showed (the run's rule coverage)."""

    rng: random.Random
    seen: dict[str, int] = field(default_factory=dict)
    uses: dict[str, int] = field(default_factory=dict)
    steer: bool = True

    def _weight(self, name: str, targets: Sequence[str]) -> float:
        unseen = sum(1 for rule in targets if rule not in self.seen)
        return (1.0 + 4.0 * unseen) / math.sqrt(1 + self.uses.get(name, 0) / 50)

    def choose(self) -> tuple[str, str]:
        """A (generator, policy) pair for the next hand."""
        if not self.steer:
            return "uniform", "uniform"
        generator = self._pick(_DEAL_TARGETS).removeprefix("deal:")
        made_for = PLAYED_WITH.get(generator)
        if made_for is not None and self.rng.random() < 0.5:
            policy = f"policy:{made_for}"
            self.uses[policy] = self.uses.get(policy, 0) + 1
        else:
            policy = self._pick(_POLICY_TARGETS)
        return generator, policy.removeprefix("policy:")

    def _pick(self, options: Mapping[str, Sequence[str]]) -> str:
        names = list(options)
        weights = [self._weight(name, options[name]) for name in names]
        chosen = self.rng.choices(names, weights)[0]
        self.uses[chosen] = self.uses.get(chosen, 0) + 1
        return chosen

    def checkpoint(self) -> tuple[Any, dict[str, int]]:
        """What :meth:`choose` changes (its random generator, the uses), to :meth:`restore` it:
        the fuzzer chooses for a hand it may drop (played ahead while an engine answers)."""
        return self.rng.getstate(), dict(self.uses)

    def restore(self, checkpoint: tuple[Any, dict[str, int]]) -> None:
        """Undo the choices made since ``checkpoint``."""
        state, uses = checkpoint
        self.rng.setstate(state)
        self.uses = uses

    def observe(self, rules: Sequence[str]) -> list[str]:
        """Count the rules one hand showed; return those seen for the first time."""
        new = [rule for rule in rules if rule not in self.seen]
        for rule in rules:
            self.seen[rule] = self.seen.get(rule, 0) + 1
        return new


#: Events whose rules follow from their type alone (no ``rule`` member, nothing read off the state),
#: and the rules of the steps made of them only, by their event types (a trick won, the últimas).
_PLAIN_EVENTS = frozenset({"card_played", "trick_won", "ultimas", "arrastre_begins"})
_PLAIN_RULES: dict[tuple[JSON, ...], list[str]] = {}


_PLAYED = EVENT_RULES["card_played"][0]


def rules_shown(steps: Sequence[Step]) -> dict[str, int]:
    """The rules the hand of ``steps`` showed, each with how often (its first step is the state
    before its actions: the end of the hand before, counted with that hand): the fuzzer's rule
    coverage, and what the steering steers by."""
    rules: dict[str, int] = {}
    played = 0
    for index in range(1, len(steps)):
        step = steps[index]
        events = step.events
        known: list[str] | None
        if not step.accepted:
            known = refusal_rules(step.rule)
        elif len(events) == 1 and events[0].get("type") == "card_played":
            played += 1  # most steps: one card played (kept cheap)
            continue
        else:
            kinds = tuple([event.get("type") for event in events])
            plain = True
            for event in events:
                if "rule" in event:
                    plain = False
                    break
            known = _PLAIN_RULES.get(kinds) if plain else None
            if known is None:
                known = rules_of_events(events, step.state)
                if plain and _PLAIN_EVENTS.issuperset(kinds):
                    _PLAIN_RULES[kinds] = known
        for rule in known:
            rules[rule] = rules.get(rule, 0) + 1
    if played:
        rules[_PLAYED] = rules.get(_PLAYED, 0) + played
    return rules


__all__ = [
    "GENERATORS",
    "PLAYED_WITH",
    "POLICIES",
    "Layout",
    "Steering",
    "deck_order",
    "explicit_deal",
    "rules_shown",
]

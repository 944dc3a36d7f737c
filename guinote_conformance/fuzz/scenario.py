"""Writing a divergence as a scenario, in the suite's own words.

In: a shrunk :class:`~guinote_conformance.oracle.divergence.Divergence` (:mod:`guinote_conformance.fuzz.shrink`),
the reference's step where it diverges, and the engines' declared profiles. Out: one Gherkin
scenario (:func:`write_scenario`) in the step vocabulary of ``features/`` ("Given a deal by seat
N:", "When these tricks are played:", "Then ..."), tagged with the rule and the flags it needs,
and the feature file of all of them (:func:`feature_text`).

The rule: the Then steps hold on the reference and fail on the engine; the cards nobody draws are
written ``...``; a scenario carries only the flags that change how the reference plays it
(:func:`relevant_flags`), whatever profile reads it. :mod:`guinote_conformance.fuzz.scenario_check`
confirms that each scenario fails on the engine and passes on the reference.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from guinote_conformance.adapters.interface import JSON, Engine, EngineInfo
from guinote_conformance.adapters.vocabulary import SUITS, deck_codes
from guinote_conformance.base.untrusted import one_line
from guinote_conformance.fuzz.shrink import stock_drawn
from guinote_conformance.fuzz.steering import Layout
from guinote_conformance.oracle.divergence import Config, Divergence
from guinote_conformance.oracle.steps import Step


def _layout(deck: Sequence[str], players: int, dealer: int, method: str) -> Layout:
    from guinote_conformance.reference_engine.cards import parse_card
    from guinote_conformance.reference_engine.deal import deal_from_deck

    dealt = deal_from_deck([parse_card(c) for c in deck], players, dealer, method, len(deck))
    return Layout([[c.code for c in hand] for hand in dealt.hands], dealt.muestra.code, [c.code for c in dealt.stock])


def _explicit_layout(deal: Mapping[str, JSON]) -> Layout:
    """The hands, muestra and stock of an explicit deal (a setup, or the explicit form of ``deal``)."""
    hands = deal.get("hands") or []
    return Layout([[str(c) for c in hand] for hand in hands], str(deal.get("muestra")),
                  [str(c) for c in deal.get("stock") or []])  # fmt: skip


def _suit(code: JSON) -> str:
    return SUITS.get(str(code), str(code))


def _seat_of(action: Mapping[str, JSON]) -> str:
    return f"seat {action.get('seat')}"


def _when(action: Mapping[str, JSON], attempt: bool) -> str:
    kind = action.get("type")
    seat = _seat_of(action)
    if kind == "play":
        return f"{seat} {'tries to play' if attempt else 'plays'} {action.get('card')}"
    if kind == "cante":
        return f"{seat} {'tries to sing' if attempt else 'sings'} {_suit(action.get('suit'))}"
    if kind == "exchange":
        return f"{seat} {'tries to exchange' if attempt else 'exchanges'} for the muestra"
    if kind == "claim":
        return f"{seat} {'tries to claim' if attempt else 'claims'} 101"
    if kind == "tute":
        rank = "reyes" if action.get("rank") == "R" else "sotas"
        return f"{seat} {'tries to sing' if attempt else 'sings'} tute of {rank}"
    if kind == "draw":
        return "a draw is attempted" if attempt else "the cards are drawn"
    raise ValueError(f"no step for action {action!r}")


def _deck_rows(order: Sequence[str], drawn: int, players: int, size: int) -> list[str]:
    """A deck order as table rows of ten cards, the canonical tail written ``...``."""
    shown = list(order)
    tail_start = players * 6 + 1 + drawn
    rest = [c for c in deck_codes(size) if c not in set(shown[:tail_start])]
    if shown[tail_start:] == rest:
        shown = [*shown[:tail_start], "..."]
    return [" ".join(shown[i : i + 10]) for i in range(0, len(shown), 10)]


def _deal_rows(layout: Layout, drawn: int, size: int) -> list[list[str]]:
    """An explicit deal as table rows: each seat, the muestra, and the stock as far as it is
    drawn, ``...`` standing for the rest in deck order (no stock row when nothing is drawn)."""
    rows = [[f"seat {seat}", " ".join(hand)] for seat, hand in enumerate(layout.hands)]
    rows.append(["muestra", layout.muestra])
    stock = list(layout.stock[:drawn])
    shown = {card for hand in layout.hands for card in hand} | {layout.muestra, *stock}
    rest = [c for c in deck_codes(size) if c not in shown]
    if list(layout.stock[drawn:]) == rest:
        if stock:
            rows.append(["stock", " ".join(stock) + " ..."])
    else:
        rows.append(["stock", " ".join(layout.stock)])
    return rows


def _table(rows: Sequence[Sequence[str]], indent: str = "      ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        indent + "| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) + " |" for row in rows
    ]


def _then(example: Divergence, last: Step | None) -> list[str]:
    """The Then steps that hold on the reference and fail on the engine."""
    cause, expected = example.cause, example.expected
    subject = cause.subject
    action = example.actions[-1] if example.actions else None
    if cause.kind in ("acceptance", "refusal code"):
        if action is None:
            return []
        reference_accepted = isinstance(expected, str) and expected == "accepted"
        if reference_accepted:
            return ["the action is accepted"]
        code = str(expected).removeprefix("refused as ")
        rule = f" under rule {last.rule}" if last is not None and last.rule and " " not in last.rule else ""
        return [f"the action is refused as {code}{rule}"]
    if cause.kind == "state":
        return [_state_then(subject, expected)]
    if cause.kind == "event":
        steps = _event_then(subject, expected, example.got)
        generic = all(step.startswith("a ") for step in steps)  # no step reads that event member
        over = [e for e in (last.events if last is not None else []) if e.get("type") == "hand_over"]
        if over and not subject.startswith("hand_over"):  # what the differing event decided
            steps += _event_then("hand_over.reason", over[-1].get("reason"), None)
            steps += _event_then("hand_over.winner", over[-1].get("winner"), None)
        if generic and last is not None:  # check the totals the event feeds
            steps += [_state_then(f"total.{side}", last.state[f"total.{side}"]) for side in (0, 1)
                      if f"total.{side}" in last.state]  # fmt: skip
        return list(dict.fromkeys(steps))
    if cause.kind == "legal":
        return _legal_then(example, last)
    if cause.kind == "failure":
        return ['the state field "phase" is ' + json.dumps(last.state.get("phase") if last else "free")]
    return []


def _state_then(name: str, value: JSON) -> str:
    side = name.rpartition(".")[2]
    words = {"card_points": "card points", "cante_points": "cante points", "total": "points in total"}
    base = name.rpartition(".")[0]
    if base in words and isinstance(value, int):
        return f"side {side} has {value} {words[base]}"
    if name == "turn" and isinstance(value, int):
        return f"it is seat {value}'s turn"
    if name == "muestra":
        return f"the muestra is {value if value else 'gone'}"
    if name == "phase":
        return f"the phase is {value}"
    if name == "stock_count" and isinstance(value, int):
        return f"{value} {'card is' if value == 1 else 'cards are'} left to draw"
    return f'the state field "{name}" is {json.dumps(value, ensure_ascii=False)}'


def _event_then(subject: str, expected: JSON, got: JSON) -> list[str]:
    kind, _, member = subject.partition(".")
    if member == "" or kind.endswith("(order)"):
        kinds_mine = expected if isinstance(expected, list) else []
        kinds_theirs = got if isinstance(got, list) else []
        steps = [f"a {k} event happens" for k in kinds_mine if k not in kinds_theirs]
        steps += [f"a {k} event does not happen" for k in kinds_theirs if k not in kinds_mine]
        return list(dict.fromkeys(steps)) or [f"a {kind.split()[0]} event happens"]
    if kind == "hand_over" and member == "reason":
        return [f"the hand is over because of {expected}"]
    if kind == "hand_over" and member == "winner":
        return ["the hand goes de vueltas"] if expected is None else [f"side {expected} wins the point"]
    if kind == "hand_over" and member in ("scores", "totals") and isinstance(expected, list):
        words = "points in the hand" if member == "scores" else "points in total"
        return [f"side {side} has {value} {words}" for side, value in enumerate(expected)]
    if kind == "trick_won" and member == "seat":
        return [f"seat {expected} wins the trick"]
    if kind == "trick_won" and member == "points":
        return [f"the trick carries {expected} points"]
    if kind == "cards_drawn" and isinstance(expected, list):
        return [f"the draw order is seats {', '.join(str(seat) for seat, _ in expected)}"] + [
            f"seat {seat} draws {card}" for seat, card in expected
        ]
    if kind in ("point_won", "coto_won", "match_won") and member == "side":
        return [f"side {expected} wins the {kind.removesuffix('_won')}"]
    if kind == "ultimas" and member == "side":
        return [f"side {expected} wins the diez de últimas"]
    if member and not kind.endswith("(order)"):  # any other member: the suite's step for an event's member
        return [f'the {kind} event has "{member}" {json.dumps(expected, ensure_ascii=False)}']
    return [f"a {kind} event happens"]


def _legal_then(example: Divergence, last: Step | None) -> list[str]:
    missing = example.expected if isinstance(example.expected, list) else []
    extra = example.got if isinstance(example.got, list) else []
    steps: list[str] = []
    for wanted, modal in ((missing, "may"), (extra, "may not")):
        for action in wanted:
            if not isinstance(action, dict):
                continue
            kind, seat = action.get("type"), _seat_of(action)
            if kind == "play" and last is not None:
                seat_number = action.get("seat")
                cards = sorted(
                    str(a["card"]) for a in last.legal if a.get("type") == "play" and a.get("seat") == seat_number
                )
                steps.append(f"{seat} may play exactly {' '.join(cards) or '-'}")
            elif kind == "play":
                steps.append(
                    f"{seat} {modal} play {action.get('card')}"
                    if modal == "may"
                    else f"{seat} may not play {action.get('card')}"
                )
            elif kind == "cante":
                steps.append(f"{seat} {modal} sing {_suit(action.get('suit'))}")
            elif kind == "exchange":
                steps.append(f"{seat} {modal} exchange for the muestra")
            elif kind == "claim":
                steps.append(f"{seat} {modal} claim 101")
            elif kind == "tute":
                steps.append(f"{seat} {modal} sing tute of {'reyes' if action.get('rank') == 'R' else 'sotas'}")
            elif kind == "deal":
                steps.append(f"the next hand {modal} be dealt")
            # a draw's legality is checked by attempting it (write_scenario): a step reading the
            # state (draw_pending) would pass on an engine that lists no draw all the same
    return list(dict.fromkeys(steps))


def _draw_legality(example: Divergence) -> str | None:
    """For a legal difference in the ``draw`` alone, the Then step of attempting it: accepted
    where the reference lists it and the engine does not, refused where the engine lists it besides."""
    if example.cause.kind != "legal" or not example.cause.subject.startswith("draw "):
        return None
    missing = example.expected if isinstance(example.expected, list) else []
    if any(isinstance(a, dict) and a.get("type") == "draw" for a in missing):
        return "the action is accepted"
    return "the action is refused"


def then_steps(example: Divergence, last: Step | None) -> list[str]:
    """The Then steps of ``example``'s scenario (none: no step of the suite can check it, and
    ``compare`` writes no scenario for it)."""
    draw = _draw_legality(example)
    return [draw] if draw is not None else _then(example, last)


def _unusual_table(flags: Mapping[str, str]) -> dict[str, str]:
    """The table flags (players, deck) of ``flags`` that differ from their defaults (4, 40)."""
    from guinote_conformance.reference_engine.flags import flag_defaults

    defaults = flag_defaults()
    return {name: flags[name] for name in ("players", "deck") if name in flags and flags[name] != defaults[name]}


def _rules_of(config: Config) -> dict[str, str]:
    """The flags of ``config`` but the table's (players, deck)."""
    return {name: value for name, value in config.flags.items() if name not in ("players", "deck")}


def scenario_flags(config: Config, infos: Sequence[EngineInfo]) -> dict[str, str]:
    """The flags a scenario must carry as tags to run under ``config`` whatever the profile:
    those on which some profile of the engines differs from ``config``."""
    tags = {}
    for name, value in config.flags.items():
        if any(profile.get(name) != value for info in infos for profile in info.profiles.values()):
            tags[name] = value
    return tags


def explicit_setup(example: Divergence) -> dict[str, JSON]:
    """The example's first deal as explicit hands, muestra and stock (what the scenario shows)."""
    setup = dict(example.setup)
    deck = setup.pop("deck", None)
    if isinstance(deck, list):
        config = example.config
        method = str(config.flags.get("deal", "one_by_one"))
        layout = _layout([str(c) for c in deck], config.players, int(setup.get("dealer", 0)), method)
        setup.update({"hands": layout.hands, "muestra": layout.muestra, "stock": layout.stock})
    return setup


def relevant_flags(reference: Engine, example: Divergence, candidates: Mapping[str, str]) -> dict[str, str]:
    """The flags of ``candidates`` whose value changes how the reference plays the example:
    a flag whose every other value leaves each step the same needs no tag."""
    from guinote_conformance.fuzz.play import apply_step
    from guinote_conformance.oracle.steps import FIELDS, snapshot
    from guinote_conformance.reference_engine.flags import flag_specs

    setup = explicit_setup(example)

    def trace(flags: Mapping[str, str]) -> list[Step] | None:
        try:
            game = reference.start({**setup, "flags": dict(flags)})
            return [snapshot(game, None), *(apply_step(game, action, FIELDS) for action in example.actions)]
        except Exception:  # another value may make the setup impossible: then the flag matters
            return None

    original = trace(example.config.flags)
    if original is None:
        return dict(candidates)
    kept = {}
    specs = flag_specs()
    for name, value in candidates.items():
        others = [v for v in (specs[name].values if name in specs else ()) if v != value]
        if not others or any(trace({**example.config.flags, name: other}) != original for other in others):
            kept[name] = value
    return kept


def write_scenario(
    example: Divergence,
    infos: Sequence[EngineInfo],
    last: Step | None,
    title: str,
    reference: Engine | None = None,
) -> str:
    """One Gherkin scenario (indented for a ``Feature:``) that replays ``example``; with the
    ``reference``, tagged only with the flags that change how it plays."""
    config = example.config
    players, size = config.players, config.deck_size
    method = str(config.flags.get("deal", "one_by_one"))
    tags = [f"@{example.cause.rule}"] if example.cause.rule and example.cause.rule[0].isalpha() else []
    flags = scenario_flags(config, infos)
    if reference is not None:
        # every flag that changes how the reference plays it, whatever profile reads it (the engine's
        # profile names are its own); the table's players and deck only when they are not the usual
        flags = relevant_flags(reference, example, {**_unusual_table(config.flags), **flags, **_rules_of(config)})
    tags += [one_line(f"@{name}={value}") for name, value in flags.items()]  # an engine's flag stays on its line
    lines = ["  " + " ".join(tags)] if tags else []
    lines.append(f"  Scenario: {title}")
    setup = example.setup
    drawn = stock_drawn(example.actions, players)
    dealer = int(setup.get("dealer", 0))
    deck = setup.get("deck")
    layout = _layout(deck, players, dealer, method) if isinstance(deck, list) else _explicit_layout(setup)
    lines.append(f"    Given a deal by seat {dealer}:")
    lines += _table(_deal_rows(layout, drawn[0], size))
    lines += _when_steps(example, players, size, drawn)
    then = then_steps(example, last)
    if _draw_legality(example) is not None:
        lines.append(f"    {'And' if lines[-1].startswith(('    When', '    And')) else 'When'} a draw is attempted")
    for number, text in enumerate(then):
        lines.append(f"    {'Then' if number == 0 else 'And'} {text}")
    return "\n".join(lines) + "\n"


def _when_steps(example: Divergence, players: int, size: int, drawn: list[int]) -> list[str]:
    """The actions as When steps: whole tricks as table rows, the rest one step each; the last
    action is written as an attempt when the divergence is about accepting it."""
    lines: list[str] = []
    actions = example.actions
    attempt_last = example.cause.kind in ("acceptance", "refusal code")
    trick: list[str] = []
    rows: list[list[str]] = []
    hand = 0
    pending_draw = False

    def flush_rows() -> None:
        if rows:
            lines.append("    When these tricks are played:")
            lines.extend(_table(rows))
            rows.clear()

    def emit(text: str) -> None:
        flush_rows()
        lines.append(f"    When {text}")

    drawn_before_trick = False  # the trick in progress opened on a pending draw

    def flush_trick(end: int) -> None:
        flush_rows()
        if drawn_before_trick:  # only a whole trick row makes the pending draw by itself
            lines.append("    When the cards are drawn")
        lines.extend(_plays(actions, end, trick))

    for number, action in enumerate(actions):
        last = number == len(actions) - 1
        kind = action.get("type")
        if kind == "play" and not (last and attempt_last):
            if not trick:
                drawn_before_trick, pending_draw = pending_draw, False
            trick.append(str(action.get("card")))
            if len(trick) == players:
                rows.append([" ".join(trick)])
                trick, drawn_before_trick = [], False
            continue
        if trick:  # a partial trick: its plays one step each
            flush_trick(number)
            trick, drawn_before_trick = [], False
        if kind == "draw" and not (last and attempt_last):
            pending_draw = True
            continue
        if pending_draw:
            emit("the cards are drawn")
            pending_draw = False
        if kind == "deal":
            hand += 1
            flush_rows()
            drawn_here = drawn[hand] if hand < len(drawn) else 0
            if "deck" not in action:  # the explicit form, for an engine that deals its own way
                layout = _explicit_layout(action)
                lines.append("    When the next hand is dealt:")
                lines.extend(_table(_deal_rows(layout, drawn_here, size)))
                continue
            lines.append("    When the next hand is dealt from the deck, top card first:")
            order = [str(c) for c in action.get("deck") or []]
            lines.extend(_table([[row] for row in _deck_rows(order, drawn_here, players, size)]))
            continue
        emit(_when(action, last and attempt_last))
    if trick:
        flush_trick(len(actions))
    if pending_draw:
        emit("the cards are drawn")
    flush_rows()
    # Gherkin reads better with And after the first When of a run
    out: list[str] = []
    for line in lines:
        if line.startswith("    When ") and out and (out[-1].startswith("    When ") or out[-1].startswith("    And ")):
            out.append("    And " + line[len("    When ") :])
        else:
            out.append(line)
    return out


def _plays(actions: Sequence[Mapping[str, JSON]], end: int, trick: Sequence[str]) -> list[str]:
    """The plays of a partial trick, one When step each."""
    return [
        f"    When {_when({'type': 'play', 'seat': seat, 'card': card}, False)}"
        for seat, card in _trick_seats(actions, end, trick)
    ]


def _trick_seats(actions: Sequence[Mapping[str, JSON]], end: int, trick: Sequence[str]) -> list[tuple[JSON, str]]:
    plays = [a for a in actions[:end] if a.get("type") == "play"][-len(trick) :]
    return [(a.get("seat"), str(a.get("card"))) for a in plays]


def feature_text(scenarios: Sequence[str], engine: str) -> str:
    """The feature of the scenarios ``compare`` wrote; ``engine``, the engine's own name, kept on its line."""
    header = (
        "Feature: Divergences found by guinote-conformance compare\n"
        f"  Each scenario replays one divergence of {one_line(engine)} from the reference engine, shrunk:\n"
        "  it fails on that engine and passes on the reference.\n\n"
    )
    return header + "\n".join(scenarios)


__all__ = [
    "explicit_setup",
    "feature_text",
    "relevant_flags",
    "scenario_flags",
    "then_steps",
    "write_scenario",
]

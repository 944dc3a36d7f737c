"""``guinote-example``: a full hand played at build time by the reference engine
(:func:`guinote_conformance.catalogue.rulebook.worked_hand`), as a step-through of drawings of the table
(back and forward buttons, no external script) and as a table of tricks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from guinote_conformance.catalogue.rulebook import FrameEvent, TablePicture, worked_hand
from guinote_conformance.catalogue.table_words import Seating
from guinote_rulebook import svg
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _, card_phrase, word
from guinote_rulebook.nodes import drawing, stepper
from guinote_rulebook.render import (
    Cell,
    field_item,
    literal,
    note,
    para,
    profile_ref,
    rubric,
    rule_ref,
    table,
    text_para,
)


def reason_text(reason: str) -> str:
    """What a hand result's reason code means (the codes are the engine's vocabulary)."""
    reasons = {
        "over_100": _("it has 101 or more"),
        "vueltas": _("neither side has 101"),
        "thirty_malas_lose": _("the other side lacks its treinta malas"),
        "thirty_malas_cannot_win": _("the other side lacks its treinta malas"),
        "thirty_malas_vueltas": _("the side over 100 lacks its treinta malas"),
        "tute": _("it sang tute"),
        "renuncio": _("the other side made a renuncio"),
    }
    return reasons.get(reason, reason.replace("_", " "))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def named_event_text(event: FrameEvent, seating: Seating, language: str) -> str | None:
    """The sentence of ``event`` with the players named as at the table (the web edition's), or
    None for the events whose sentence names nobody (:func:`event_text` says those)."""
    d = event.details

    def player(key: str = "seat") -> str:
        return seating.seat(int(d[key]), language) if key in d else "?"

    if event.kind == "deal":
        return _("The cards are dealt; the mano leads.")
    if event.kind == "card_played":
        text = _("{player} plays {card}.").format(player=player(), card=card_phrase(svg.card_name(str(d["card"]))))
    elif event.kind == "trick_won":
        text = _("{player} wins the trick: {points} points.").format(player=player(), points=d["points"])
    elif event.kind == "cards_drawn":
        draws = ", ".join(
            f"{seating.seat(seat, language)} ({card_phrase(svg.card_name(card))})" for seat, card in d["draws"]
        )
        return _("Each player draws from the stock, the winner first: {draws}.").format(draws=draws)
    elif event.kind == "cante":
        suit = svg.SUIT_NAMES.get(str(d["suit"]), str(d["suit"]))
        text = _("{player} sings in {suit}: +{value}.").format(player=player(), suit=suit, value=d["value"])
    elif event.kind == "exchange":
        text = _("{player} exchanges {gave} for the muestra, {took}.").format(
            player=player(),
            gave=card_phrase(svg.card_name(str(d["gave"]))),
            took=card_phrase(svg.card_name(str(d["took"]))),
        )
    elif event.kind == "tute":
        text = _("{player} sings tute.").format(player=player())
    elif event.kind == "ultimas":
        side = seating.side(int(d["side"]), language)
        text = _("{side} takes the diez de últimas: +{points}.").format(side=side, points=d["points"])
    elif event.kind == "point_won":
        text = _("{side} wins the point.").format(side=seating.side(int(d["side"]), language))
    elif event.kind == "claim":
        text = _("{player} claims 101.").format(player=player())
    elif event.kind == "renuncio":
        text = _("{player} makes a renuncio.").format(player=player())
    else:
        return None
    return _capital(text)


def event_text(event: FrameEvent, seating: Seating | None = None, language: str = "en") -> str:
    """The sentence of ``event``: the players named as at the table with ``seating``, else by
    their seat numbers (the printed book's)."""
    if seating is not None:
        named = named_event_text(event, seating, language)
        if named is not None:
            return named
    d = event.details
    if event.kind == "deal":
        return _("The cards are dealt; seat {seat}, the mano, leads.").format(seat=d["mano"])
    if event.kind == "card_played":
        return _("Seat {seat} plays {card}.").format(seat=d["seat"], card=card_phrase(svg.card_name(str(d["card"]))))
    if event.kind == "trick_won":
        return _("Seat {seat} wins the trick: {points} points.").format(seat=d["seat"], points=d["points"])
    if event.kind == "cards_drawn":
        draws = ", ".join(_("seat {seat}").format(seat=seat) + f" {card}" for seat, card in d["draws"])
        return _("Each player draws from the stock, the winner first: {draws}.").format(draws=draws)
    if event.kind == "arrastre_begins":
        return _("The stock is gone: the arrastre begins.")
    if event.kind == "cante":
        suit = svg.SUIT_NAMES.get(str(d["suit"]), str(d["suit"]))
        return _("Seat {seat} sings in {suit}: +{value}.").format(seat=d["seat"], suit=suit, value=d["value"])
    if event.kind == "exchange":
        return _("Seat {seat} exchanges {gave} for the muestra, {took}.").format(
            seat=d["seat"],
            gave=card_phrase(svg.card_name(str(d["gave"]))),
            took=card_phrase(svg.card_name(str(d["took"]))),
        )
    if event.kind == "tute":
        return _("Seat {seat} sings tute.").format(seat=d["seat"])
    if event.kind == "ultimas":
        return _("Side {side} takes the diez de últimas: +{points}.").format(side=d["side"], points=d["points"])
    if event.kind == "hand_over":
        return _("The hand is over.")
    if event.kind == "point_won":
        return _("Side {side} wins the point.").format(side=d["side"])
    if event.kind == "de_vueltas":
        return _("Nobody has 101: the point goes on de vueltas.")
    if event.kind == "claim":
        return _("Seat {seat} claims 101.").format(seat=d.get("seat", "?"))
    if event.kind == "renuncio":
        return _("Seat {seat} makes a renuncio.").format(seat=d.get("seat", "?"))
    return ""  # an event the reader needs no sentence for


def events_text(events: Any, seating: Seating | None = None, language: str = "en") -> str:
    return " ".join(text for text in (event_text(event, seating, language) for event in events) if text)


class ExampleDirective(RulebookDirective):
    seating: Seating | None = None
    language = "en"
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "profile": directives.unchanged,
        "seed": directives.nonnegative_int,
        "dealer": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        profile = str(self.options.get("profile", "lascuarenta"))
        seed = int(self.options.get("seed", 8))
        dealer = int(self.options.get("dealer", 0))
        try:
            hand = worked_hand(profile, seed, dealer)
        except Exception as error:  # the engine is the project's; a failure is worth a warning
            logger.warning("guinote-example: the reference engine failed: %s", error, location=self.get_location())
            text = _("The example could not be generated: {error}").format(error=error)
            return self.finish([note(text_para(text), kind=nodes.warning)])
        docname = self.env.docname
        language = "es" if self.config.language == "es" else "en"
        # the web edition names the players as at the table; the printed book keeps its numbers
        seating = Seating(hand.players, dealer=hand.dealer) if self.web() else None
        self.seating, self.language = seating, language
        out: list[nodes.Node] = []
        fields = nodes.field_list(classes=["guinote-example-setup"])
        fields += field_item(_("Profile"), para(profile_ref(profile.split("+")[0], docname, profile)))
        fields += field_item(_("Seed"), para(literal(str(seed))))
        dealt = _("seat {dealer}; the mano (first to play) is seat {mano}").format(dealer=hand.dealer, mano=hand.mano)
        if seating is None:  # the web edition's text says how the players are named, from the dealer
            fields += field_item(_("Dealer"), text_para(dealt))
        muestra = [] if seating else [literal(hand.muestra)]
        fields += field_item(
            _("Muestra"),
            para(
                *muestra,
                nodes.Text(
                    " "
                    + _("({card}): {trump} are trumps; {stock} cards stay in the stock above it").format(
                        card=svg.card_name(hand.muestra), trump=hand.trump, stock=hand.stock - 1
                    )
                ),
            ),
        )
        out.append(fields)
        out.append(rubric(_("Step by step")))
        out.append(self.steps(hand))
        out.append(rubric(_("The deal")))
        deal_rows: list[list[Cell]] = []
        for seat, cards in enumerate(hand.deal):
            label = _("Cards dealt to seat {seat}").format(seat=seat)
            codes: list[nodes.Node] = [para(literal(" ".join(cards)))]
            player = _("seat {seat}").format(seat=seat)
            side = _("side {side}").format(side=hand.sides[seat])
            if seating:  # the cards by their names, in the drawing and its description
                player, side = _capital(seating.seat(seat, language)), seating.side(hand.sides[seat], language)
                names = ", ".join(svg.card_name(card) for card in cards)
                label = _("Cards dealt to {player}: {cards}").format(player=seating.seat(seat, language), cards=names)
                codes = []
            deal_rows.append([player, side, [*codes, drawing(svg=svg.cards_row(list(cards), label), alt=label)]])
        out.append(table([_("Seat"), _("Side"), _("Cards dealt (by suit)")], deal_rows, ["guinote-example-deal"]))
        out.append(rubric(_("Trick by trick")))
        out.append(self.tricks(hand))
        legend = _("Columns 0 to 3 are the seats. * marks the card that led the trick; the winning card is in bold.")
        if seating:
            legend = _("A column per player. * marks the card that led the trick; the winning card is in bold.")
        out.append(text_para(legend, ["guinote-legend"]))
        out.append(rubric(_("The count")))
        count_rows: list[list[Cell]] = [
            [self.side_name(side), *(str(value) for value in values)] for side, values in enumerate(hand.count)
        ]
        headers = [_("Side"), _("Card points"), _("Cantes"), _("Últimas"), _("Total")]
        out.append(table(headers, count_rows, ["guinote-example-count"]))
        because = reason_text(hand.reason)
        if hand.winner is None:
            text = _("Nobody wins the point yet ({because}): the next hand is played de vueltas. Rule").format(
                because=because
            )
        else:
            text = _("Side {side} wins the point: {because}. Rule").format(side=hand.winner, because=because)
            if seating:
                text = _capital(
                    _("{side} wins the point: {because}. Rule").format(
                        side=self.side_name(hand.winner), because=because
                    )
                )
        rule = rule_ref(hand.rule, docname) if hand.rule in data.rules else literal(hand.rule)
        out.append(para(nodes.Text(text + " "), rule, nodes.Text("."), classes=["guinote-example-outcome"]))
        return self.finish(out)

    def steps(self, hand: Any) -> nodes.Node:
        frames = stepper(back=_("Back"), forward=_("Forward"))
        total = len(hand.frames)
        for number, frame in enumerate(hand.frames, start=1):
            box = nodes.container(classes=["guinote-frame"])
            caption = events_text(frame.events, self.seating, self.language)
            box += text_para(f"{number}/{total}. {caption}", ["guinote-frame-caption"])
            picture = TablePicture(
                players=hand.players,
                hands={seat: list(cards) for seat, cards in enumerate(frame.hands)},
                trick=list(frame.trick),
                muestra=frame.muestra,
                trump=next((code for code, name in svg.SUIT_NAMES.items() if name == hand.trump), None),
                stock=frame.stock,
                dealer=hand.dealer,
                turn=frame.turn,
                phase="hand_over" if frame.turn is None else None,
                scores={
                    _("card points"): frame.card_points,
                    _("cante points"): frame.cante_points,
                    _("tricks won"): frame.tricks_won,
                },
            )
            names = (
                {seat: self.seating.seat(seat, self.language) for seat in range(hand.players)} if self.seating else None
            )
            box += drawing(svg=svg.table_svg(picture, caption, names), alt=caption)
            frames += box
        return frames

    def tricks(self, hand: Any) -> nodes.Node:
        """One row per trick (the seats' cards, who won it, its points), a row across the
        table for what happened between tricks, and a row naming each phase as it starts."""
        players = hand.players
        seats = [
            _capital(self.seating.seat(seat, self.language)) if self.seating else str(seat) for seat in range(players)
        ]
        headers = ["#", *seats, _("Won by"), _("Points")]
        rows: list[list[Cell]] = []
        for trick in hand.tricks:
            row: list[Cell] = [str(trick.number)]
            for seat in range(players):
                code = trick.cards.get(seat, "")
                if self.seating and code:
                    code = svg.card_name(code)
                text = f"{code}*" if seat == trick.leader else code
                if seat == trick.winner:
                    row.append([nodes.strong("", "", literal(text))])
                else:
                    row.append([literal(text)] if text else "")
            row += [seats[trick.winner] if self.seating else str(trick.winner), str(trick.points)]
            rows.append(row)
        node = table(headers, rows, ["guinote-example-tricks"])
        tbody = next(iter(node.findall(nodes.tbody)))
        body: list[nodes.Node] = []
        phase = None
        for trick, table_row in zip(hand.tricks, list(tbody.children), strict=True):
            if trick.phase != phase:
                phase = trick.phase
                body.append(self.wide_row(word(phase).capitalize(), len(headers), "guinote-trick-phase"))
            body.append(table_row)
            if trick.after:
                text = events_text(trick.after, self.seating, self.language)
                body.append(self.wide_row(text, len(headers), "guinote-trick-after"))
        tbody.children = []
        tbody.extend(body)
        return node

    def side_name(self, side: int) -> str:
        if self.seating is None:
            return str(_("side {side}").format(side=side))
        return _capital(self.seating.side(side, self.language))

    def wide_row(self, text: str, columns: int, css: str) -> nodes.row:
        row = nodes.row(classes=[css])
        entry = nodes.entry(morecols=columns - 1)
        entry += text_para(text)
        row += entry
        return row

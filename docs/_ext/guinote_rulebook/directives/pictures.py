"""``guinote-deck`` (every card of a deck, drawn) and ``guinote-seats`` (the seats, the
partnerships and the direction of play)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from guinote_conformance.adapters.vocabulary import SUITS, deck_codes
from guinote_conformance.catalogue.rulebook import TablePicture
from guinote_rulebook import svg
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import _
from guinote_rulebook.nodes import drawing
from guinote_rulebook.render import literal, para


class DeckDirective(RulebookDirective):
    """``.. guinote-deck:: 40``: the cards of the deck, one row per suit, with their codes."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        size = int(self.arguments[0]) if self.arguments else 40
        codes = deck_codes(size)
        out: list[nodes.Node] = []
        for suit, name in SUITS.items():
            row = [code for code in codes if code[-1] == suit]
            label = _("The {name} of the {size}-card deck").format(name=name, size=size)
            block = nodes.container(classes=["guinote-deck-row"])
            # the web edition names the cards (their codes are under "Card notation", for engine
            # authors); the printed book lists the codes
            cards: nodes.Node = literal(" ".join(row))
            if self.web():
                cards = nodes.Text(", ".join(svg.card_name(code).split(" de ", 1)[0] for code in row))
            block += para(nodes.strong("", name), nodes.Text(": "), cards)
            block += drawing(svg=svg.cards_row(row, label), alt=label)
            out.append(block)
        return self.finish(out)


class SeatsDirective(RulebookDirective):
    """``.. guinote-seats::`` (``:players: 2`` for mano a mano)."""

    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"players": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        players = int(self.options.get("players", 4))
        picture = TablePicture(players=players)
        sides = [picture.side(seat) for seat in range(players)]
        label = _("The seats and the direction of play")
        return self.finish([drawing(svg=svg.seats_svg(sides), alt=label)])

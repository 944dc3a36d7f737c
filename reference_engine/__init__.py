"""The reference engine of the Guiñote conformance suite.

Start with :class:`guinote_conformance.reference_engine.game.Game` and
:func:`guinote_conformance.reference_engine.flags.rules_for`::

    from guinote_conformance.reference_engine import Game, rules_for
    game = Game.from_seed(rules_for("lascuarenta"), seed=1)
    events = game.apply(game.legal_actions()[0])

:mod:`guinote_conformance.reference_engine.records` saves a game as JSON and replays it;
:mod:`guinote_conformance.reference_engine.random_play` plays random hands and matches from a seed.
"""

from guinote_conformance.reference_engine.actions import Action, Event, IllegalAction, action_from_json
from guinote_conformance.reference_engine.cards import Card, CardError, parse_card
from guinote_conformance.reference_engine.flags import Rules, RulesError, rules_for
from guinote_conformance.reference_engine.game import Game

__all__ = [
    "Action",
    "Card",
    "CardError",
    "Event",
    "Game",
    "IllegalAction",
    "Rules",
    "RulesError",
    "action_from_json",
    "parse_card",
    "rules_for",
]

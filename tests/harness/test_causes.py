"""Likely causes name a rule: every state field has one, a forced cante is CANTE-07, and the
replay of an engine that was given an explicit deal starts from the deal it took."""

from __future__ import annotations

import re

from adapters.vocabulary import EVENT_TYPES, STATE_FIELDS
from conformance.catalogue.rule_index import load_rules
from conformance.engines.recording import Call
from conformance.oracle.divergence import DECLINE_RULE, declines
from conformance.oracle.owners import OWNERS, subject_owner
from conformance.oracle.transcript import from_taken_setup


def test_every_state_field_and_event_has_one_owner_a_rule_of_the_index() -> None:
    """A field or an event that differs is never 'no single rule: state X': each has its owner."""
    rules = load_rules()
    for name in STATE_FIELDS:
        owner = subject_owner(f"state {name.replace('<seat>', '0').replace('<side>', '1')}")
        assert owner is not None, name
        assert owner.rule in rules, (name, owner.rule)
    for kind, members in EVENT_TYPES.items():
        for member in ["", *re.findall(r"\b[a-z_]+\b", members.split("(")[0])]:
            owner = subject_owner(f"event {kind}.{member}" if member else f"event {kind}")
            assert owner is not None and owner.rule in rules, (kind, member)
    named = {rule for owner in OWNERS.values() for rule in (owner.rule, *owner.after.values())}
    assert named <= set(rules), sorted(named - set(rules))
    assert DECLINE_RULE in rules


def test_an_engine_that_offers_only_the_cante_where_the_reference_lets_it_be_declined_breaks_cante_07() -> None:
    cante = {"type": "cante", "seat": 0, "suit": "o"}
    assert declines([{"type": "draw"}], [cante])
    assert declines([{"type": "play", "seat": 1, "card": "Ao"}], [cante, {"type": "tute", "seat": 0, "rank": "R"}])
    assert not declines([{"type": "draw"}], [cante, {"type": "play", "seat": 0, "card": "Ao"}])
    assert not declines([{"type": "draw"}], [])
    assert declines([{"type": "claim", "seat": 0}, {"type": "draw"}], [cante])  # a claim hidden as well
    assert not declines([{"type": "claim", "seat": 0}], [cante])  # a claim is no way to decline a cante


def test_the_replay_starts_from_the_setup_the_engine_took() -> None:
    refused = Call("start", {"flags": {}, "deck": ["Ao"]}, 3, error="SetupRejected: deals its own way")
    taken = Call("start", {"flags": {}, "hands": [["Ao"]]}, 3, answer="g1")
    legal = Call("legal", None, 4, answer=[])
    assert list(from_taken_setup([refused, taken, legal])) == [taken, legal]
    assert list(from_taken_setup([taken, legal])) == [taken, legal]
    assert list(from_taken_setup([refused])) == [refused]  # nothing was taken: the refusal is the evidence

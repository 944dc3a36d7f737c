"""The one rule for what is compared (guinote_conformance.adapters.obligations), read off the schemas."""

from __future__ import annotations

import pytest

from guinote_conformance.adapters.interface import EngineInfo
from guinote_conformance.adapters.obligations import Obligations, event_entries, field_entries, gated_members
from guinote_conformance.adapters.protocol import PROTOCOL_VERSION, load_schemas
from guinote_conformance.adapters.vocabulary import EVENT_TYPES, STATE_FIELDS

NONE = Obligations(frozenset(), PROTOCOL_VERSION)
EVERYTHING = Obligations(frozenset({"match", "reason_codes", "observations", "positions"}), PROTOCOL_VERSION)


def test_every_event_and_field_of_the_vocabulary_has_an_entry() -> None:
    assert set(event_entries()) == set(EVENT_TYPES)
    assert set(field_entries()) == set(STATE_FIELDS)


def test_the_match_score_is_asked_only_of_an_engine_with_the_match_capability() -> None:
    for name in ("match.points.0", "match.cotos.1", "match.winner"):
        assert NONE.field(name) == "needs capability 'match'"
        assert EVERYTHING.field(name) is None
    assert "match.points.1" in NONE.unrequired_fields
    assert NONE.member("point_won", "cotos") == "needs capability 'match'"
    assert NONE.members("point_won") == ("side",)
    assert set(EVERYTHING.members("point_won")) == {"side", "points", "cotos"}


def test_rule_ids_and_reason_codes_need_reason_codes_or_the_area_of_the_rule() -> None:
    scoring = Obligations(frozenset({"reason_codes_scoring"}), PROTOCOL_VERSION)
    assert NONE.member("hand_over", "rule", "SCORE-13") is not None
    assert scoring.member("hand_over", "rule", "SCORE-13") is None
    assert scoring.member("hand_over", "rule", "VUELTAS-06") is not None
    assert scoring.field("hand_rule", "SCORE-02") is None and NONE.field("hand_rule", "SCORE-02") is not None
    assert "rule" not in NONE.members("hand_over") and "rule" in EVERYTHING.members("hand_over")
    assert NONE.gives_reason_code("MUST_FOLLOW_SUIT") is False
    assert Obligations(frozenset({"reason_codes_arrastre"})).gives_reason_code("MUST_FOLLOW_SUIT") is True
    assert Obligations(frozenset({"reason_codes_arrastre"})).gives_reason_code("CANTE_NO_PAIR") is False


def test_what_a_later_version_added_is_optional_for_an_engine_written_for_an_earlier_one() -> None:
    old = Obligations(frozenset(), 1)
    assert old.field("last_trick_won.0") == f"added in GCP/2; the engine speaks GCP/{old.protocol}"
    assert NONE.field("last_trick_won.0") is None
    assert old.member("renuncio", "suit") is not None and NONE.member("renuncio", "suit") is None


def test_compared_members_follow_the_reference_event_and_an_engine_s_own_event_types_are_free() -> None:
    reference = {"type": "hand_over", "winner": 0, "reason": "over_100", "rule": "SCORE-13", "scores": [1, 2]}
    assert NONE.compared({}, reference) == ["winner", "reason", "scores"]
    assert EVERYTHING.compared({}, reference) == ["winner", "reason", "rule", "scores"]
    events = [{"type": "card_played"}, {"type": "my_own_animation"}, {"type": "trick_won"}]
    assert [e["type"] for e in NONE.vocabulary_events(events)] == ["card_played", "trick_won"]
    assert NONE.member("my_own_animation", "x") is not None


def test_the_adapters_check_only_the_members_a_capability_adds() -> None:
    assert gated_members()["point_won"] == {"points", "cotos"}
    assert not NONE.beyond_schema and EVERYTHING.beyond_schema
    events = [{"type": "card_played", "seat": 0, "card": "Ao"}, {"type": "point_won", "side": 1}]
    missing = EVERYTHING.missing_in(events)
    assert missing.startswith("$.events[1]: 'points' is a required property of a point_won event")
    assert NONE.missing_in([{"type": "point_won", "side": 1}]) == ""


def test_the_schema_requires_of_every_engine_only_what_no_capability_gates() -> None:
    for branch in load_schemas()["common.json"]["$defs"]["event"]["allOf"]:
        kind = branch["if"]["properties"]["type"]["const"]
        required = set(branch["then"].get("required", ()))
        gated = {name for name, entry in event_entries()[kind].items() if entry.capability or entry.since > 1}
        assert not required & gated, kind


@pytest.mark.parametrize("protocol", [1, 2])
def test_obligations_of_an_engine_come_from_its_hello(protocol: int) -> None:
    info = EngineInfo("x", "1", "py", {}, {}, frozenset({"match"}), protocol=protocol)
    assert Obligations.of(info) == Obligations(frozenset({"match"}), protocol)

"""Whatever an engine does with what the protocol leaves free, the suite gives it no false failure.

The variant double (:mod:`tests.independent.variants`) varies member order, optional and extra
members, events of its own, whole numbers as floats, refusal texts and codes, its capabilities,
profile names, protocol version and deals. A hypothesis property runs the scenario suite against
drawn variations (one profile per example by default; ``GUINOTE_INDEPENDENT_FULL=1``, as
``tox -e independent`` sets it, runs every profile of more examples, and ``compare`` too) and
asserts no fail, error or timeout, and that every not-applicable run is for what the variation
lacks. Other tests check that each dimension really varies (so that the property cannot pass by
varying nothing), and that the harness bugs the strategy works around are still there.

A failing example prints the variation's short description and its JSON, with the command that
re-runs it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from guinote_conformance.adapters.interface import Rejected, SetupRejected, UnknownField
from guinote_conformance.adapters.obligations import event_entries, field_entries
from guinote_conformance.adapters.vocabulary import REASON_CODES, deck_codes
from tests.independent.minimal_engine import REQUIRED_MEMBERS
from tests.independent.variants import (
    CODES,
    GATED_FIELDS,
    GATED_MEMBERS,
    MESSAGES,
    OPTIONAL,
    PLACES,
    RULES,
    VARIATION_ENV,
    VariantEngine,
    Variation,
    variations,
)

REPO = Path(__file__).resolve().parents[2]
VARIANT = "py:tests.independent.variants:make"
#: the full shape (every profile, more examples, compare): tox -e independent
FULL = os.environ.get("GUINOTE_INDEPENDENT_FULL") == "1"
DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
#: where the full run writes one JSON line per example (its figures), if set
LOG = os.environ.get("GUINOTE_VARIANTS_LOG", "")


# ------------------------------------------------------------------------------------ running


def environment(variation: Variation) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), VARIATION_ENV: variation.to_json()}


def rerun_command(variation: Variation, command: str, engine: str, args: Sequence[str]) -> str:
    words = ["guinote-conformance", command, "--engine", engine, *args]
    return f"{VARIATION_ENV}={shlex.quote(variation.to_json())} {shlex.join(words)}"


def conformance(
    variation: Variation, command: str, engine: str, args: Sequence[str], folder: Path
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run ``guinote-conformance COMMAND`` against the variant; its process and its report."""
    if command == "run" and not any(arg.startswith(("--jobs", "-j")) for arg in args):
        args = [*args, "--jobs", "1"]  # the tests run side by side already (pytest -n 2)
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", command, "--engine", engine, "--report-dir", str(folder), *args],
        cwd=folder, capture_output=True, text=True, timeout=1800, check=False, env=environment(variation),
    )  # fmt: skip
    report = folder / ("results.json" if command == "run" else "fuzz.json")
    shown = f"{variation.describe()}\nre-run: {rerun_command(variation, command, engine, args)}"
    assert report.exists(), f"{shown}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    assert "Traceback" not in done.stdout + done.stderr, f"{shown}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    return done, json.loads(report.read_text(encoding="utf-8"))


def inherent(variation: Variation) -> list[str]:
    """Why a run of ``variation`` may be not applicable: only what it lacks, by declaration."""
    reasons = []
    if not variation.has("observations"):
        reasons.append("the engine lacks the 'observations' capability")
    if not variation.has("match"):
        reasons.append("the engine lacks the 'match' capability")
    if not variation.deck_orders:
        reasons += [f"engine does not support {variation.deck_token}", "the engine refuses deck orders"]
    if not variation.has("positions"):  # a position its own profile's flags reach by no stored play
        reasons.append("the engine lacks 'positions' and no stored realisation reaches the position")
    if any(name in ("players", "deck") for _, _, overrides in variation.profiles for name, _ in overrides):
        reasons.append("the scenario does not fit the table of")  # a profile of its own at another table
    reasons += [f"does not support {name}=" for name in variation.unknown_flags]  # played at its default
    reasons += [f"does not support {name}={value}" for name, value in variation.dropped_values]
    return reasons


def flag_limited(variation: Variation, message: str) -> bool:
    """Whether a not-applicable run is one its flags do not allow (a value it does not play)."""
    flags = [*variation.unknown_flags, *(name for name, _ in variation.dropped_values)]
    return any(f"does not support {name}=" in message for name in flags)


def figures(variation: Variation, data: dict[str, Any]) -> dict[str, Any]:
    """What one run of the suite against ``variation`` did: runs, statuses, why not applicable."""
    results = data["results"]
    statuses = Counter(result["status"] for result in results)
    why = Counter(_reason(result["message"]) for result in results if result["status"] == "not_applicable")
    limited = [r for r in results if r["status"] == "not_applicable" and flag_limited(variation, r["message"])]
    allowed = len(results) - len(limited)
    executed = statuses["pass"] + statuses["fail"] + statuses["error"] + statuses["timeout"]
    return {
        "variation": variation.describe(),
        "json": variation.to_json(),
        "runs": len(results),
        "statuses": dict(statuses),
        "not_applicable": dict(why),
        "allowed_by_flags": allowed,
        "executed_of_allowed": round(100 * executed / allowed, 1) if allowed else 0.0,
    }


def _reason(message: str) -> str:
    """A not-applicable message without the scenario's own words (for counting by reason)."""
    return re.sub(r"features/\S+", "...", message)[:160]


def check_no_false_failure(
    variation: Variation, done: subprocess.CompletedProcess[str], data: dict[str, Any], rerun: str
) -> dict[str, Any]:
    results = data["results"]
    shown = f"{variation.describe()}\nre-run: {rerun}"
    bad = [f"{r['feature']}:{r['line']} [{r['profile']!r}] {r['status']}: {r['message'][:300]!r}"
           for r in results if r["status"] not in ("pass", "not_applicable")]  # fmt: skip
    assert not bad, shown + "\n" + "\n".join(bad[:20])
    assert done.returncode == 0, shown + "\n" + done.stdout[-2000:]
    reasons = inherent(variation)
    lost = [r["message"] for r in results if r["status"] == "not_applicable" and not any(
        reason in r["message"] for reason in reasons)]  # fmt: skip
    assert not lost, f"{shown}\nnot applicable for no reason the variation has: {Counter(lost).most_common(5)}"
    found = figures(variation, data)
    if LOG:
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(json.dumps(found, ensure_ascii=False) + "\n")
    return found


def run_suite(variation: Variation, engine: str = VARIANT, *args: str) -> dict[str, Any]:
    """The suite against ``variation``; no false failure, else the variation and how to re-run it."""
    with tempfile.TemporaryDirectory(prefix="variant-") as folder:
        done, data = conformance(variation, "run", engine, args, Path(folder))
        return check_no_false_failure(variation, done, data, rerun_command(variation, "run", engine, args))


def scenario_results(variation: Variation, *args: str, engine: str = VARIANT) -> list[dict[str, Any]]:
    """The results of a narrow run (``--scenario ...``) against ``variation``, whatever they are."""
    with tempfile.TemporaryDirectory(prefix="variant-") as folder:
        _, data = conformance(variation, "run", engine, args, Path(folder))
        results: list[dict[str, Any]] = data["results"]
        return results


# ------------------------------------------------------------------------------------ harness fixes


@pytest.mark.parametrize("how", ["different", "absent"])
def test_an_observed_field_the_protocol_does_not_require_of_the_engine_is_not_compared(how: str) -> None:
    """ETIQ-02 reads last_trick_won.<side> (added in GCP/2) as a seat sees it: an engine written
    for GCP/1 that observes need not know it (unknown_field) and any value it gives is not
    compared; before, the observation step compared it whatever the engine's version."""
    variation = Variation(protocol=1, capabilities=("observations",), deck_orders=True, optional=(how,))
    [result] = scenario_results(variation, "--scenario", "features/conduct.feature:56")
    assert result["status"] == "pass", result["message"]


def test_a_profile_named_with_a_plus_is_the_engine_s_own_profile_not_an_overlay() -> None:
    """An engine may name its profiles as it likes (any hello key): ``a+b`` is its profile, played
    whole, and ``a+b+mano_a_mano`` is that profile with an overlay. Before, the run split the
    name at the '+' and stopped at once: 'engine variant has no profile 'a''."""
    from guinote_conformance.engines.specs import profile_flags

    variation = Variation(profiles=(("a+b", "tradicional", ()), ("a", "lascuarenta", ())), deck_orders=True)
    info = VariantEngine(variation).info()
    assert profile_flags(info, "a+b") == info.profiles["a+b"]
    assert profile_flags(info, "a+b+mano_a_mano")["players"] == "2"
    assert profile_flags(info, "a+mano_a_mano")["cante_per_trick"] == info.profiles["a"]["cante_per_trick"]
    results = scenario_results(variation, "--rule", "DECK-01")
    assert {result["profile"] for result in results} == {"a+b", "a"}
    assert {result["status"] for result in results} <= {"pass", "not_applicable"}


@pytest.mark.parametrize("name", ["-x", "--profile"])
def test_a_profile_whose_name_starts_with_a_dash_can_be_chosen(name: str) -> None:
    """``run --profile -x`` plays the engine's profile ``-x``: before, the name reached pytest as
    a separate argument, read as an option of its own ('argument --profile: expected one argument')."""
    variation = Variation(profiles=((name, "lascuarenta", ()), ("other", "tradicional", ())), deck_orders=True)
    results = scenario_results(variation, "--rule", "DECK-01", "--profile", name)
    assert {result["profile"] for result in results} == {name}
    assert {result["status"] for result in results} == {"pass"}


# ------------------------------------------------------------------------------------ the property

#: hypothesis examples of the property: a few by default, more under HYPOTHESIS_PROFILE=deep, and
#: more again, with every profile and compare too, in the full run (tox -e independent)
EXAMPLES = 12 if FULL else (8 if DEEP else 3)
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not (FULL or DEEP),  # the default run is the same every time
    database=None,
    print_blob=True,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: an example takes seconds, and prints how to re-run it
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.slow
@PROPERTY
@given(variation=variations())
def test_the_suite_gives_no_false_failure_whatever_the_engine_does_with_what_the_protocol_leaves_free(
    variation: Variation,
) -> None:
    """Every scenario under the variation's first profile (every profile in the full run): no
    fail, error or timeout, and no run lost but to what the variation lacks."""
    profile = [] if FULL else ["--profile", variation.profiles[0][0]]
    found = run_suite(variation, VARIANT, *profile)
    played = variation.profiles if FULL else variation.profiles[:1]
    # most scenarios are written for four players and forty cards: a profile at another table plays few
    usual = sum(not any(name in ("players", "deck") and value not in ("4", "40") for name, value in overrides)
                for _, _, overrides in played)  # fmt: skip
    assert found["statuses"].get("pass", 0) >= 200 * usual + 10 * (len(played) - usual), found


#: the areas the wire tests run (the whole suite over the wire is the full run's)
WIRE_AREAS = () if FULL else ("--area", "cantes", "--area", "renuncio", "--area", "vueltas")


@pytest.mark.slow
def test_the_variant_over_the_wire_gets_no_false_failure() -> None:
    """``serve:py:...``: the variant served by guinote_conformance.adapters.serve (with batch), one profile."""
    variation = replace(KITCHEN_SINK, capabilities=("observations", "reason_codes_cantes"), protocol=1)
    found = run_suite(variation, f"serve:{VARIANT}", "--profile", variation.profiles[0][0], *WIRE_AREAS)
    assert found["statuses"]["pass"] >= 60, found


def test_the_variant_on_its_own_server_gets_no_false_failure() -> None:
    """``python -m tests.independent.variants``: x- members in every answer (and in hello's
    engine), the answers' members in its own order, non-ASCII written as UTF-8."""
    variation = replace(KITCHEN_SINK, answer_extras=True, raw_utf8=True, capabilities=("match", "positions"))
    engine = f"cmd:{sys.executable} -m tests.independent.variants"
    found = run_suite(variation, engine, "--profile", variation.profiles[0][0], *WIRE_AREAS)
    assert found["statuses"]["pass"] >= 60, found


#: A variation with every dimension on and no capability (the compare and wire tests' base).
KITCHEN_SINK = Variation(
    seed=7,
    profiles=(("Guiñote clásico", "lascuarenta", (("cante_per_trick", "many"),)), ("-x", "tradicional", ())),
    dropped_values=(("seven_is_muestra", "swap_with_lowest"),),
    shuffle_members=True,
    shuffle_lists=True,
    optional=OPTIONAL,
    extra_members=True,
    extra_events=True,
    floats=PLACES,
    messages=MESSAGES,
    codes="varied",
    rules="varied",
    new_point_deal=False,
    answer_extras=True,
)


def compare_variation(variation: Variation, hands: int, *args: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="variant-") as folder:
        command = ["--hands", str(hands), *args]
        done, data = conformance(variation, "compare", VARIANT, command, Path(folder))
        shown = f"{variation.describe()}\nre-run: {rerun_command(variation, 'compare', VARIANT, command)}"
        assert done.returncode == 0, shown + "\n" + done.stdout[-3000:]
        assert data["groups"] == [], shown + "\n" + json.dumps(data["groups"][:2], ensure_ascii=False)[:3000]
        found = {"variation": variation.describe(), "json": variation.to_json(), "compare_hands": data["hands"],
                 "divergence_groups": len(data["groups"])}  # fmt: skip
        if LOG:
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps(found, ensure_ascii=False) + "\n")
        return found


def test_compare_finds_no_divergence_in_the_variant() -> None:
    found = compare_variation(KITCHEN_SINK, 8, "--profile", KITCHEN_SINK.profiles[0][0])
    assert found["compare_hands"] >= 8, found


# ------------------------------------------------------------------------------------ each dimension varies

DEAL: dict[str, Any] = {
    "dealer": 3,
    "hands": [["Ao", "3o", "Ro", "So", "Co", "7o"], ["Ac", "3c", "Rc", "Sc", "Cc", "7c"],
              ["Ae", "3e", "Re", "Se", "Ce", "7e"], ["Ab", "3b", "Rb", "Sb", "Cb", "7b"]],
    "muestra": "2o",
    "stock": ["6o", "5o", "4o", "6c", "5c", "4c", "2c", "6e", "5e", "4e", "2e", "6b", "5b", "4b", "2b"],
}  # fmt: skip


def played(variation: Variation, tricks: int = 4) -> tuple[VariantEngine, Any, list[dict[str, Any]]]:
    """A variant's game after ``tricks`` tricks (each seat its first legal card, draws made) and
    the events it answered; refused moves tried on the way (a play out of turn, a draw too soon)."""
    engine = VariantEngine(variation)
    flags = engine.info().profiles[variation.profiles[0][0]]
    game = engine.start({"flags": flags, **DEAL})
    events: list[dict[str, Any]] = []
    for _ in range(tricks * 5):
        legal = game.legal_actions()
        draw = [a for a in legal if a["type"] == "draw"]
        action = draw[0] if draw else min((a for a in legal if a["type"] == "play"), key=lambda a: a["card"])
        game.apply({"type": "draw"} if not draw else {"type": "play", "seat": 9, "card": "Ao"})  # refused
        outcome = game.apply(action)
        assert not isinstance(outcome, Rejected), outcome
        events += outcome.events
    return engine, game, events


def refusals(variation: Variation, count: int = 40) -> list[Rejected]:
    _, game, _ = played(variation, 1)
    found = []
    for number, card in enumerate(deck_codes(40)[:count]):  # each a call of its own: its own choices
        outcome = game.apply({"type": "play", "seat": number % 4, "card": card})
        if isinstance(outcome, Rejected):
            found.append(outcome)
    return found


def test_every_dimension_really_varies_what_the_engine_answers() -> None:
    plain = Variation(deck_orders=True)
    _, plain_game, plain_events = played(plain)
    assert all(
        type(value) is int for event in plain_events for value in event.values() if isinstance(value, float | int)
    )

    _, game, events = played(replace(plain, shuffle_members=True, seed=3))
    orders = {tuple(event) for event in events if event["type"] == "card_played"}
    assert len(orders) > 1, orders  # the members of one kind of event in more than one order
    assert len({tuple(action) for action in game.legal_actions()}) > 1

    _, game, _ = played(replace(plain, shuffle_lists=True, seed=1))
    assert [a["card"] for a in game.legal_actions() if a["type"] == "play"] != sorted(
        a["card"] for a in plain_game.legal_actions() if a["type"] == "play"
    ) or len(game.legal_actions()) < 3

    _, _, events = played(replace(plain, extra_members=True))
    assert any(set(event) - set(REQUIRED_MEMBERS[event["type"]]) - {"type"} for event in events)
    assert any(name.startswith("x-") for event in events for name in event)

    _, _, events = played(replace(plain, extra_events=True))
    own = [event for event in events if event["type"] not in REQUIRED_MEMBERS]
    assert own and all(re.fullmatch(r"[a-z][a-z0-9_]*", event["type"]) for event in own)

    _, game, events = played(replace(plain, floats=PLACES))
    numbers = [value for event in events for value in event.values() if isinstance(value, int | float)]
    assert numbers and all(type(value) is float and value.is_integer() for value in numbers)
    assert all(type(a["seat"]) is float for a in game.legal_actions() if "seat" in a)
    assert type(game.state("stock_count")) is float and type(game.state("draw_pending")) is bool


def test_the_members_and_fields_the_engine_need_not_give_are_left_out_given_or_given_otherwise() -> None:
    def hand_over(variation: Variation) -> dict[str, Any]:
        _, game, _ = played(variation, 0)
        for _ in range(80):  # play out the hand, first legal card, draws made
            legal = game.legal_actions()
            if not legal or legal[0]["type"] == "deal":
                break
            draw = [a for a in legal if a["type"] == "draw"]
            outcome = game.apply(draw[0] if draw else min((a for a in legal if a["type"] == "play"), key=str))
            over = [event for event in getattr(outcome, "events", []) if event["type"] == "hand_over"]
            if over:
                return {**over[0], "hand_rule": _state_or_none(game, "hand_rule")}
        raise AssertionError("the hand did not end")

    base = Variation(deck_orders=True)
    absent, given_, other = (hand_over(replace(base, optional=(how,))) for how in OPTIONAL)
    assert "rule" not in absent and absent["hand_rule"] is UNKNOWN
    reference_rule = given_["rule"]
    assert given_["hand_rule"] == reference_rule and other["rule"] != reference_rule
    assert other["hand_rule"] not in (reference_rule, UNKNOWN)
    coded = hand_over(replace(base, capabilities=("reason_codes",), optional=("absent",)))
    assert coded["rule"] == reference_rule == coded["hand_rule"]


UNKNOWN = object()


def _state_or_none(game: Any, name: str) -> Any:
    try:
        return game.state(name)
    except UnknownField:
        return UNKNOWN


def test_refusals_carry_texts_codes_and_rule_ids_of_the_engine_s_own() -> None:
    base = Variation(deck_orders=True, codes="varied", rules="varied", messages=MESSAGES)
    found = refusals(base)
    assert len({r.code for r in found}) > 2 and len({r.rule for r in found}) > 2
    assert any("\x00" in r.message for r in found)
    texts = {r.message for r in found}
    assert (
        any("<script>" in t for t in texts) and any("\x1b[" in t for t in texts) and any(len(t) > 5000 for t in texts)
    )
    named = refusals(replace(base, codes="suite_names"))
    assert {r.code for r in named} & set(REASON_CODES)  # the suite's names, not meaning what the suite means
    coded = refusals(replace(base, capabilities=("reason_codes",)))
    assert {r.code for r in coded} <= set(REASON_CODES) and all(r.rule for r in coded)
    areas = refusals(replace(base, capabilities=("reason_codes_free_phase",)))
    assert {(r.code, r.rule) for r in areas if r.rule.startswith("PLAY-")} and all(
        r.code not in REASON_CODES or r.rule.startswith("PLAY-") for r in areas
    )


def test_capabilities_declared_are_answered_and_the_others_are_not() -> None:
    base = Variation(deck_orders=True)
    _, game, _ = played(base, 1)
    with pytest.raises(UnknownField):
        game.observation(0, "hand.1")
    _, game, _ = played(replace(base, capabilities=("observations", "match")), 1)
    assert game.observation(0, "hand.1") is None and len(game.observation(0, "hand.0")) == 6
    assert game.state("match.points.0") == 0
    with pytest.raises(SetupRejected) as refused:
        VariantEngine(base).start({"flags": {}, "position": {}})
    assert refused.value.unsupported == ["setup=position"]


def test_the_declaration_varies_profiles_flags_version_and_deals() -> None:
    variation = Variation(protocol=1, profiles=(("<b>x</b>", "ludoteka", (("tute", "wins_point"),)),),
                          dropped_values=(("seven_is_muestra", "swap_with_lowest"),),
                          deck_token="deck order")  # fmt: skip
    engine = VariantEngine(variation)
    info = engine.info()
    assert list(info.profiles) == ["<b>x</b>"] and info.profiles["<b>x</b>"]["tute"] == "wins_point"
    assert (
        info.protocol == 1
        and "renuncio_faults" not in info.flags
        and "renuncio_faults" not in info.profiles["<b>x</b>"]
    )
    assert "swap_with_lowest" not in info.flags["seven_is_muestra"]
    flags = dict(info.profiles["<b>x</b>"])
    with pytest.raises(SetupRejected) as refused:  # a flag added after the version it was written for
        engine.start({"flags": {**flags, "renuncio_faults": "play_duties"}, **DEAL})
    assert refused.value.unsupported == ["renuncio_faults=?"]
    with pytest.raises(SetupRejected) as refused:
        engine.start({"flags": flags, "dealer": 0, "deck": ["Ao"] * 40})
    assert refused.value.unsupported == ["deck order"]
    game = engine.start({"flags": flags, **DEAL})
    assert isinstance(game.apply({"type": "deal", "deck": []}), Rejected)


def test_the_own_server_puts_x_members_in_its_answers_and_writes_utf8() -> None:
    variation = replace(KITCHEN_SINK, answer_extras=True, raw_utf8=True, shuffle_members=True)
    requests = [{"id": 1, "cmd": "hello", "protocol": 2}, {"id": 2, "cmd": "nope"}, {"id": 3, "cmd": "stop"}]
    done = subprocess.run(
        [sys.executable, "-m", "tests.independent.variants"], input="\n".join(map(json.dumps, requests)) + "\n",
        capture_output=True, text=True, encoding="utf-8", timeout=60, check=True, env=environment(variation), cwd=REPO,
    )  # fmt: skip
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert all(any(name.startswith("x-") for name in a) for a in answers)
    assert "x-build" in answers[0]["engine"] and "Guiñote" in done.stdout  # written as UTF-8, not escaped
    assert from_protocol_check(answers[0]) == [] and answers[1]["ok"] is False


def from_protocol_check(answer: dict[str, Any]) -> list[Any]:
    from guinote_conformance.adapters.protocol import check_response

    return check_response("hello", answer)


def test_every_dimension_can_be_drawn() -> None:
    """The strategy reaches every value of every dimension (so the property can vary it)."""
    strategy = variations()
    wanted: list[Callable[[Variation], bool]] = [
        lambda v: v.protocol == 1, lambda v: v.protocol == 2, lambda v: v.deck_orders, lambda v: not v.deck_orders,
        lambda v: v.shuffle_members, lambda v: v.shuffle_lists, lambda v: v.extra_members, lambda v: v.extra_events,
        lambda v: set(v.floats) == set(PLACES), lambda v: set(v.optional) == set(OPTIONAL),
        lambda v: len(v.profiles) == 4, lambda v: bool(v.dropped_values), lambda v: v.answer_extras,
        lambda v: v.raw_utf8,
        lambda v: any(o for _, _, o in v.profiles), lambda v: not v.new_point_deal,
        lambda v: any(c.startswith("reason_codes_") for c in v.capabilities),
        lambda v: "reason_codes" in v.capabilities,
        *(lambda v, c=c: c in v.capabilities for c in ("observations", "match", "positions")),
        *(lambda v, m=m: m in v.messages for m in MESSAGES),
        *(lambda v, c=c: v.codes == c for c in CODES),
        *(lambda v, r=r: v.rules == r for r in RULES),
        lambda v: any("+" in name or not name.isprintable() for name, _, _ in v.profiles),
    ]  # fmt: skip
    for condition in wanted:
        found = find(strategy, condition, settings=settings(database=None, max_examples=2000, phases=[Phase.generate]))
        assert Variation.from_json(found.to_json()) == found
        assert len(found.describe()) < 400


@settings(max_examples=50, deadline=None, database=None)
@given(variation=variations())
def test_a_drawn_variation_is_a_consistent_declaration(variation: Variation) -> None:
    info = VariantEngine(variation).info()
    assert Variation.from_json(variation.to_json()) == variation
    for flags in info.profiles.values():
        assert set(flags) == set(info.flags) and all(value in info.flags[name] for name, value in flags.items())


def test_the_double_s_gated_members_and_fields_agree_with_the_schemas() -> None:
    """GATED_MEMBERS and GATED_FIELDS were written from the protocol page: they are the schemas'."""
    gated = {kind: set(members) for kind, members in GATED_MEMBERS.items()}
    annotated: dict[str, set[str]] = {}
    for kind, entries in event_entries().items():
        for name, entry in entries.items():
            if entry.capability or entry.since > 1:
                annotated.setdefault(kind, set()).add(name)
    assert gated == annotated
    fields = {key for key, entry in field_entries().items() if entry.capability or entry.since > 1}
    covered = {key: [gate for gate in GATED_FIELDS if key == gate or (key.startswith(gate) and gate.endswith("."))]
               for key in fields}  # fmt: skip
    assert all(covered.values()), covered
    assert {gate for gates in covered.values() for gate in gates} == set(GATED_FIELDS)
    ungated = set(field_entries()) - fields
    assert not [key for key in ungated for gate in GATED_FIELDS if key.startswith(gate)]


# ------------------------------------------------------------------------------------ the bugs worked around


def test_the_harness_bugs_the_variants_found_in_run_stay_fixed() -> None:
    """Each gave false failures before: the explicit next deal of an engine writing a seat as a
    whole float (driver), an engine's own profile at another table (plugin: not applicable, not an
    error), a reason code whose area depends on the phase (obligations: not checked of an engine
    that declares only one of them)."""
    base = Variation(deck_orders=True)
    [dealt] = scenario_results(
        replace(base, deck_orders=False, floats=("state",)), "--scenario", "features/deal.feature:94"
    )
    # a scenario about dealing (DEAL-11): not applicable to an engine that deals its own way, once it took the deal
    assert dealt["status"] == "not_applicable" and "took the explicit deal" in dealt["message"], dealt["message"]
    table = replace(base, profiles=(("two", "lascuarenta", (("players", "2"),)),))
    [other] = scenario_results(table, "--scenario", "features/arrastre.feature:15")
    assert other["status"] == "not_applicable" and "does not fit the table" in other["message"], other["message"]
    areas = replace(base, capabilities=("reason_codes_free_phase",))
    lead = "Scenario: Only the winner of the last free trick may lead the first trick of the arrastre"
    lines = (REPO / "features" / "free_phase.feature").read_text(encoding="utf-8").splitlines()
    line = next(number for number, text in enumerate(lines, 1) if lead in text)
    [refused] = scenario_results(areas, "--scenario", f"features/free_phase.feature:{line}")
    assert refused["status"] == "pass", refused["message"]


def test_compare_takes_a_legal_action_by_its_members_of_the_vocabulary_and_a_seat_by_its_value() -> None:
    """compare keyed a legal action by its JSON text: a seat written 2.0, or an x- member of the
    engine's, made the same actions differ ('legal actions differ')."""
    from guinote_conformance.adapters.obligations import Obligations
    from guinote_conformance.oracle.steps import Step, compare_steps

    legal = [{"type": "play", "seat": 2, "card": card} for card in ("Ao", "3o")]
    theirs = [{**action, "seat": 2.0, "x-hint": "good"} for action in reversed(legal)]  # the same, in another order
    assert compare_steps(Step(None, legal=legal), Step(None, legal=theirs), obligations=Obligations()) is None
    other = [{"type": "play", "seat": 2, "card": "Ao"}]
    assert compare_steps(Step(None, legal=legal), Step(None, legal=other), obligations=Obligations()) is not None


def test_a_claim_scenario_holds_under_an_engine_profile_that_counts_the_thirty_malas_otherwise() -> None:
    """VUELTAS-04/06 (vueltas.feature:154): a claim made after one trick of a hand de vueltas is
    right only where the thirty malas count the últimas as points (cards_plus_ultimas); under
    cards_and_ultimas (the side must have taken the últimas, which no one has yet) the reference
    too says claim_false. The scenario now says the flag it needs: an engine profile that reads the
    count otherwise, which no reference profile does, failed it."""
    variation = Variation(profiles=(("p", "tradicional", (("thirty_malas_count", "cards_and_ultimas"),)),))
    [result] = scenario_results(replace(variation, deck_orders=True), "--scenario", "features/vueltas.feature:154")
    assert result["status"] == "pass", result["message"]

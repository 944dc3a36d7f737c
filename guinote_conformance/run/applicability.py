"""Which scenario runs an engine can play, decided before any step runs: the one owner of the
reasons a run is *not applicable* by the engine's declaration, and the count given at the start.

A run is not applicable when the scenario needs a flag value the engine does not declare
(:func:`flag_reason`), when it is about the other table of an overlay (:func:`overlay_reason`),
or when a step needs a capability the engine lacks (:func:`capability_needs`, read off the
steps' text). The plugin asks the first two before a scenario starts; the capability needs are
found again, as the steps run, by the driver, which has the last word (a position that no stored
play reaches, a deck order the engine turns out to refuse...). :func:`forecast` counts them all
for the compatibility summary that opens a run, and the runs that deal the next hand from the
cards they give (:data:`NEXT_HAND_CARDS`): not applicable to an engine that declares
``own_shuffle``, and to one that refuses those cards once the hand is over
(:meth:`~guinote_conformance.run.scenario_setup.ScenarioSetup.next_deal_refused`), which only the run
finds out: the summary says how many runs that would cost.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from guinote_conformance.adapters.interface import OWN_SHUFFLE, EngineInfo
from guinote_conformance.catalogue.features import TABLE_FLAGS, Scenario
from guinote_conformance.engines.specs import engine_lines, flag_piece, split_label
from guinote_conformance.run.scenario_setup import own_shuffle_reason

#: Steps that need a capability, by the text they start with (a scenario's Given/When/Then text).
STEP_NEEDS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"^seat \d+ sees "), "observations", "checks a player's observation"),
    (re.compile(r"^the match stands at "), "match", "starts from a match score"),
    (re.compile(r"^side [01] wins the (coto|match)$"), "match", "checks who wins a coto or the match"),
    (re.compile(r"^no side wins the (coto|match)$"), "match", "checks that no side wins a coto or the match"),
)

#: The steps that deal the next hand from the cards they give (a deck order, or the explicit deal).
NEXT_HAND_CARDS = re.compile(r"^the next hand is dealt(?: from the deck, top card first)?:$")
#: Why such a run is not applicable to an engine that declares ``own_shuffle`` (the driver's words).
OWN_SHUFFLE_REASON = own_shuffle_reason("deals the next hand")


def flag_reason(info: EngineInfo, profile: str, flags: Mapping[str, str], scenario: Scenario) -> str | None:
    """Why the engine cannot play ``scenario`` under ``profile`` with ``flags`` (the profile's,
    overridden, with the scenario's tags): a flag value it does not declare; ``None`` if it can.
    An engine's own profile is its own business: only what the overlays and the scenario set is
    checked against its flag lists."""
    base = info.profiles.get(split_label(info.profiles, profile)[0], {})
    needed = {**{k: v for k, v in flags.items() if base.get(k) != v}, **scenario.flags_under(flags)}
    unsupported = [f"{name}={value}" for name, value in needed.items() if value not in info.flags.get(name, ())]
    return f"engine {info.name} does not support {', '.join(unsupported)}" if unsupported else None


def overlay_reason(profile: str, scenario: Scenario, overlays: Mapping[str, Mapping[str, str]]) -> str | None:
    """A scenario tagged with a table flag that an overlay of ``profile`` changes (``players=4``
    under ``mano_a_mano``) is about the other table: under that overlay it is not applicable."""
    for overlay in profile.split("+")[1:]:
        piece = flag_piece(overlay)  # (a value chosen with run --flag: as an overlay of one flag)
        clash = sorted(name for name, value in (piece or overlays.get(overlay, {})).items()
                       if name in scenario.flags and value not in scenario.choices(name))  # fmt: skip
        if clash:
            tags = ", ".join(f"{name}={'|'.join(scenario.choices(name))}" for name in clash)
            return f"the scenario is tagged {tags}; {'--flag' if piece else 'the overlay'} {overlay} changes it"
    return None


def other_table(flags: Mapping[str, str]) -> str:
    """The table ``flags`` play if it is not the usual one (``players=2, deck=36``), else ``""``:
    a scenario that names a seat or a card not at that table does not fit it (not applicable)."""
    return ", ".join(f"{name}={flags[name]}" for name, usual in TABLE_FLAGS.items() if flags.get(name, usual) != usual)


def capability_needs(scenario: Scenario) -> list[tuple[str, str]]:
    """The capabilities the steps of ``scenario`` need, each with what needs it."""
    found: dict[str, str] = {}
    for step in scenario.steps:
        for pattern, capability, what in STEP_NEEDS:
            if pattern.search(step.text):
                found.setdefault(capability, what)
    return list(found.items())


def gives_next_hand(scenario: Scenario) -> bool:
    """Whether a step of ``scenario`` deals the next hand from cards it gives (:data:`NEXT_HAND_CARDS`)."""
    return any(NEXT_HAND_CARDS.search(step.text) for step in scenario.steps)


@dataclass(frozen=True)
class Forecast:
    """What a run will play of an engine, told before it starts."""

    runs: int
    #: why runs will be not applicable, with their count (the most frequent first)
    not_applicable: tuple[tuple[str, int], ...]
    #: runs to be played that deal the next hand from the cards they give: not applicable if the
    #: engine refuses them (it deals the next hand itself without declaring ``own_shuffle``)
    next_hand_cards: int = 0

    @property
    def applicable(self) -> int:
        return self.runs - sum(count for _, count in self.not_applicable)


def forecast(
    info: EngineInfo,
    cases: Iterable[tuple[str, Mapping[str, str]]],
    scenarios: Sequence[Scenario],
    overlays: Mapping[str, Mapping[str, str]],
    overrides: Mapping[str, str] | None = None,
) -> Forecast:
    """The runs of ``scenarios`` under each ``(profile label, its flags)`` and why some will not
    be applicable (the same reasons the run gives, by count; capabilities by what needs them)."""
    reasons: Counter[str] = Counter()
    runs = next_hand = 0
    for profile, profile_flags in cases:
        for scenario in scenarios:
            runs += 1
            played = {**profile_flags, **(overrides or {})}
            flags = {**played, **scenario.flags_under(played)}
            why = overlay_reason(profile, scenario, overlays) or flag_reason(info, profile, flags, scenario)
            if why is None:
                lacking = [(c, what) for c, what in capability_needs(scenario) if c not in info.capabilities]
                why = f"the engine lacks the {lacking[0][0]!r} capability" if lacking else None
            if why is None and gives_next_hand(scenario):
                if OWN_SHUFFLE in info.capabilities:
                    why = OWN_SHUFFLE_REASON
                else:
                    next_hand += 1
            if why is not None:
                reasons[why] += 1
    return Forecast(runs, tuple(reasons.most_common()), next_hand)


def compatibility_lines(
    spec: str, info: EngineInfo, notes: Sequence[str], expected: Forecast, *, reasons: bool = True
) -> list[str]:
    """The summary that opens a run: :func:`engine_lines`, and how many runs will be not
    applicable and why (by count, never per run; without ``reasons``, the count alone: ``run -q``)."""
    lines = engine_lines(spec, info, notes)
    runs = f"{expected.runs} scenario run{'' if expected.runs == 1 else 's'}"
    if not expected.not_applicable:
        lines.append(f"  {runs}, all to be played")
    elif not reasons:
        lines.append(f"  {runs}: {expected.applicable} to be played, {expected.runs - expected.applicable} not "
                     "applicable by the engine's declaration (-v: why)")  # fmt: skip
    else:
        lines.append(f"  {runs}: {expected.applicable} to be played; not applicable by the engine's declaration:")
        lines.extend(f"    {count} {why}" for why, count in expected.not_applicable)
    if expected.next_hand_cards:
        lines.append(
            f"  {expected.next_hand_cards} of the runs to be played deal the next hand from the cards they give: "
            f"not applicable if the engine refuses them (an engine that deals the next hand itself declares "
            f"'{OWN_SHUFFLE}')"
        )
    return lines


__all__ = [
    "NEXT_HAND_CARDS",
    "OWN_SHUFFLE_REASON",
    "STEP_NEEDS",
    "Forecast",
    "capability_needs",
    "compatibility_lines",
    "flag_reason",
    "forecast",
    "gives_next_hand",
    "other_table",
    "overlay_reason",
]

"""Rule flags and named profiles, loaded from ``profiles.toml`` (the data is the rulebook's).

A *flag* is a point where the sources disagree; each of its values names the sources that
read the rule that way. ``profiles.toml`` is the one place a flag is declared (values,
default, sources); :class:`Rules` takes its flags from it, so a new flag is declared nowhere else.
A *profile* sets every flag (one it omits takes the flag's default); an *overlay* (two
players, 48 or 36 cards) changes a few flags on top of a profile. Profile strings combine them with ``+``:
``"lascuarenta+mano_a_mano"``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any


class RulesError(ValueError):
    """An unknown profile, overlay, flag or value."""


@dataclass(frozen=True)
class FlagValue:
    name: str
    sources: tuple[str, ...]
    reading: str
    #: source -> why that source's profiles use another value (checked by the suite's self-checks)
    outside_profile: Mapping[str, str] = field(default_factory=dict)
    #: why scenarios may need this value to observe a rule whatever their sources play ("" if not)
    observes: str = ""


@dataclass(frozen=True)
class FlagSpec:
    name: str
    disagreement: str
    rules: tuple[str, ...]
    summary: str
    values: Mapping[str, FlagValue]
    default: str
    #: The conformance protocol version that added the flag (``since`` in profiles.toml): an engine
    #: written for an earlier version does not declare it, and plays ``default``
    #: (guinote_conformance.adapters.versions).
    since: int = 1
    #: another flag -> its values under which this one changes play (``matters_when``); empty:
    #: it always may. Under any other value the flag's reading makes no difference to a game.
    matters_when: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class ProfileSpec:
    name: str
    sources: tuple[str, ...]
    summary: str
    flags: Mapping[str, str]
    overlay: bool


class Rules:
    """A complete, validated set of flag values: the rules one game is played under.

    Every flag of ``profiles.toml`` is an attribute (``rules.tute``, a ``str``), read from the
    declaration itself: adding a flag there is all the engine needs to play it at its default
    (the fidelity check ``rules_reads_are_flags`` names a ``rules.X`` the declaration lacks).
    Immutable, hashable and equal by value; build one with :func:`make_rules` or :func:`rules_for`.
    """

    __slots__ = ("__dict__", "_values")
    _values: dict[str, str]

    def __init__(self, values: Mapping[str, str]) -> None:
        object.__setattr__(self, "_values", {name: str(value) for name, value in values.items()})
        # plain instance attributes: a flag read in the engine's inner loops is a dict lookup
        self.__dict__.update(self._values)

    def __getattr__(self, name: str) -> str:
        """Only for a name that is not a flag (the flags are instance attributes)."""
        if name.startswith("__"):
            raise AttributeError(name)
        flags = ", ".join(self._values)
        raise AttributeError(f"Rules has no flag {name!r}: declare it in profiles.toml; flags: {flags}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Rules are immutable: use with_flags({{{name!r}: ...}})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items())))

    def __repr__(self) -> str:
        return "Rules(" + ", ".join(f"{name}={value!r}" for name, value in self._values.items()) + ")"

    def __reduce__(self) -> tuple[type[Rules], tuple[dict[str, str]]]:
        return (Rules, (dict(self._values),))

    @property
    def player_count(self) -> int:
        """``players`` as a number (2 or 4)."""
        return int(self._values["players"])

    @property
    def deck_size(self) -> int:
        """``deck`` as a number (40, 48 or 36)."""
        return int(self._values["deck"])

    def as_dict(self) -> dict[str, str]:
        """Every flag and its value."""
        return dict(self._values)

    def with_flags(self, overrides: Mapping[str, str]) -> Rules:
        """These rules with some flags changed (validated like :func:`rules_for`)."""
        return make_rules({**self._values, **overrides})


#: What :class:`Rules` has besides its flags: a flag may not take one of these names.
RULES_MEMBERS = frozenset(name for name in vars(Rules) if not name.startswith("_"))


@cache
def _catalogue() -> dict[str, Any]:
    text = resources.files("guinote_conformance.reference_engine").joinpath("profiles.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def parse_flags(catalogue: Mapping[str, Any]) -> dict[str, FlagSpec]:
    """The flags of a parsed ``profiles.toml`` (see :func:`flag_specs`)."""
    specs: dict[str, FlagSpec] = {}
    for name, raw in catalogue["flags"].items():
        values = {
            value: FlagValue(
                value,
                tuple(info["sources"]),
                info["reading"],
                dict(info.get("outside_profile", {})),
                str(info.get("observes", "")),
            )
            for value, info in raw["values"].items()
        }
        default = str(raw.get("default", ""))
        if default not in values:
            raise RulesError(f"profiles.toml: flag {name} has default {default!r}, not one of {', '.join(values)}")
        when = {
            str(other): tuple(str(value) for value in among) for other, among in raw.get("matters_when", {}).items()
        }
        specs[name] = FlagSpec(
            name,
            raw["disagreement"],
            tuple(raw["rules"]),
            raw["summary"],
            values,
            default,
            int(raw.get("since", 1)),
            when,
        )
    for name, spec in specs.items():
        for other, among in spec.matters_when.items():
            if other not in specs or other == name or not set(among) <= set(specs[other].values):
                named = f"{other}={'/'.join(among)}"
                raise RulesError(f"profiles.toml: flag {name}: matters_when names {named}, not a value of another flag")
    return specs


def parse_profiles(catalogue: Mapping[str, Any]) -> dict[str, ProfileSpec]:
    """The profiles and overlays of a parsed ``profiles.toml`` (see :func:`profile_specs`)."""
    defaults = {name: spec.default for name, spec in parse_flags(catalogue).items()}
    specs: dict[str, ProfileSpec] = {}
    for kind in ("profiles", "overlays"):
        for name, raw in catalogue.get(kind, {}).items():
            # a profile that leaves a flag out plays its default (so a new flag needs no profile edit)
            flags = {**defaults, **raw["flags"]} if kind == "profiles" else dict(raw["flags"])
            specs[name] = ProfileSpec(name, tuple(raw["sources"]), raw["summary"], flags, kind == "overlays")
    return specs


@cache
def flag_specs() -> dict[str, FlagSpec]:
    """Every flag with its allowed values, its default and the sources behind each value."""
    return parse_flags(_catalogue())


def flag_defaults() -> dict[str, str]:
    """Every flag's default: the value a profile that does not name the flag plays."""
    return {name: spec.default for name, spec in flag_specs().items()}


@cache
def profile_specs() -> dict[str, ProfileSpec]:
    """Named profiles and overlays."""
    return parse_profiles(_catalogue())


def profile_names() -> list[str]:
    return [name for name, spec in profile_specs().items() if not spec.overlay]


def overlay_names() -> list[str]:
    return [name for name, spec in profile_specs().items() if spec.overlay]


def check_flags(values: Mapping[str, str], specs: Mapping[str, FlagSpec] | None = None) -> None:
    """Raise :class:`RulesError` naming the valid choices for an unknown flag or value.

    ``specs``: the declaration to check against (:func:`parse_flags` of another clone's
    ``profiles.toml``); by default this engine's own."""
    specs = flag_specs() if specs is None else specs
    for name, value in values.items():
        if name not in specs:
            raise RulesError(f"unknown flag {name!r}; valid flags: {', '.join(sorted(specs))}")
        allowed = specs[name].values
        if str(value) not in allowed:
            raise RulesError(f"unknown value {value!r} for flag {name!r}; valid values: {', '.join(allowed)}")


def make_rules(values: Mapping[str, str]) -> Rules:
    """Build :class:`Rules` from a complete mapping of flag values."""
    check_flags(values)
    missing = sorted(set(flag_specs()) - set(values))
    if missing:
        raise RulesError(f"missing flags: {', '.join(missing)}")
    return Rules({name: str(values[name]) for name in flag_specs()})


def rules_for(profile: str = "lascuarenta", overrides: Mapping[str, str] | None = None) -> Rules:
    """The rules of a profile string such as ``"tradicional+mano_a_mano"``, plus overrides."""
    specs = profile_specs()
    base, *overlays = profile.split("+")
    if base not in specs or specs[base].overlay:
        raise RulesError(f"unknown profile {base!r}; valid profiles: {', '.join(profile_names())}")
    values = dict(specs[base].flags)
    for overlay in overlays:
        if overlay not in specs or not specs[overlay].overlay:
            raise RulesError(f"unknown overlay {overlay!r}; valid overlays: {', '.join(overlay_names())}")
        values.update(specs[overlay].flags)
    values.update(overrides or {})
    return make_rules(values)

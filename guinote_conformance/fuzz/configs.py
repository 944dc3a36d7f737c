"""The configurations games are fuzzed under: a profile, a profile with overlays, a flag set.

In: the engine's :class:`~guinote_conformance.adapters.interface.EngineInfo` (its profiles, the flag values it
declares) and a configuration's text (``ludoteka+mano_a_mano``, ``--flags tute=wins_point``). Out:
a :class:`~guinote_conformance.oracle.divergence.Config` (:func:`resolve`; by default, :func:`default_configs`),
or a :class:`ConfigError` that lists the valid names.

The rule: profiles are the engine's own, overlays the rulebook's, applied on top; a flag value the
engine does not play makes a configuration that is not applicable, not an error. By default a run
plays every profile of the engine, the first with each overlay it can play, and the first with each
other flag value the engine declares, one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping

from guinote_conformance.adapters.interface import EngineInfo
from guinote_conformance.oracle.divergence import Config


class ConfigError(ValueError):
    """A profile, overlay or flag set that does not exist (the message lists the valid ones)."""


def parse_flag_set(text: str) -> dict[str, str]:
    """``"tute=wins_point,deck=48"`` as a mapping; raise :class:`ConfigError` if malformed."""
    flags: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ConfigError(f"--flags: {part!r} is not flag=value (write e.g. --flags tute=wins_point,deck=48)")
        flags[name.strip()] = value.strip()
    return flags


def resolve(info: EngineInfo, text: str, overrides: Mapping[str, str] | None = None) -> Config:
    """The configuration ``text`` names for this engine: ``profile[+overlay...]`` and overrides.

    Profiles are the engine's own; overlays (``mano_a_mano``, ``ademuz48``...) are the
    rulebook's, applied on top. An override must name a flag and a value of the suite's (or of
    the engine's): one the engine does not play makes a configuration that is not applicable
    (:meth:`Fuzzer.run <guinote_conformance.fuzz.fuzzer.Fuzzer.run>` says so), not an error."""
    from guinote_conformance.engines.specs import split_label
    from guinote_conformance.reference_engine.flags import flag_specs, overlay_names, profile_specs

    base, overlays = split_label(info.profiles, text)
    if base not in info.profiles:
        raise ConfigError(f"the engine has no profile {base!r}; its profiles: {', '.join(info.profiles)}")
    flags = dict(info.profiles[base])
    specs = profile_specs()
    for overlay in overlays:
        if overlay not in overlay_names():
            raise ConfigError(f"unknown overlay {overlay!r} in {text!r}; overlays: {', '.join(overlay_names())}")
        flags.update(specs[overlay].flags)
    label = text
    if overrides:
        suite = flag_specs()
        for name, value in overrides.items():
            if name not in info.flags and name not in flags and name not in suite:
                known = sorted({*info.flags, *suite})
                raise ConfigError(f"unknown flag {name!r}; the flags: {', '.join(known)}")
            values = [*info.flags.get(name, ()), *(suite[name].values if name in suite else ())]
            if values and value not in values:
                listed = ", ".join(dict.fromkeys(values))
                raise ConfigError(f"flag {name}={value!r}: no such value; the values of {name}: {listed}")
        flags.update(overrides)
        label += "[" + ",".join(f"{k}={v}" for k, v in overrides.items()) + "]"
    return Config(label, flags, base)


def default_configs(info: EngineInfo) -> list[Config]:
    """Every profile of the engine; the first profile with each overlay the engine can play;
    and the first profile with each other flag value the engine declares, one at a time."""
    from guinote_conformance.reference_engine.flags import overlay_names, profile_specs

    configs = [Config(name, dict(flags), name) for name, flags in info.profiles.items()]
    if not configs:
        return configs
    first_name, first = next(iter(info.profiles.items()))
    for overlay in overlay_names():
        config = resolve(info, f"{first_name}+{overlay}")
        if not info.unsupported(profile_specs()[overlay].flags):
            configs.append(config)
    seen = {tuple(sorted(c.flags.items())) for c in configs}
    for name, values in info.flags.items():
        for value in values:
            if first.get(name) == value:
                continue
            config = resolve(info, first_name, {name: value})
            key = tuple(sorted(config.flags.items()))
            if key not in seen:
                seen.add(key)
                configs.append(config)
    return configs


__all__ = [
    "ConfigError",
    "default_configs",
    "parse_flag_set",
    "resolve",
]

"""Engines written for an earlier protocol version, or declaring fewer flags than the suite has.

The suite grows: a flag is added when a new disagreement between the sources is found
(``renuncio_faults`` came in GCP/2), an event member when a rule needs it. An engine written
before that keeps working:

* a flag that an engine's profiles and flag lists do not name is played at its documented
  default (``default`` in ``reference_engine/profiles.toml``), and the engine is never sent it:
  it is told only the flags it declared. The run says so once, at the start
  (:attr:`Compatibility.notes`), not once per scenario;
* what a later version added to the messages is optional for it (:mod:`guinote_conformance.adapters.obligations`
  reads the version from :attr:`~guinote_conformance.adapters.interface.EngineInfo.protocol`).

:class:`CompatibleEngine` does the first for any engine; every engine the suite opens is seen
through it (:meth:`guinote_conformance.engines.specs.EngineSpec.open`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from guinote_conformance.adapters.gcp.messages import PROTOCOL_VERSION
from guinote_conformance.adapters.interface import Engine, EngineInfo, GameHandle, Setup


@dataclass(frozen=True)
class Compatibility:
    """What the suite filled in for an engine's declaration, said once at the start of a run."""

    #: the protocol version the engine was written for
    protocol: int = PROTOCOL_VERSION
    #: flag -> the default it is played at, for a flag the engine does not declare
    defaulted: Mapping[str, str] = field(default_factory=dict)
    #: flag -> the version that added it (for the notes)
    since: Mapping[str, int] = field(default_factory=dict)

    @property
    def notes(self) -> list[str]:
        """One line per flag defaulted: which, why, and what the engine should declare."""
        lines = []
        for name, value in self.defaulted.items():
            added = self.since.get(name, 1)
            if added > self.protocol:
                why = f"added in GCP/{added}, after the GCP/{self.protocol} the engine was written for"
            else:
                why = "not declared by the engine"
            lines.append(f"flag {name} ({why}): played at its default {name}={value}; the engine is not sent it")
        return lines


def compatible_info(info: EngineInfo) -> tuple[EngineInfo, Compatibility]:
    """``info`` with every flag of the suite that it does not declare played at its default.

    A flag is defaulted when no profile and no flag list of the engine names it; one that a
    profile names but another omits is the engine's own inconsistency and left as declared
    (the run then refuses those scenarios with the missing flag named)."""
    from guinote_conformance.reference_engine.flags import flag_specs

    specs = flag_specs()
    declared = set(info.flags) | {name for flags in info.profiles.values() for name in flags}
    defaulted = {name: spec.default for name, spec in specs.items() if name not in declared}
    if not defaulted:
        return info, Compatibility(info.protocol)
    profiles = {name: {**flags, **defaulted} for name, flags in info.profiles.items()}
    flag_values = {**info.flags, **{name: [value] for name, value in defaulted.items()}}
    since = {name: specs[name].since for name in defaulted}
    return replace(info, profiles=profiles, flags=flag_values), Compatibility(info.protocol, defaulted, since)


class CompatibleEngine:
    """An engine seen with the suite's flags filled in (:func:`compatible_info`); its setups are
    sent without the flags it never declared."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._info: EngineInfo | None = None
        self._compatibility = Compatibility()

    def info(self) -> EngineInfo:
        if self._info is None:
            self._info, self._compatibility = compatible_info(self.engine.info())
        return self._info

    @property
    def compatibility(self) -> Compatibility:
        self.info()
        return self._compatibility

    def start(self, setup: Setup) -> GameHandle:
        defaulted = self.compatibility.defaulted
        flags = setup.get("flags")
        if defaulted and isinstance(flags, Mapping) and any(name in flags for name in defaulted):
            own = {name: value for name, value in flags.items() if name not in defaulted}
            setup = {**setup, "flags": own}
        return self.engine.start(setup)

    def close(self) -> None:
        self.engine.close()

    def __getattr__(self, name: str) -> Any:  # e.g. stderr_tail of a subprocess engine
        return getattr(self.engine, name)


def compatibility_of(engine: Engine) -> Compatibility:
    """The :class:`Compatibility` of an engine the suite opened (none filled in for another)."""
    found = getattr(engine, "compatibility", None)
    return found if isinstance(found, Compatibility) else Compatibility(engine.info().protocol)


__all__ = ["Compatibility", "CompatibleEngine", "compatibility_of", "compatible_info"]

"""Engine specifications: the one parser of ``--engine`` for the CLI and the plugin.

An engine is named by a short text, parsed into an :class:`EngineSpec`:

* ``reference``: the reference engine, in process;
* ``py:package.module:factory``: any Python engine, in process (``factory()`` returns an
  :class:`~guinote_conformance.adapters.interface.Engine`; the working directory is importable, as with ``python -m``);
* ``cmd:<command line>``: any program speaking the conformance protocol on stdin/stdout
  (the command line is split like a shell would, but never run through a shell);
* ``serve:<python engine>``: a Python engine (``reference`` or ``py:module:factory``) served over
  the protocol in a subprocess (``python -m guinote_conformance.adapters.serve``): the protocol path of that engine.

Every spec can be opened in process or as a protocol subprocess (:meth:`EngineSpec.protocol_argv`),
so ``validate`` and ``smoke`` take every spec ``run`` takes. Like bowtie's connectables, the kinds
form a registry (:data:`KINDS`): one entry per prefix, with its syntax for error messages. A
Python engine is named and loaded by :mod:`guinote_conformance.adapters.in_process`, as the server of one
(``guinote_conformance.adapters.serve``) loads it.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from guinote_conformance.adapters.in_process import (
    PYTHON_SYNTAX,
    REFERENCE_FACTORY,
    EngineDidNotStart,
    NotAnEngine,
    load_factory,
    python_target,
    served_target,
)
from guinote_conformance.adapters.interface import Engine, EngineInfo
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT, StartTimeout
from guinote_conformance.base.exit_codes import EngineUnavailable, InputError


class EngineSpecError(InputError):
    """An engine specification that names no engine (the message says which form to use)."""


class SpecKind(StrEnum):
    REFERENCE = "reference"
    PYTHON = "py"
    COMMAND = "cmd"
    SERVE = "serve"


#: The syntax of each kind, as shown in help texts and error messages.
SYNTAX = {
    SpecKind.REFERENCE: "reference",
    SpecKind.PYTHON: PYTHON_SYNTAX,
    SpecKind.COMMAND: "cmd:<command line>",
    SpecKind.SERVE: "serve:reference | serve:py:package.module:factory",
}
FORMS = " | ".join(SYNTAX.values())


@dataclass(frozen=True)
class EngineSpec:
    """A parsed engine specification. ``target`` is ``module:factory`` for an in-process engine
    (and for the engine a ``serve:`` spec serves); ``argv`` is the command of a ``cmd:`` spec."""

    text: str
    kind: SpecKind
    target: str = ""
    argv: tuple[str, ...] = ()

    @property
    def in_process(self) -> bool:
        return self.kind in (SpecKind.REFERENCE, SpecKind.PYTHON)

    def protocol_argv(self) -> list[str]:
        """The command that runs this engine as a protocol subprocess (in-process kinds are served)."""
        if self.kind is SpecKind.COMMAND:
            return list(self.argv)
        return [sys.executable, "-m", "guinote_conformance.adapters.serve", "--engine", self.target]

    def load_in_process(self) -> Engine:
        """Import and call the factory of an in-process spec (or of the engine a ``serve:`` spec serves)."""
        if self.kind is SpecKind.COMMAND:
            raise EngineSpecError(f"{self.text!r} is a protocol engine; it runs as a subprocess")
        with _check_errors():
            return load_factory(self.text, self.target)

    def open(self, *, timeout: float = 10.0, start_timeout: float = STARTUP_TIMEOUT, contained: bool = False) -> Engine:
        """The engine, in process or behind :class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`;
        an engine that draws by itself is seen with the suite's explicit draw
        (:mod:`guinote_conformance.engines.explicit_draw`). An in-process engine's answers are checked against
        the protocol's schemas, as the subprocess adapter checks a wire engine's
        (:mod:`guinote_conformance.adapters.checked`); ``contained``, its own exceptions are failures of that engine
        (:class:`~guinote_conformance.adapters.checked.EngineRaised`), as a wire engine's crash is. A flag the engine
        does not declare is played at its default (:mod:`guinote_conformance.adapters.versions`). A protocol engine has
        ``timeout`` seconds per request, and ``start_timeout`` to start and answer its first ``hello``."""
        from guinote_conformance.adapters.checked import ShapeCheckedEngine
        from guinote_conformance.adapters.versions import CompatibleEngine
        from guinote_conformance.engines.explicit_draw import ExplicitDrawEngine

        if self.in_process:
            return CompatibleEngine(ExplicitDrawEngine(ShapeCheckedEngine(self.load_in_process(), contained=contained)))
        from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine

        engine = SubprocessEngine(self.protocol_argv(), timeout=timeout, startup_timeout=start_timeout)
        return CompatibleEngine(ExplicitDrawEngine(engine))

    def __str__(self) -> str:
        return self.text


@contextmanager
def _check_errors() -> Iterator[None]:
    """A Python engine that names no engine is an input error (exit 2); one whose own code
    raised as it was made could not start (exit 3)."""
    try:
        yield
    except NotAnEngine as error:
        raise EngineSpecError(str(error)) from None
    except EngineDidNotStart as error:
        raise EngineUnavailable(str(error)) from None


def _reference(text: str, rest: str) -> EngineSpec:
    return EngineSpec(text, SpecKind.REFERENCE, REFERENCE_FACTORY)


def _python(text: str, rest: str) -> EngineSpec:
    with _check_errors():
        return EngineSpec(text, SpecKind.PYTHON, python_target(text, rest))


def _command(text: str, rest: str) -> EngineSpec:
    try:
        argv = shlex.split(rest)
    except ValueError as error:  # an unbalanced quote
        raise EngineSpecError(f"engine {text!r}: the command line cannot be split: {error}") from None
    if not argv:
        raise EngineSpecError(f"engine {text!r}: the command is empty; write {SYNTAX[SpecKind.COMMAND]}")
    return EngineSpec(text, SpecKind.COMMAND, argv=tuple(argv))


def _serve(text: str, rest: str) -> EngineSpec:
    with _check_errors():
        return EngineSpec(text, SpecKind.SERVE, served_target(rest))


#: prefix -> parser of the rest of the text (``reference`` has no rest).
KINDS: dict[SpecKind, Callable[[str, str], EngineSpec]] = {
    SpecKind.REFERENCE: _reference,
    SpecKind.PYTHON: _python,
    SpecKind.COMMAND: _command,
    SpecKind.SERVE: _serve,
}


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse ``--engine``; raise :class:`EngineSpecError` naming the accepted forms."""
    if text == SpecKind.REFERENCE:
        return _reference(text, "")
    prefix, sep, rest = text.partition(":")
    if sep and prefix in KINDS and prefix != SpecKind.REFERENCE:
        return KINDS[SpecKind(prefix)](text, rest)
    raise EngineSpecError(f"unknown engine {text!r}: use {FORMS}")


def load_engine(spec: str | EngineSpec, *, timeout: float = 10.0, start_timeout: float = STARTUP_TIMEOUT) -> Engine:
    """Parse (if needed) and open an engine."""
    parsed = parse_engine_spec(spec) if isinstance(spec, str) else spec
    return parsed.open(timeout=timeout, start_timeout=start_timeout)


def start_hint(error: BaseException, start_timeout: float, option: str = "--start-timeout") -> str:
    """What to do about an engine that did not answer its first ``hello`` in time (else ``""``):
    a cold JVM, a container or a model that loads may need more than ``start_timeout``."""
    if not isinstance(error, StartTimeout):
        return ""
    return (
        f"\nthe engine has {start_timeout:g} s to start and answer its first hello; an engine that starts "
        f"slowly (a JVM, a container, a model to load) is given longer with {option} SECONDS"
    )


class ProfileError(InputError):
    """A ``--profile`` the engine does not declare, an overlay the suite does not know, or a
    ``--flag`` value it does not declare."""


def flag_piece(piece: str) -> dict[str, str] | None:
    """A piece of a profile label that sets one flag, ``NAME=VALUE`` (``run --flag``), as
    ``{NAME: VALUE}``; ``None`` for an overlay's name."""
    name, equals, value = piece.partition("=")
    return {name.strip(): value.strip()} if equals else None


def checked_flag_piece(piece: str, label: str = "") -> dict[str, str]:
    """:func:`flag_piece`, checked against the flags the suite declares (a :class:`ProfileError`
    naming the valid choices otherwise)."""
    from guinote_conformance.reference_engine.flags import RulesError, check_flags

    where = f" in {label!r}" if label and label != piece else ""
    values = flag_piece(piece)
    if values is None or not all(values) or not all(values.values()):
        raise ProfileError(f"--flag {piece!r}{where}: write NAME=VALUE, e.g. cante_per_trick=many")
    try:
        check_flags(values)
    except RulesError as error:
        raise ProfileError(f"--flag {piece!r}{where}: {error}") from None
    return values


def overlays() -> dict[str, dict[str, str]]:
    """The suite's overlays (two players, regional decks): name -> the flag values they set."""
    from guinote_conformance.reference_engine.flags import profile_specs

    return {name: dict(spec.flags) for name, spec in profile_specs().items() if spec.overlay}


def split_label(profiles: Collection[str], label: str) -> tuple[str, list[str]]:
    """A profile label's engine profile and overlays: ``NAME`` or ``NAME+OVERLAY+...``.

    An engine names its profiles as it likes, ``+`` included: a label that is one of its
    profiles is that profile whole, and otherwise the longest of its profiles the label starts
    with (then ``+``) is the base; a label that starts with none is split at every ``+``."""
    if label in profiles:
        return label, []
    bases = [name for name in profiles if label.startswith(f"{name}+")]
    if bases:
        base = max(bases, key=len)
        return base, label[len(base) + 1 :].split("+")
    base, *extra = label.split("+")
    return base, extra


def profile_flags(info: EngineInfo, label: str) -> dict[str, str]:
    """The flags of ``NAME`` or ``NAME+OVERLAY+...``: an engine's profile, then each overlay's values
    (:func:`split_label`), or the value a piece ``FLAG=VALUE`` sets (``run --flag``).

    Overlays are the suite's (``guinote-conformance profiles`` lists them), so they combine with
    any engine's profile; an engine that cannot play the values they set gets *not applicable*.
    """
    base, extra = split_label(info.profiles, label)
    if base not in info.profiles:
        raise ProfileError(
            f"engine {info.name} has no profile {base!r}; its profiles: {', '.join(info.profiles) or '(none)'}"
        )
    known = overlays()
    flags = dict(info.profiles[base])
    for name in extra:
        if flag_piece(name) is not None:
            flags.update(checked_flag_piece(name, label))
            continue
        if name not in known:
            raise ProfileError(f"unknown overlay {name!r} in {label!r}; overlays: {', '.join(known)}")
        flags.update(known[name])
    return flags


def engine_lines(spec: str, info: EngineInfo, notes: Sequence[str]) -> list[str]:
    """Who the engine is to the suite: the protocol version it was written for, the capabilities
    found and lacking, and the flags the suite filled in for it (the start of run and compare)."""
    from guinote_conformance.adapters.gcp.messages import PROTOCOL_VERSION
    from guinote_conformance.adapters.interface import CAPABILITIES

    written = f"written for GCP/{info.protocol}"
    if info.protocol != PROTOCOL_VERSION:
        written += f" (the suite speaks GCP/{PROTOCOL_VERSION}: what came later is optional for it)"
    lines = [f"engine {info.name} {info.version} ({info.language}, {spec}): {written}"]
    found = sorted(info.capabilities)
    lacking = [name for name in CAPABILITIES if name not in info.capabilities]
    lines.append(f"  capabilities: {', '.join(found) or 'none'}; without: {', '.join(lacking) or 'none'}")
    lines.extend(f"  {note}" for note in notes)
    return lines


__all__ = [
    "FORMS",
    "KINDS",
    "SYNTAX",
    "EngineSpec",
    "EngineSpecError",
    "ProfileError",
    "SpecKind",
    "checked_flag_piece",
    "engine_lines",
    "flag_piece",
    "load_engine",
    "overlays",
    "parse_engine_spec",
    "profile_flags",
    "split_label",
    "start_hint",
]

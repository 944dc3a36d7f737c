"""Check an engine's harness before checking its rules.

Two modes, each returning a list of :class:`Finding` for a CLI to print:

* :func:`validate` speaks the protocol at the lowest level: the handshake and one scripted
  game, every answer checked against its JSON Schema, each violation reported (it does not
  stop at the first one), plus the protocol's own rules (unknown fields, unknown games and
  unknown commands answered with the right error, a clean exit after ``stop``);
* :func:`smoke` plays one complete hand through
  :class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`,
  always choosing a legal action, and checks what the conformance scenarios rely on: the legal
  list is not empty until the hand is over, the engine accepts its own legal actions, every
  state field of the vocabulary answers.

A clean report from both means that failures of the conformance suite are about the rules,
not about the harness. Run it as ``python -m guinote_conformance.adapters.harness_check validate -- ENGINE ARGS...``.

The checks are in :mod:`guinote_conformance.adapters.harness`; this module is their command line (:func:`main`), and
the names above are importable from here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from guinote_conformance.adapters.harness.findings import Finding, has_errors
from guinote_conformance.adapters.harness.smoke import smoke
from guinote_conformance.adapters.harness.validate import validate
from guinote_conformance.adapters.subprocess_adapter import STARTUP_TIMEOUT


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m guinote_conformance.adapters.harness_check",
        description="Check an engine's GCP/1 harness: 'validate' checks every message, 'smoke' plays one hand.",
    )
    parser.add_argument("mode", choices=["validate", "smoke", "both"])
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per request (default 5)")
    parser.add_argument(
        "--startup-timeout",
        type=float,
        default=STARTUP_TIMEOUT,
        help=f"seconds for launch + hello (default {STARTUP_TIMEOUT:g})",
    )
    parser.add_argument("--profile", help="profile to play (default: the engine's first)")
    parser.add_argument("--seed", type=int, default=0)
    parser.epilog = "The engine command follows '--', e.g.: validate -- node my_engine.js"
    arguments = list(sys.argv[1:] if argv is None else argv)
    split = arguments.index("--") if "--" in arguments else len(arguments)
    args = parser.parse_args(arguments[:split])
    command = arguments[split + 1 :]
    if not command:
        parser.error("give the engine command after '--', e.g. -- node my_engine.js")
    findings: list[Finding] = []
    options = {
        "timeout": args.timeout,
        "startup_timeout": args.startup_timeout,
        "profile": args.profile,
        "seed": args.seed,
    }
    if args.mode in ("validate", "both"):
        findings += validate(command, **options)
    if args.mode in ("smoke", "both"):
        findings += smoke(command, **options)
    for finding in findings:
        print(finding)
    errors = sum(1 for finding in findings if finding.severity == "error")
    print(f"{errors} error(s), {sum(1 for f in findings if f.severity == 'warning')} warning(s)")
    return 1 if errors else 0


__all__ = ["Finding", "has_errors", "main", "smoke", "validate"]


if __name__ == "__main__":
    sys.exit(main())

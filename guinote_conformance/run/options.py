"""The options of the pytest plugin (group "Guiñote conformance"), and the values they hold.

``guinote-conformance run`` passes its own options through these; a user running the suite in
their own pytest project uses them directly (``pytest --engine "cmd:./my-engine"``). A malformed
value is a usage error that names the option.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base.exit_codes import CheckError
from guinote_conformance.base.options import argparse_type, count, seconds
from guinote_conformance.engines.symmetry import SYMMETRIES_ENV, check_mode
from guinote_conformance.run import expectations
from guinote_conformance.run.expectations import Expectation
from guinote_conformance.run.scenario_setup import POSITION_SETUPS


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("guinote", "Guiñote conformance")
    group.addoption(
        "--engine",
        action="append",
        default=None,
        help="engine to check (reference, py:module:factory, cmd:<command>); repeatable",
    )
    group.addoption(
        "--profile", action="append", default=None, help="run only these profiles of the engine; repeatable"
    )
    group.addoption(
        "--scenario",
        action="append",
        default=None,
        help="run only the scenario at FILE:LINE (or a name glob); repeatable",
    )
    group.addoption(
        "--override",
        action="append",
        default=None,
        metavar="FLAG=VALUE",
        help="play every scenario not tagged with FLAG with this value instead of the profile's (repeatable)",
    )
    group.addoption("--rule", action="append", default=None, help="run only the scenarios of this rule ID; repeatable")
    group.addoption("--area", action="append", default=None, help="run only this rule area (e.g. cantes); repeatable")
    group.addoption("--expectations", default=None, help="TOML file of known failures of the engine under test")
    group.addoption("--guinote-results", default=None, help="write the results as JSON to this path")
    group.addoption(
        "--guinote-features",
        default=None,
        metavar="PATH",
        help="collect the scenarios of these feature files (a folder of them, or one) instead of the suite's "
        "(guinote-conformance run --features)",
    )
    group.addoption(
        "--guinote-last-failed",
        default=None,
        metavar="RESULTS_JSON",
        help="run only the scenario runs that failed in this results file (guinote-conformance run --lf)",
    )
    group.addoption(
        "--engine-timeout",
        type=argparse_type(seconds, "--engine-timeout"),
        default=10.0,
        help="seconds an engine may take to answer one request",
    )
    group.addoption(
        "--engine-start-timeout",
        type=argparse_type(seconds, "--engine-start-timeout"),
        default=STARTUP_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds an engine may take to start and answer its first hello (default {STARTUP_TIMEOUT:g})",
    )
    group.addoption(
        "--max-engine-failures",
        type=argparse_type(count, "--max-engine-failures"),
        default=5,
        metavar="N",
        help="after N runs in a row of one engine ending in a timeout or a crash of its process, report its "
        "remaining scenarios as not run without calling it (default 5; 0: never give up). Under xdist each "
        "worker counts the failures of its own engine process",
    )
    group.addoption(
        "--budget",
        type=argparse_type(seconds, "--budget"),
        default=None,
        metavar="SECONDS",
        help="wall time of the whole session: past it, every scenario not started yet is reported as not run "
        "(default: no budget; a scenario already running ends as usual, within --engine-timeout per request)",
    )
    group.addoption(
        "--position-setup",
        choices=POSITION_SETUPS,
        default="auto",
        help="start mid-hand positions by loading them (load, needs the 'positions' capability), by dealing and "
        "playing their stored realisation (realise), or by loading when the engine can (auto, the default)",
    )
    group.addoption(
        "--guinote-realise-record",
        default=None,
        metavar="DIR",
        help="(used by `guinote-conformance realise`) search a realisation for every position that has no valid "
        "stored one, use it, and record what was found in DIR",
    )
    group.addoption(
        "--language",
        choices=("en", "es"),
        default="en",
        help="the language of the scenarios run: en, the feature files as written, or es, the Spanish ones generated "
        "from them (same scenarios, same lines, same results)",
    )
    group.addoption(
        "--symmetries",
        type=argparse_type(lambda text, _option: check_mode(text), "--symmetries"),
        default=os.environ.get(SYMMETRIES_ENV, "sample"),
        metavar="MODE",
        help="the symmetries of the game each scenario also runs under (seats rotated, suits relabelled): sample "
        "(the default: one more run per scenario, its symmetry and profile drawn from a hash of its ID), all (every "
        "rotation and suit permutation, under every profile), none, or names such as r1+ocbe (comma-separated); "
        f"the default is taken from ${SYMMETRIES_ENV} when it is set",
    )
    group.addoption(
        "--guinote-trace",
        action="store_true",
        default=False,
        help="keep the whole transcript of every scenario run, passing ones included",
    )


def load_expectations(path: str | None) -> list[Expectation]:
    """The validated entries of the expectations file (none without one); mistakes are usage errors."""
    if not path:
        return []
    try:
        return expectations.load_expectations(Path(path))
    except CheckError as error:
        raise pytest.UsageError(str(error)) from None


def parse_overrides(items: list[str]) -> dict[str, str]:
    """``--override FLAG=VALUE`` options as a mapping (a malformed one is a usage error)."""
    overrides: dict[str, str] = {}
    for item in items:
        flag, sep, value = item.partition("=")
        if not sep or not flag or not value:
            raise pytest.UsageError(f"--override {item!r}: write FLAG=VALUE, e.g. --override cante_order=free")
        overrides[flag] = value
    return overrides

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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.independent.variants import VARIATION_ENV, VariantEngine, Variation

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
    done = subprocess.run(
        [sys.executable, "-m", "conformance", command, "--engine", engine, "--report-dir", str(folder), *args],
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
    [result] = scenario_results(variation, "--scenario", "features/conduct.feature:56", "--jobs", "1")
    assert result["status"] == "pass", result["message"]


def test_a_profile_named_with_a_plus_is_the_engine_s_own_profile_not_an_overlay() -> None:
    """An engine may name its profiles as it likes (any hello key): ``a+b`` is its profile, played
    whole, and ``a+b+mano_a_mano`` is that profile with an overlay. Before, the run split the
    name at the '+' and stopped at once: 'engine variant has no profile 'a''."""
    from conformance.engines import profile_flags

    variation = Variation(profiles=(("a+b", "tradicional", ()), ("a", "lascuarenta", ())), deck_orders=True)
    info = VariantEngine(variation).info()
    assert profile_flags(info, "a+b") == info.profiles["a+b"]
    assert profile_flags(info, "a+b+mano_a_mano")["players"] == "2"
    assert profile_flags(info, "a+mano_a_mano")["cante_per_trick"] == info.profiles["a"]["cante_per_trick"]
    results = scenario_results(variation, "--area", "deck")
    assert {result["profile"] for result in results} == {"a+b", "a"}
    assert {result["status"] for result in results} <= {"pass", "not_applicable"}


@pytest.mark.parametrize("name", ["-x", "--profile"])
def test_a_profile_whose_name_starts_with_a_dash_can_be_chosen(name: str) -> None:
    """``run --profile -x`` plays the engine's profile ``-x``: before, the name reached pytest as
    a separate argument, read as an option of its own ('argument --profile: expected one argument')."""
    variation = Variation(profiles=((name, "lascuarenta", ()), ("other", "tradicional", ())), deck_orders=True)
    results = scenario_results(variation, "--area", "deck", "--profile", name)
    assert {result["profile"] for result in results} == {name}
    assert {result["status"] for result in results} == {"pass"}

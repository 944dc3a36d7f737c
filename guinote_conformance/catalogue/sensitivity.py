"""Flag sensitivity: which scenarios silently depend on a flag they are not tagged with.

A scenario runs under every profile, with the profile's value of every flag it is not tagged
with. If its outcome changes when one of those flags takes another value, the scenario
assumes a reading without saying so: it must be tagged ``@flag=value`` (or rewritten so that
it does not depend on the flag). This sweep replays the scenarios through the plugin against
the reference engine, once per flag value, under every profile that plays another value
(``--override FLAG=VALUE``; a scenario's own tags still win), and lists each scenario whose
outcome changes, with the tag to add.

The table's flags (``players``, ``deck``) are left out unless named with ``--flag``: a
scenario's own table fixes them (an untagged scenario is a four-player,
40-card one, and its positions name four seats).

It takes a few minutes (one run of the suite per flag value), so it is an opt-in check:
``tox -e sensitivity`` or ``python -m guinote_conformance.catalogue.sensitivity [--flag NAME ...]``. It exits
with status 1 when a scenario must be tagged, 2 when a feature file cannot be read (file:line).
With ``--tag`` it adds each tag it lists to the scenario's own tags (a new flag that changes a
score may touch dozens of scenarios), then exits 0 when every finding was tagged.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.base.paths import REPO
from guinote_conformance.catalogue.features import TABLE_FLAGS, VALUE_SEPARATOR, FeatureError, Scenario, load_scenarios
from guinote_conformance.reference_engine.flags import flag_specs, profile_specs

CHANGED = ("fail", "error", "timeout")


@dataclass(frozen=True)
class Finding:
    """A scenario whose outcome changes when ``flag`` takes ``value`` under ``profile``."""

    scenario: Scenario
    flag: str
    value: str
    profile: str
    played: str  # the profile's own value, under which the scenario passes
    message: str

    def describe(self) -> str:
        return (
            f"{self.scenario.location}: {self.scenario.name!r} passes with {self.flag}={self.played} "
            f"({self.profile}) but not with {self.flag}={self.value}: tag it @{self.flag}={self.played} "
            f"(or add a scenario for {self.value}). {self.message.splitlines()[0] if self.message else ''}"
        ).rstrip()


def _run(flag: str, value: str, profiles: list[str], results: Path, jobs: int) -> list[dict[str, object]]:
    args = [sys.executable, "-m", "pytest", str(REPO / "tests" / "conformance"), "-q", "--tb=no"]
    args += ["-p", "no:cacheprovider"]
    args += ["--rootdir", str(REPO), "-c", str(REPO / "pyproject.toml"), "--override", f"{flag}={value}"]
    args += ["--guinote-results", str(results)]
    for profile in profiles:
        args += ["--profile", profile]
    if jobs > 1:
        args += ["-n", str(jobs)]
    subprocess.run(args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=1800)
    if not results.exists():
        raise RuntimeError(f"the run with --override {flag}={value} produced no results: run {' '.join(args)}")
    data = json.loads(results.read_text(encoding="utf-8"))
    entries: list[dict[str, object]] = data["results"]
    return entries


def table_flags() -> set[str]:
    """The table's flags (:data:`~guinote_conformance.catalogue.features.TABLE_FLAGS`: players, deck).
    Every other flag is swept, whether profiles or only overlays set it (a club's custom)."""
    return set(TABLE_FLAGS)


def sweep(flags: list[str] | None = None, jobs: int = 2) -> list[Finding]:
    """Replay every scenario not tagged with each flag under each other value of that flag."""
    specs = flag_specs()
    profiles = {name: spec for name, spec in profile_specs().items() if not spec.overlay}
    scenarios = {(str(s.path.relative_to(REPO)), s.line): s for s in load_scenarios(REPO / "features")}
    findings: list[Finding] = []
    with tempfile.TemporaryDirectory() as folder:
        for flag in flags or [name for name in specs if name not in table_flags()]:
            for value in specs[flag].values:
                others = [name for name, spec in profiles.items() if spec.flags[flag] != value]
                if not others:
                    continue
                results = Path(folder) / f"{flag}={value}.json"
                for entry in _run(flag, value, others, results, jobs):
                    scenario = scenarios.get((str(entry["feature"]), int(str(entry["line"]))))
                    if scenario is None or flag in scenario.flags or entry["status"] not in CHANGED:
                        continue
                    profile = str(entry["profile"])
                    played = profiles[profile].flags[flag]
                    findings.append(Finding(scenario, flag, value, profile, played, str(entry.get("message", ""))))
    return findings


def add_tags(findings: list[Finding]) -> tuple[list[str], list[str]]:
    """Add ``@flag=value`` (the value the scenario passes with) to the tags of each scenario found;
    the ``file:line`` of the scenarios tagged, and of those left (none: kept for the callers). A
    scenario that passes with two values (under two profiles) takes the one that every profile of
    its sources plays; when they play several, it takes them all (``@flag=a|b``: it holds under
    each), the flag's default first, then in the order ``profiles.toml`` declares them."""
    wanted: dict[tuple[Path, int, str], set[str]] = {}
    scenarios = {(finding.scenario.path, finding.scenario.line): finding.scenario for finding in findings}
    for finding in findings:
        key = (finding.scenario.path, finding.scenario.line, finding.flag)
        wanted.setdefault(key, set()).add(finding.played)
    done: list[tuple[Path, int, str]] = []
    left: list[str] = []
    by_file: dict[Path, list[tuple[int, str]]] = {}
    for (path, line, flag), values in sorted(wanted.items()):
        if len(values) > 1:  # one value per flag: the one its sources' profiles play, if they agree
            value = _sources_value(scenarios[(path, line)], flag, values)
            if value is None:  # its sources play several: it holds under each (a multi-value tag)
                spec = flag_specs().get(flag)  # the default first (what it runs with elsewhere), then in order
                declared = [spec.default, *spec.values] if spec else sorted(values)
                listed = sorted(values, key=lambda name: declared.index(name) if name in declared else len(declared))
                by_file.setdefault(path, []).append((line, f"@{flag}={VALUE_SEPARATOR.join(listed)}"))
                continue
            values = {value}
        by_file.setdefault(path, []).append((line, f"@{flag}={values.pop()}"))
    for path, tags in by_file.items():
        lines = path.read_text(encoding="utf-8").split("\n")
        for line, tag in sorted(tags, reverse=True):  # bottom up: an inserted line moves none above it
            title = lines[line - 1]
            above = lines[line - 2] if line >= 2 else ""
            if above.lstrip().startswith("@"):
                lines[line - 2] = f"{above} {tag}"
            else:
                lines.insert(line - 1, " " * (len(title) - len(title.lstrip())) + tag)
            done.append((path, line, tag))
        path.write_text("\n".join(lines), encoding="utf-8")
    return [f"{path}:{line}: {tag}" for path, line, tag in sorted(done)], left


def _sources_value(scenario: Scenario, flag: str, values: set[str]) -> str | None:
    """The one value of ``values`` that every profile of the scenario's sources plays, if any."""
    played = {
        spec.flags.get(flag)
        for spec in profile_specs().values()
        if not spec.overlay and set(spec.sources) & set(scenario.sources)
    }
    return next(iter(played)) if len(played) == 1 and played <= values else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m guinote_conformance.catalogue.sensitivity", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--flag", action="append", help="only this flag (repeatable); default: every flag")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="pytest-xdist workers per run")
    parser.add_argument("--tag", action="store_true", help="add each tag listed to its scenario's tags")
    options = parser.parse_args(argv)
    unknown = [name for name in options.flag or [] if name not in flag_specs()]
    if unknown:
        parser.error(f"unknown flag {unknown[0]!r}; flags: {', '.join(flag_specs())}")
    try:
        findings = sweep(options.flag, options.jobs)
    except FeatureError as error:  # an undeclared flag tag, a file that does not parse: file:line
        print(f"error: {error}", file=sys.stderr)
        return int(ExitCode.USAGE)
    for finding in findings:
        print(finding.describe())
    if options.tag and findings:
        added, left = add_tags(findings)
        print("\n".join([*(f"tagged {line}" for line in added), *left]))
        return 1 if left else 0
    tagged = len({(f.scenario.location, f.flag) for f in findings})
    print(
        f"{tagged} scenario(s) depend on a flag they are not tagged with" if findings else "no hidden flag dependency"
    )
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())

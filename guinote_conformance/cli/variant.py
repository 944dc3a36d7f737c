"""``check-variant`` (``tox -e variant``): what CI checks of a variant, on what the change touched, in minutes.

The last step of the contributor guide (docs/contributing/variant.rst). From the files changed
since the branch left ``main`` (committed or not, new files included), it runs:

1. ruff (check and format) and mypy on the changed Python files;
2. the catalogue checks (:mod:`guinote_conformance.catalogue.fidelity`: the declarations, the
   scenarios' tags, the kits' flag tables, the reason codes), and the Spanish catalogues': every
   touched feature file has its Spanish (titles and steps), every source heading with a note in
   brackets has its entry in ``source_headings.po``, and no draft translation (``#, fuzzy``) is
   left in a catalogue (a draft never ships: the build treats it as missing);
3. the touched rule areas' scenarios on the reference engine, in English and in Spanish (every
   area when the engine's shared modules or the declaration changed).

Every problem is one line that starts with ``file:line`` (or the file); the exit code is 0 when
all pass, 1 when any fails. The checks of step 2 take the repository root, so that the tests can
plant a mistake in a copy of the project (tests/harness/test_variant_check.py).
"""

from __future__ import annotations

import difflib
import importlib.util
import re
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer

from guinote_conformance.base.paths import REPO
from guinote_conformance.catalogue import fidelity
from guinote_conformance.catalogue.features import FeatureError, feature_files
from guinote_conformance.catalogue.rule_index import CUSTOM_ID
from guinote_conformance.catalogue.spanish import load_catalogue, translate_feature

#: the Spanish catalogues, relative to the repository root
LOCALE = Path("docs/locale/es/LC_MESSAGES")
SOURCE_HEADINGS = LOCALE / "source_headings.po"
#: a note in brackets in a source's heading (the index's words, translated in source_headings.po)
NOTE = re.compile(r"\([^()]*\)")
#: the Python the project lints and types (the rest of the repository is data, docs and kits)
PYTHON_AREAS = ("guinote_conformance", "adapters", "reference_engine", "tests", "docs/_ext", "benchmarks")


def changed_files(root: Path, base: str | None = None) -> list[Path]:
    """The files changed since the branch left ``base`` (``origin/main`` or ``main``), committed or
    not, new ones included, that still exist; every file of the project when git cannot say."""

    def git(*args: str) -> str | None:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
        return done.stdout if done.returncode == 0 else None

    candidates = [base] if base else ["origin/main", "main"]
    fork = next((point for ref in candidates if (point := git("merge-base", "HEAD", ref))), None)
    committed = git("diff", "--name-only", fork.strip()) if fork else None
    pending = git("status", "--porcelain", "--untracked-files=all")
    if committed is None or pending is None:
        skipped = {".git", ".tox", ".mypy_cache", ".ruff_cache", "reports", "_build", "node_modules", "target"}
        return sorted(path for path in root.rglob("*") if path.is_file() and not skipped & set(path.parts))
    names = set(committed.splitlines()) | {line[3:].split(" -> ")[-1] for line in pending.splitlines() if line}
    return sorted(root / name for name in names if (root / name).is_file())


def touched_areas(root: Path, changed: Sequence[Path]) -> list[str] | None:
    """The rule areas whose scenarios a change can move; ``None``: every area (the declaration or
    an engine module shared by the areas changed)."""
    areas = {path.stem for path in feature_files(root / "features")}
    found: set[str] = set()
    for path in changed:
        relative = path.relative_to(root).as_posix()
        if relative.startswith("features/") and path.stem in areas:
            found.add(path.stem)
        elif relative == str(fidelity.PROFILES) or relative == "features/index/customs.toml":
            return None
        elif relative.startswith("reference_engine/") and path.suffix == ".py":
            if path.stem not in areas:
                return None
            found.add(path.stem)
    return sorted(found)


def spanish_problems(root: Path, features: Sequence[Path]) -> list[str]:
    """Every feature file given can be put in Spanish: its titles are in the catalogues, its steps
    have a Spanish phrasing (the error names the file:line and the catalogue to write)."""
    import guinote_conformance.run.steps  # noqa: F401  (every step declared, so every phrasing known)
    from guinote_conformance.run.steps.phrasebook import PHRASEBOOK

    try:
        catalogue = load_catalogue(root / LOCALE)
    except FeatureError as error:
        return [str(error)]
    problems = []
    for path in features:
        try:
            translate_feature(path, PHRASEBOOK, catalogue)
        except FeatureError as error:
            problems.append(str(error))
    return problems


def _line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((number for number, line in enumerate(lines, start=1) if needle in line), 1)


def data_problems(root: Path) -> list[str]:
    """Every text of the declarations the rulebook shows (a flag's summary and readings, a
    question's title and summary, a rule's statement) has its Spanish in a catalogue: the problem
    names the declaration's file:line and the message to add to ``data.po``."""
    from guinote_conformance.catalogue.messages import linked_text, nothing_to_translate, rest_escape
    from guinote_conformance.catalogue.rule_index import load_rules
    from guinote_conformance.catalogue.rulebook import load_questions
    from guinote_conformance.catalogue.spanish import read_po

    spanish: dict[str, str] = {}
    for path in sorted((root / LOCALE).rglob("*.po")):
        spanish.update(read_po(path))
    rules = load_rules(root / "features")
    questions_path = root / fidelity.QUESTIONS
    project = fidelity.Project(root)
    questions, _ = load_questions(questions_path, project.flags)
    texts: list[tuple[str, str, str]] = []  # (where, what, message)
    for flag, spec in project.flags.items():
        texts.append((project.where(flag), f"the summary of {flag}", linked_text(spec.summary, rules, questions)))
        texts += [
            (project.where(flag, value), f"the reading of {flag}={value}", linked_text(info.reading, rules, questions))
            for value, info in spec.values.items()
        ]
    for code, question in questions.items():
        if question.derived:  # the flag's own summary, after its code: no summary of its own
            where = project.where(question.flags[0])
            texts.append(
                (
                    where,
                    f"the title of {code} (the summary of {question.flags[0]})",
                    f"{code} {rest_escape(question.title)}",
                )
            )
            continue
        where = f"{questions_path}:{_line_of(questions_path, 'id = ' + _po(code))}"
        texts.append((where, f"the title of {code}", f"{code} {rest_escape(question.title)}"))
        texts.append((where, f"the summary of {code}", linked_text(question.summary, rules, questions)))
    for rule in rules.values():
        index = root / "features" / "index" / f"{rule.area}.toml"
        where = f"{index}:{_line_of(index, 'id = ' + _po(rule.id))}"
        texts.append((where, f"the statement of {rule.id}", linked_text(rule.statement, rules, questions)))
    shared = root / LOCALE / "data.po"
    problems = []
    for where, what, message in texts:
        if message in spanish or nothing_to_translate(message):
            continue
        problem = f'{where}: {what} has no Spanish: add to {shared}:\n    msgid {_po(message)}\n    msgstr "..."'
        # a text edited (a question's summary given a sentence more): its old Spanish, to start from
        near = difflib.get_close_matches(message, list(spanish), n=1, cutoff=0.75)
        if near:
            problem += f"\n    (the Spanish of a near text, to start from: {_po(spanish[near[0]])})"
        problems.append(problem)
    return problems


def _po(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def heading_problems(root: Path) -> list[str]:
    """Every document's heading in the index with a note in brackets has its Spanish in
    source_headings.po (the rulebook shows the rest as written)."""
    from guinote_conformance.catalogue.spanish import read_po

    catalogue = read_po(root / SOURCE_HEADINGS) if (root / SOURCE_HEADINGS).exists() else {}
    problems, seen = [], set()
    for path in sorted((root / "features" / "index").glob("*.toml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        with path.open("rb") as handle:
            rules = tomllib.load(handle).get("rule", [])
        for rule in rules:
            for source in rule.get("sources", []):
                heading = source.get("heading", "")
                if CUSTOM_ID.match(source.get("id", "")):
                    continue  # where a custom is played: a proper name, shown as written
                if NOTE.search(heading) and heading not in catalogue and heading not in seen:
                    seen.add(heading)
                    line = next((n for n, text in enumerate(lines, 1) if f'"{heading}"' in text), 1)
                    problems.append(
                        f"{path}:{line}: the heading {heading!r} has a note in brackets with no Spanish in "
                        f"{root / SOURCE_HEADINGS} (msgid the heading, msgstr the source's words and the note "
                        "in Spanish)"
                    )
    return problems


def draft_problems(root: Path) -> list[str]:
    """No draft translation (``#, fuzzy``, what ``tox -e docs-i18n`` proposes) left in a catalogue
    but a header's: a draft is never shipped, so its message is untranslated until it is checked."""
    problems = []
    for path in sorted((root / LOCALE).rglob("*.po")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            if line.startswith("#,") and "fuzzy" in line:
                following = next((text for text in lines[number:] if text.startswith("msgid")), 'msgid ""')
                if following != 'msgid ""':
                    problems.append(
                        f"{path}:{number}: a draft translation of {following[6:][:80]}: check it, correct it "
                        "and remove the fuzzy mark (a draft never ships)"
                    )
    return problems


def catalogue_problems(root: Path, changed: Sequence[Path]) -> list[str]:
    """Step 2: the fidelity checks and the Spanish catalogues' (see the module's docstring)."""
    features = [path for path in changed if path.suffix == ".feature" and path.parent == root / "features"]
    return [
        *fidelity.all_problems(root),
        *spanish_problems(root, features),
        *data_problems(root),
        *heading_problems(root),
        *draft_problems(root),
    ]


def _tool(root: Path, command: Sequence[str]) -> list[str]:
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode == 0:
        return []
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    return lines or [f"{' '.join(command)}: exit code {done.returncode}"]


def lint_problems(root: Path, changed: Sequence[Path]) -> list[str]:
    """Step 1: ruff and mypy on the changed Python files of the project."""
    python = [
        str(path.relative_to(root))
        for path in changed
        if path.suffix == ".py" and path.relative_to(root).as_posix().startswith(PYTHON_AREAS)
    ]
    if not python:
        return []
    missing = [tool for tool in ("ruff", "mypy") if importlib.util.find_spec(tool) is None]
    if missing:  # never a check passed unseen: mypy's "No module named mypy" has no ": error:" line
        return [
            f"{' and '.join(missing)} not installed in {sys.executable}: run tox -e variant, "
            f"or pip install {' '.join(missing)}"
        ]
    ruff = [sys.executable, "-m", "ruff"]
    problems = _tool(root, [*ruff, "check", "--quiet", *python])
    problems += [f"{line} (ruff format it)" for line in _tool(root, [*ruff, "format", "--check", "--quiet", *python])]
    # the engine's and the adapters' folders are linked into the package: mypy knows them by that name
    typed = [
        f"guinote_conformance/{name}" if name.startswith(("reference_engine/", "adapters/")) else name
        for name in python
    ]
    for line in _tool(root, [sys.executable, "-m", "mypy", *typed]):
        if ": error:" in line:  # named by the file the contributor edited
            problems.append(re.sub(r"^guinote_conformance/(reference_engine|adapters)/", r"\1/", line))
    return problems


def suite_problems(root: Path, areas: list[str] | None, report_dir: Path) -> list[str]:
    """Step 3: the areas' scenarios on the reference engine, in English and in Spanish."""
    if areas == []:
        return []
    problems = []
    for language in ("en", "es"):
        command = [sys.executable, "-m", "guinote_conformance", "run", "--engine", "reference", "-q"]
        command += [f"--area={area}" for area in areas or []]
        command += ["--language", language, "--report-dir", str(report_dir / language)]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()][-15:]
            problems.append(f"run --language {language} (exit {done.returncode}; {report_dir / language}):")
            problems += [f"  {line}" for line in tail]
    return problems


def check_variant(
    base: Annotated[
        str | None, typer.Option(help="the branch the change left (default: origin/main, else main)")
    ] = None,
    root: Annotated[Path, typer.Option(help="the repository (a clone with features/)")] = REPO,
    report_dir: Annotated[Path, typer.Option(help="where the runs write their reports")] = Path("reports/variant"),
) -> None:
    """What CI checks of a variant, on what the change touched: lint and types, the catalogue
    checks (declarations, tags, kits, reason codes, Spanish), the touched areas on the reference
    in English and Spanish. Exit 1 naming each problem's file."""
    root = root.resolve()
    changed = changed_files(root, base)
    areas = touched_areas(root, changed)
    typer.echo(f"{len(changed)} files changed; areas: {'every one' if areas is None else ', '.join(areas) or 'none'}")
    steps: list[tuple[str, Callable[[], list[str]]]] = [
        ("lint and types", lambda: lint_problems(root, changed)),
        ("catalogue checks", lambda: catalogue_problems(root, changed)),
        ("scenarios on the reference (en, es)", lambda: suite_problems(root, areas, root / report_dir)),
    ]
    failed = 0
    for name, step in steps:
        start = time.monotonic()
        problems = step()
        verdict = f"{len(problems)} problems" if problems else "ok"
        typer.echo(f"{name}: {verdict} ({time.monotonic() - start:.0f} s)")
        for problem in problems:
            typer.echo(f"  {problem}")
        failed += bool(problems)
    raise typer.Exit(1 if failed else 0)

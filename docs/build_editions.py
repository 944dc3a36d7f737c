"""Build the rulebook's two editions side by side: ``<out>/es/`` (Spanish, the players' language)
and ``<out>/en/`` (English), with warnings as errors, and ``<out>/index.html`` pointing to both.
Every page of each edition links to the same page in the other edition.

    python docs/build_editions.py docs/_build/html [extra sphinx-build options]

The results page shows a run of the whole suite against the reference: unless
``$GUINOTE_RESULTS`` names a results file, the suite is run once here (into
``<out>/../reference-results/``) and both editions show that run. The two editions are then built
at once, one process each (Sphinx keeps the catalogues it loads for the whole process), each
writing its warnings to ``<out>/warnings-<language>.txt``: when ``$GUINOTE_BUILT_DOCS`` names
``<out>``, the docs' tests check these builds instead of building the rulebook again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from html import escape
from pathlib import Path

DOCS = Path(__file__).resolve().parent
EDITIONS = (("es", "Español: el reglamento anotado"), ("en", "English: the annotated rulebook"))


def results_file(out: Path) -> str:
    """The results file both editions show: ``$GUINOTE_RESULTS``, or a run of the suite made now."""
    given = os.environ.get("GUINOTE_RESULTS")
    if given:
        return given
    sys.path.insert(0, str(DOCS.parent))
    from guinote_conformance.report.published import run_reference

    return str(run_reference(out.parent / "reference-results", jobs=int(os.environ.get("GUINOTE_DOCS_JOBS", "2"))))


def build(out: Path, extra: list[str]) -> int:
    env = {**os.environ, "GUINOTE_RESULTS": results_file(out)}
    builds = []
    for language, _title in EDITIONS:
        doctrees = out.parent / f"doctrees-{language}"
        warnings = out / f"warnings-{language}.txt"
        args = ["-E", "-W", "--keep-going", "-b", "html", "-D", f"language={language}", "-d", str(doctrees)]
        args += ["-w", str(warnings)]
        command = [sys.executable, "-m", "sphinx", *args, *extra, str(DOCS), str(out / language)]
        builds.append(subprocess.Popen(command, env=env))
    status = 0
    for process in builds:
        status |= process.wait()
    links = "".join(
        f'<li><a href="{code}/index.html" hreflang="{code}">{escape(title)}</a></li>' for code, title in EDITIONS
    )
    (out / "index.html").write_text(
        '<!doctype html><html lang="es"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="refresh" content="0; url=es/index.html"><title>Guiñote</title></head>'
        f"<body><ul>{links}</ul></body></html>\n",
        encoding="utf-8",
    )
    return status


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    return build(out, argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

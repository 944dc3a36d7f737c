"""Build the rulebook's two editions side by side: ``<out>/es/`` (Spanish, the players'
language) and ``<out>/en/`` (English), with warnings as errors, and ``<out>/index.html``
pointing to both. Every page of each edition links to the same page of the other.

    python docs/build_editions.py docs/_build/html [extra sphinx-build options]
"""

from __future__ import annotations

import subprocess
import sys
from html import escape
from pathlib import Path

DOCS = Path(__file__).resolve().parent
EDITIONS = (("es", "Español: el reglamento anotado"), ("en", "English: the annotated rulebook"))


def build(out: Path, extra: list[str]) -> int:
    status = 0
    for language, _title in EDITIONS:
        doctrees = out.parent / f"doctrees-{language}"
        args = ["-E", "-W", "--keep-going", "-b", "html", "-D", f"language={language}", "-d", str(doctrees)]
        # one process per edition: Sphinx keeps the catalogues it loads for the whole process
        command = [sys.executable, "-m", "sphinx", *args, *extra, str(DOCS), str(out / language)]
        status |= subprocess.run(command, check=False).returncode
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

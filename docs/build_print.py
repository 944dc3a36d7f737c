"""Build the printed editions (``tox -e print``), each in each language: the rulebook, an A5
book (``<out>/guinote-es.pdf``, ``guinote-en.pdf``), and the club booklet, at most 48 A5 pages
(``<out>/guinote-club-es.pdf``, ``guinote-club-en.pdf``).

    python docs/build_print.py docs/_build/print [es] [en] [book] [booklet]

(no language: both; no edition: both). Sphinx's LaTeX builder writes ``<out>/latex-<lang>/``
from the book's own root document, ``docs/print.rst`` (``-t print``: the rule chapters and the
readings, without the engine-author chapters), and ``<out>/latex-club-<lang>/`` from the
booklet's, ``docs/booklet.rst`` (``-t booklet``), with warnings as errors; latexmk and pdfLaTeX
make the PDF. The drawings are made
PDF by cairosvg (the ``print`` extras). TeX comes from the distribution; on Debian:

    apt-get install latexmk texlive-latex-recommended texlive-latex-extra \\
        texlive-fonts-recommended tex-gyre texlive-lang-spanish

(cairosvg also needs libcairo2, which most systems have.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
LANGUAGES = ("es", "en")
#: each edition: its Sphinx tag, and its file's name before ``-<lang>``
EDITIONS = {"book": ("print", "guinote"), "booklet": ("booklet", "guinote-club")}
DEBIAN = "latexmk texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended tex-gyre texlive-lang-spanish"
#: what the book needs from TeX: a program or a file (found by kpsewhich), and its Debian package
NEEDS = (
    ("latexmk", "latexmk"),
    ("pdflatex", "texlive-latex-base"),
    ("makeindex", "texlive-binaries"),
    ("kpsewhich", "texlive-binaries"),
)
TEX_FILES = (
    ("microtype.sty", "texlive-latex-recommended"),
    ("ragged2e.sty", "texlive-latex-recommended"),
    ("tgpagella.sty", "tex-gyre"),
    ("t1txtt.fd", "texlive-fonts-recommended"),
    ("tabulary.sty", "texlive-latex-extra"),
    ("varwidth.sty", "texlive-latex-extra"),
    ("needspace.sty", "texlive-latex-extra"),
    ("enumitem.sty", "texlive-latex-extra"),
    ("spanish.ldf", "texlive-lang-spanish"),
)


def missing() -> list[str]:
    """What the machine lacks to build the book, each with the Debian package that brings it."""
    lacking = [f"{program} (Debian: {package})" for program, package in NEEDS if shutil.which(program) is None]
    if shutil.which("kpsewhich") is not None:
        for name, package in TEX_FILES:
            found = subprocess.run(["kpsewhich", name], capture_output=True, text=True, check=False)
            if not found.stdout.strip():
                lacking.append(f"{name} (Debian: {package})")
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:  # OSError: the cairo library itself is missing
        lacking.append(f"cairosvg ({error}; pip install -e '.[print]', Debian: libcairo2)")
    return lacking


def sphinx(language: str, out: Path, extra: list[str], edition: str = "book") -> int:
    tag, name = EDITIONS[edition]
    doctrees = out / f"doctrees-{name}-{language}"
    args = ["-E", "-W", "--keep-going", "-q", "-b", "latex", "-t", tag, "-D", f"language={language}"]
    command = [
        sys.executable,
        "-m",
        "sphinx",
        *args,
        "-d",
        str(doctrees),
        *extra,
        str(DOCS),
        str(out / folder(edition, language)),
    ]
    return subprocess.run(command, check=False).returncode


def folder(edition: str, language: str) -> str:
    """The LaTeX folder of an edition in a language: ``latex-es``, ``latex-club-es``."""
    return f"latex-{language}" if edition == "book" else f"latex-club-{language}"


def pdf_name(edition: str, language: str) -> str:
    return f"{EDITIONS[edition][1]}-{language}.pdf"


def latex(language: str, out: Path, edition: str = "book") -> int:
    """latexmk in the LaTeX folder (its latexmkrc, written by Sphinx, runs pdfLaTeX); the
    transcript goes to ``latexmk.log``, and its errors to the terminal."""
    place = out / folder(edition, language)
    environment = {**os.environ, "LATEXOPTS": "-interaction=nonstopmode -halt-on-error -file-line-error"}
    transcript = place / "latexmk.log"
    with transcript.open("w", encoding="utf-8") as handle:
        status = subprocess.run(
            ["latexmk", "-pdf", "-dvi-", "-ps-", pdf_name(edition, language).replace(".pdf", ".tex")],
            cwd=place,
            env=environment,
            stdout=handle,
            stderr=subprocess.STDOUT,
            check=False,
        ).returncode
    if status != 0:
        errors = [line for line in transcript.read_text(encoding="utf-8", errors="replace").splitlines() if ":" in line]
        lines = [line for line in errors if ".tex:" in line or line.startswith("!")]
        print(f"LaTeX failed for {language}; see {transcript}", *lines[-10:], sep="\n  ", file=sys.stderr)
    return status


def pages(pdf: Path) -> str:
    try:
        from pypdf import PdfReader
    except ImportError:
        return "?"
    return str(len(PdfReader(pdf).pages))


def build(out: Path, languages: list[str], extra: list[str], editions: list[str] | None = None) -> int:
    lacking = missing()
    if lacking:
        print("The printed rulebook needs:", *lacking, sep="\n  ", file=sys.stderr)
        print(f"On Debian: apt-get install {DEBIAN}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    for edition in editions or list(EDITIONS):
        for language in languages:
            start = time.monotonic()
            pdf = out / pdf_name(edition, language)
            pdf.unlink(missing_ok=True)  # never a book of an earlier build
            done = sphinx(language, out, extra, edition) or latex(language, out, edition)
            if done:
                status = 1
                continue
            shutil.copyfile(out / folder(edition, language) / pdf.name, pdf)
            print(f"{pdf}: {pages(pdf)} pages, built in {time.monotonic() - start:.0f} s")
    return status


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    languages = [argument for argument in argv[1:] if argument in LANGUAGES] or list(LANGUAGES)
    editions = [argument for argument in argv[1:] if argument in EDITIONS] or list(EDITIONS)
    extra = [argument for argument in argv[1:] if argument not in LANGUAGES and argument not in EDITIONS]
    return build(Path(argv[0]).resolve(), languages, extra, editions)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

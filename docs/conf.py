"""Sphinx configuration of the annotated rulebook (build: ``tox -e docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# The project's packages (rule index, catalogue, reference engine) and the extension.
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]

import guinote_conformance  # noqa: E402  (from the checkout, put first on the path above)

project = "Guiñote conformance suite"
author = "The Guiñote conformance suite contributors"
copyright = "the Guiñote conformance suite contributors"
release = guinote_conformance.__version__  # the suite's version, in its one place
version = release

extensions = [
    "myst_parser",
    "sphinx_copybutton",
    "sphinx.ext.autodoc",
    "guinote_rulebook",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "locale", "Thumbs.db", ".DS_Store"]
# The printed edition (``tox -e print``, docs/build_print.py, ``-t print``) has its own root,
# print.rst: the players' chapters, without the engine-author ones (checking/, reference/,
# contributing/), whose links then print as plain text. The HTML site never sees print.rst.
# The club booklet (``-t booklet``, docs/build_print.py) is a second printed edition, short (at most
# 48 A5 pages): its root, booklet.rst, its own pages (booklet/) and the glossary, nothing else.
guinote_booklet = tags.has("booklet")  # type: ignore[name-defined]  # noqa: F821 (Sphinx gives conf.py ``tags``)
guinote_print = tags.has("print") or guinote_booklet  # type: ignore[name-defined]  # noqa: F821
if guinote_booklet:
    root_doc = "booklet"
    exclude_patterns += [
        "index.rst", "print.rst", "club.rst", "disagreements.rst", "profiles.rst", "questions.rst",
        "sources.rst", "rulebook/**", "checking/**", "reference/**", "contributing/**",
    ]  # fmt: skip
elif guinote_print:
    root_doc = "print"
    # «Elegid vuestras reglas» (club.rst) is a page to click: the booklet prints its choices instead
    exclude_patterns += [
        "index.rst", "club.rst", "booklet.rst", "booklet/**", "checking/**", "reference/**", "contributing/**",
    ]  # fmt: skip
else:
    exclude_patterns += ["print.rst", "booklet.rst", "booklet/**"]
templates_path: list[str] = []

# Two editions (docs/build_editions.py): Spanish (-D language=es, catalogues in
# locale/es/LC_MESSAGES, one per page) and English, the language the pages are written in.
language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
gettext_uuid = False
# no source locations in the catalogues: they would change with every edit of a page
gettext_location = False
# Pages in one language only, each with the language it is written in; every other message must be
# translated (the build fails if not). In the other edition such a page says so at its top, and its
# title is in the reader's language with the page's language after it (the sidebar, the links).
# The API reference is generated from the code's docstrings for implementers: in English. The
# translators' style page (contributing/spanish_style) is written in Spanish, for the translators of
# the Spanish edition. checking/site, checking/ci and checking/kits (the results site, the CI recipes,
# the kits of four languages) are new or rewritten: in English until their catalogues are written.
guinote_untranslated_pages = {
    "reference/api": "en",
    "contributing/spanish_style": "es",
    "checking/site": "en",
    "checking/ci": "en",
    "checking/kits": "en",
}

# Pages made from code, for engine authors: left out of the search of the Spanish edition, the
# players', so that a search for a word of the table finds the rulebook (guinote_rulebook/search.py).
guinote_unsearched_pages = ["reference/api"]

pygments_style = "sphinx"
highlight_language = "none"

# MyST: the protocol pages are Markdown.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc: the reference engine and the engine interface (imported from the work tree).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"undoc-members": False}

# sphinx-copybutton: copy commands without prompts.
copybutton_prompt_text = r"\$ |>>> "
copybutton_prompt_is_regexp = True

html_theme = "furo"
html_title = "Guiñote: the annotated rulebook"
html_static_path = ["_static"]
html_css_files = ["guinote.css"]
html_theme_options = {
    "navigation_with_keys": True,
}
# the site's title in each edition (the extension picks the one of the build's language)
guinote_html_titles = {"es": "Guiñote: el reglamento anotado"}
guinote_copyrights = {"es": "los colaboradores de la batería de conformidad del Guiñote"}

# The extension's data: defaults are the repository's features/ and adapters/schemas/; the
# results page runs the suite at build time unless the environment variable GUINOTE_RESULTS
# names a results file.
guinote_root = str(ROOT)


# The printed edition (tox -e print, docs/build_print.py): an A5 book for clubs to print and
# bind, through pdfLaTeX (the Debian packages it needs are listed in docs/build_print.py). Its
# title, author and file (guinote-es.tex, guinote-en.tex) follow the language: see
# guinote_rulebook/printed.py, which also draws the pictures and labels the index of rules.
latex_engine = "pdflatex"
latex_documents = [("print", "guinote-en.tex", html_title, author, "manual")]
# the title page's author, on two lines
guinote_print_authors = {
    "en": r"The contributors to\\the Guiñote conformance suite",
    "es": r"Los colaboradores de la batería\\de conformidad del Guiñote",
}
latex_show_urls = "footnote"
PRINT_PREAMBLE = r"""
\usepackage{microtype}
\usepackage{ragged2e}
% lists close together: a scenario's steps are a list, and the book holds some 370 of them
\usepackage{enumitem}
\setlist[itemize]{topsep=2pt,partopsep=0pt,itemsep=1pt,parsep=0pt}
% a zero-width space (the break points of long names in narrow columns) may break a line
\DeclareUnicodeCharacter{200B}{\hspace{0pt}}
\makeatletter
% headings in the text's serif, as in a book, tables' headings too
\renewcommand{\py@HeaderFamily}{\rmfamily\bfseries}
\protected\def\sphinxstyletheadfamily{\bfseries}
\protected\def\sphinxtablecontinued#1{\textit{#1}}
% the index of rules: each chapter's rules under its title, in the text's serif
\def\sphinxstyleindexlettergroup#1{{\large\bfseries\RaggedRight#1\par}\nopagebreak\vspace{1mm}}
% the cells of a table with column widths ragged right (narrow columns justify badly)
\newcolumntype{\X}[2]{>{\RaggedRight\arraybackslash}p{\dimexpr
  (\linewidth-\spx@arrayrulewidth)*#1/#2-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}
% a rule's agreement (the extension's badge) in italics before its explanation
\@namedef{DUroleguinote-badge-agreement-yes}#1{\textit{#1}\nobreakspace---}
\@namedef{DUroleguinote-badge-agreement-single}#1{\textit{#1}\nobreakspace---}
\@namedef{DUroleguinote-badge-agreement-disagree}#1{\textit{#1}\nobreakspace---}
\@namedef{DUroleguinote-badge-agreement-derived}#1{\textit{#1}\nobreakspace---}
\@namedef{DUroleguinote-badge-agreement-interpretation}#1{\textit{#1}\nobreakspace---}
\makeatother
"""
latex_elements = {
    "papersize": "a5paper",
    "pointsize": "10pt",
    "extraclassoptions": "twoside,openright",
    "fontpkg": r"\usepackage{tgpagella}\usepackage{tgheros}\renewcommand{\ttdefault}{txtt}",
    "fncychap": "",
    "tocdepth": r"\setcounter{tocdepth}{0}",  # the contents on a page: the chapters
    "preamble": PRINT_PREAMBLE,
    "sphinxsetup": "hmargin={17mm,13mm}, vmargin={15mm,18mm}",
    "fvset": r"\fvset{fontsize=\footnotesize}",
    # the index of rules (the guinote domain's) gives each rule's page; a general index would
    # only repeat the glossary's words
    "printindex": "",
}

"""Sphinx extension of the Guiñote conformance suite: the annotated rulebook.

It renders the project's own data, read through :mod:`guinote_conformance.catalogue.rulebook` (rules and
titles, questions, scenarios, coverage, pictures of the table, the worked hand), so the
published rulebook can never drift from the suite. Modules:

* :mod:`.domain`: the ``guinote`` domain (rules, flags, profiles, questions, areas; the
  index of rules; search);
* :mod:`.roles`: ``:rule:``, ``:flag:``, ``:profile:``, ``:question:``, ``:source:``;
* :mod:`.directives`: one module per directive;
* :mod:`.nodes` and :mod:`.svg`: collapsible blocks, scenario blocks, drawings, the
  step-through; the cards and the table drawn in SVG;
* :mod:`.i18n` and :mod:`.locale`: the Spanish edition, the language switch, the check that
  every message is translated;
* :mod:`.search`: each edition's search index (the pages made from code out of the players'
  edition, object names as written);
* :mod:`.editions`: builds both editions side by side;
* :mod:`.printed`: the printed edition (an A5 book through LaTeX, ``tox -e print``).

Missing data (an area not indexed yet, no schemas, no results file) renders as a note, never
as a warning, so the site builds with whatever exists; inconsistent data (a rule naming an
unknown flag, a malformed results file, a feature that does not parse) is a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from guinote_rulebook import booklet, data, i18n, locale, nodes, players, printed, search
from guinote_rulebook.directives.architecture import ArchitectureDirective
from guinote_rulebook.directives.area import AreaDirective
from guinote_rulebook.directives.automodules import AutomodulesDirective
from guinote_rulebook.directives.club import ClubPlainWords, ClubRulesDirective
from guinote_rulebook.directives.coverage import CoverageDirective, InterpretationsDirective
from guinote_rulebook.directives.engine import EngineAuthorsDirective
from guinote_rulebook.directives.example import ExampleDirective
from guinote_rulebook.directives.flags import FlagsDirective, FlagsMatrixDirective
from guinote_rulebook.directives.pictures import DeckDirective, SeatsDirective
from guinote_rulebook.directives.profiles import ProfilesDirective
from guinote_rulebook.directives.questions import QuestionsDirective
from guinote_rulebook.directives.results import ResultsDirective
from guinote_rulebook.directives.schemas import SchemasDirective
from guinote_rulebook.directives.style import StyleBannedDirective, StyleTermsDirective
from guinote_rulebook.domain import RulebookDomain
from guinote_rulebook.roles import FlagRole, ProfileRole, QuestionRole, RuleRole, SourceRole

DIRECTIVES = {
    "guinote-architecture": ArchitectureDirective,
    "guinote-area": AreaDirective,
    "guinote-flags-matrix": FlagsMatrixDirective,
    "guinote-flags": FlagsDirective,
    "guinote-profiles": ProfilesDirective,
    "guinote-questions": QuestionsDirective,
    "guinote-schemas": SchemasDirective,
    "guinote-results": ResultsDirective,
    "guinote-coverage": CoverageDirective,
    "guinote-interpretations": InterpretationsDirective,
    "guinote-example": ExampleDirective,
    "guinote-automodules": AutomodulesDirective,
    "guinote-deck": DeckDirective,
    "guinote-seats": SeatsDirective,
    "guinote-style-terms": StyleTermsDirective,
    "guinote-style-banned": StyleBannedDirective,
    "guinote-club-rules": ClubRulesDirective,
    "guinote-engine-authors": EngineAuthorsDirective,
}


STATIC = Path(__file__).resolve().parent / "static"


def _builder_inited(app: Sphinx) -> None:
    data.reset()
    # what the directives build for: the web edition names players and cards in words (base.py)
    app.env.guinote_format = app.builder.format  # type: ignore[attr-defined]
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC))  # the extension's script and styles


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("guinote_root", "", "env", str)
    app.add_config_value("guinote_features_dir", "", "env", str)
    app.add_config_value("guinote_schemas_dir", "", "env", str)
    app.add_config_value("guinote_results", "", "env", str)
    # where feature files can be read online (scenario locations link to file#Lline)
    app.add_config_value("guinote_repository_url", "", "env", str)
    nodes.register(app)
    app.add_domain(RulebookDomain)
    for name, directive in DIRECTIVES.items():
        app.add_directive(name, directive)
    for name, role in (
        ("rule", RuleRole()),
        ("flag", FlagRole()),
        ("profile", ProfileRole()),
        ("question", QuestionRole()),
        ("source", SourceRole()),
    ):
        app.add_role(name, role)
    i18n.setup(app)
    search.setup(app)  # what each edition's search finds
    players.setup(app)  # the Spanish player pages in plain words (HTML)
    printed.setup(app)  # the printed edition (tox -e print)
    booklet.setup(app)  # the club booklet (tox -e print)
    locale.compile_catalogue(app)
    app.add_js_file("guinote-stepper.js")
    app.add_js_file("guinote-club.js")
    app.add_transform(ClubPlainWords)  # the club page in plain words, after translation
    app.add_css_file("guinote-rulebook.css")
    app.connect("builder-inited", _builder_inited)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 2}

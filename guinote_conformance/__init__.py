"""The conformance suite's runner, in stages: each sub-package is one stage of the data's way.

A scenario goes **catalogue → selection → realisation → driver → engine → results → report**: the
feature files are read (:mod:`~guinote_conformance.catalogue`), the runs chosen and played against the
engine under every profile (:mod:`~guinote_conformance.run`, through the engine wrappers of
:mod:`~guinote_conformance.engines`), each run becomes a result (:mod:`~guinote_conformance.results`), and the
results become the terminal summary, the HTML and JUnit reports, the badge and the site
(:mod:`~guinote_conformance.report`), each failure with its likely cause (:mod:`~guinote_conformance.oracle`).

A fuzzed game goes **batch → steering → differential play → cause → campaign → shrink → scenario**:
it is one of a batch of games sent to a worker, a deal and a policy are chosen, the game is played on
the reference and replayed on the engine, every step compared (:mod:`~guinote_conformance.fuzz`, judged by
:mod:`~guinote_conformance.oracle`); a divergence is named by a rule, its group kept with the batch's results
(in the campaign folder of ``compare --campaign``), shrunk, and written as a scenario that the
catalogue can read.

The stages are layered (:data:`LAYERS`): a module imports from its own stage and the stages below
it, never from one above, and never in a circle (checked by ``tests/harness/test_architecture.py``).
The command line (:mod:`guinote_conformance.cli`) and the pytest plugin (:mod:`guinote_conformance.plugin`) sit on
top. The rulebook's architecture page draws :data:`RUN_FLOW` and :data:`FUZZ_FLOW` from here.
"""

from __future__ import annotations

#: The suite's version, in this one place: the wheel's metadata (pyproject.toml reads it, without
#: importing anything), ``--version``, the results file, the reference engine's ``hello``, the
#: rulebook's pages and the published rulebook the reports link to all take it from here. A
#: release is the tag ``v`` + this version (.github/workflows/release.yml checks they agree).
__version__ = "0.1.0"

#: The parts of the package from the top down: each may import the parts on the rows below it,
#: never one above. The parts of a row marked independent never import each other. The last two
#: are the adapters (the engine interface, the protocol) and the rule engine, whose folders sit
#: at the top of the repository and are linked into the package: what two parts need lives in
#: the lower one, so the adapters never import the runner, nor the rule engine either of them.
LAYERS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("cli", "plugin", "suite", "__main__"), False),
    (("run", "fuzz"), True),
    (("report",), False),
    (("oracle",), False),
    (("engines",), False),
    (("results",), False),
    (("catalogue",), False),
    (("base",), False),
    (("adapters",), False),
    (("reference_engine",), False),
)

#: The way of a scenario: (step, the module that takes it).
RUN_FLOW: tuple[tuple[str, str], ...] = (
    ("catalogue", "guinote_conformance.catalogue.features"),
    ("selection", "guinote_conformance.run.selection"),
    ("realisation", "guinote_conformance.run.realise"),
    ("driver", "guinote_conformance.run.driver"),
    ("engine", "guinote_conformance.engines.specs"),
    ("results", "guinote_conformance.results.report"),
    ("report", "guinote_conformance.report.formats"),
)

#: The way of a fuzzed game: (step, the module that takes it).
FUZZ_FLOW: tuple[tuple[str, str], ...] = (
    ("batch", "guinote_conformance.fuzz.batch"),
    ("steering", "guinote_conformance.fuzz.steering"),
    ("differential play", "guinote_conformance.fuzz.differential"),
    ("cause", "guinote_conformance.oracle.divergence"),
    ("campaign", "guinote_conformance.fuzz.campaign"),
    ("shrink", "guinote_conformance.fuzz.shrink"),
    ("scenario", "guinote_conformance.fuzz.scenario"),
)

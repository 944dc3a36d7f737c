"""The conformance suite's runner, in stages: each sub-package is one stage of the data's way.

A scenario goes **catalogue → selection → realisation → driver → engine → results → report**: the
feature files are read (:mod:`~conformance.catalogue`), the runs chosen and played against the
engine under every profile (:mod:`~conformance.run`, through the engine wrappers of
:mod:`~conformance.engines`), each run becomes a result (:mod:`~conformance.results`), and the
results become the terminal summary, the HTML and JUnit reports, the badge and the site
(:mod:`~conformance.report`), each failure with its likely cause (:mod:`~conformance.oracle`).

A fuzzed game goes **batch → steering → differential play → cause → campaign → shrink → scenario**:
it is one of a batch of games sent to a worker, a deal and a policy are chosen, the game is played on
the reference and replayed on the engine, every step compared (:mod:`~conformance.fuzz`, judged by
:mod:`~conformance.oracle`); a divergence is named by a rule, its group kept with the batch's results
(in the campaign folder of ``compare --campaign``), shrunk, and written as a scenario that the
catalogue can read.

The stages are layered (:data:`LAYERS`): a module imports from its own stage and the stages below
it, never from one above, and never in a circle (checked by ``tests/harness/test_architecture.py``).
The command line (:mod:`conformance.cli`) and the pytest plugin (:mod:`conformance.plugin`) sit on
top. The rulebook's architecture page draws :data:`RUN_FLOW` and :data:`FUZZ_FLOW` from here.
"""

from __future__ import annotations

#: The parts of the package from the top down: each may import the parts on the rows below it,
#: never one above. The parts of a row marked independent never import each other.
LAYERS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("cli", "plugin", "suite", "__main__"), False),
    (("run", "fuzz"), True),
    (("report",), False),
    (("oracle",), False),
    (("engines",), False),
    (("results",), False),
    (("catalogue",), False),
    (("base",), False),
)

#: The way of a scenario: (step, the module that takes it).
RUN_FLOW: tuple[tuple[str, str], ...] = (
    ("catalogue", "conformance.catalogue.features"),
    ("selection", "conformance.run.selection"),
    ("realisation", "conformance.run.realise"),
    ("driver", "conformance.run.driver"),
    ("engine", "conformance.engines.specs"),
    ("results", "conformance.results.report"),
    ("report", "conformance.report.formats"),
)

#: The way of a fuzzed game: (step, the module that takes it).
FUZZ_FLOW: tuple[tuple[str, str], ...] = (
    ("batch", "conformance.fuzz.batch"),
    ("steering", "conformance.fuzz.steering"),
    ("differential play", "conformance.fuzz.differential"),
    ("cause", "conformance.oracle.divergence"),
    ("campaign", "conformance.fuzz.campaign"),
    ("shrink", "conformance.fuzz.shrink"),
    ("scenario", "conformance.fuzz.scenario"),
)

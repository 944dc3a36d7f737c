"""Running the scenarios against engines: the stage behind ``guinote-conformance run`` and the plugin.

In: the catalogue's scenarios, an engine spec, the options (profiles, selection, expectations).
Out: one :class:`~conformance.results.case.CaseResult` per scenario and profile, gathered into the
results file. The scenarios are chosen (:mod:`~conformance.run.selection`), judged applicable or not
(:mod:`~conformance.run.applicability`), their positions reached by play
(:mod:`~conformance.run.realise`, over :mod:`~conformance.run.position`, the search of a hand in
:mod:`~conformance.run.hand_search` and :mod:`~conformance.run.trick_search`, the realisations
stored by :mod:`~conformance.run.realisations`), and their steps driven: the ``Given`` steps' setup
and the start of the game (:mod:`~conformance.run.scenario_setup`), the ``When`` and ``Then`` steps
(:mod:`~conformance.run.driver`), by the step definitions of :mod:`conformance.run.steps`. The
plugin's session (:mod:`~conformance.run.session`) plans the runs (:mod:`~conformance.run.plan`),
finds their realisations (:mod:`~conformance.run.realiser`), turns each test's report into its
result (:mod:`~conformance.run.verdict`) and tallies the results (:mod:`~conformance.run.tally`).
"""

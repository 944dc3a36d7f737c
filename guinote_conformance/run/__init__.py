"""Running the scenarios against engines: the stage behind ``guinote-conformance run`` and the plugin.

In: the catalogue's scenarios, an engine spec, the options (profiles, selection, expectations).
Out: one :class:`~guinote_conformance.results.case.CaseResult` per scenario and profile, gathered into the
results file. The scenarios are chosen (:mod:`~guinote_conformance.run.selection`), judged applicable or not
(:mod:`~guinote_conformance.run.applicability`), their positions reached by play
(:mod:`~guinote_conformance.run.realise`, over :mod:`~guinote_conformance.run.position`, the search of a hand in
:mod:`~guinote_conformance.run.hand_search` and :mod:`~guinote_conformance.run.trick_search`, the realisations
stored by :mod:`~guinote_conformance.run.realisations`), and their steps driven: the ``Given`` steps' setup
and the start of the game (:mod:`~guinote_conformance.run.scenario_setup`), the ``When`` and ``Then`` steps
(:mod:`~guinote_conformance.run.driver`), by the step definitions of :mod:`guinote_conformance.run.steps`. The
plugin's session (:mod:`~guinote_conformance.run.session`) plans the runs (:mod:`~guinote_conformance.run.plan`),
finds their realisations (:mod:`~guinote_conformance.run.realiser`), turns each test's report into its
result (:mod:`~guinote_conformance.run.verdict`) and tallies the results (:mod:`~guinote_conformance.run.tally`).
"""

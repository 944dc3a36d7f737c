"""The results model: the one owner of a run's statuses, the result record and the results file.

In: what a scenario run came to (a status, the evidence of a failure). Out: the statuses and what
they mean (:mod:`~guinote_conformance.results.status`), one :class:`~guinote_conformance.results.case.CaseResult`
per scenario run, and the :class:`~guinote_conformance.results.report.Report` that holds them, dumped to
and loaded from the versioned results file that every report reads (its JSON Schema ships beside
:mod:`~guinote_conformance.results.report`).
"""

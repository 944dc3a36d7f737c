"""The results model: the one owner of a run's statuses, the result record and the results file.

In: what a scenario run came to (a status, the evidence of a failure). Out:
:class:`~conformance.results.model.Report`, dumped to and loaded from the versioned results file that
every report reads (its JSON Schema ships beside the model).
"""

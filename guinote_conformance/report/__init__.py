"""The reports built from a results file.

In: a :class:`~guinote_conformance.results.report.Report` and its likely causes. Out: the terminal summary,
the one-file HTML report and the JUnit XML file, the badge, the results site, and the results page
of the rulebook; every text an engine wrote is escaped wherever it is shown.
"""

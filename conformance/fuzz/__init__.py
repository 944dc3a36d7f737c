"""Differential fuzzing, the stage behind ``guinote-conformance compare`` and ``replay``.

In: an engine spec and the configurations it declares. Out: the divergence groups, each with its
cause, its smallest example as a replayable record and as a Gherkin scenario that fails on the
engine and passes on the reference, and the rule coverage of the games played. Deals and actions
are steered toward rare rules (:mod:`~conformance.fuzz.steering`), each game is played on the
reference and replayed on the engine (:mod:`~conformance.fuzz.fuzzer`), and a divergence is shrunk
and written as a scenario (:mod:`~conformance.fuzz.scenario`).
"""

"""Differential fuzzing, the stage behind ``guinote-conformance compare`` and ``replay``.

In: an engine spec and the configurations it declares. Out: the divergence groups, each with its
cause, its smallest example as a replayable record and as a Gherkin scenario that fails on the
engine and passes on the reference, and the rule coverage of the games played. The configurations
are resolved (:mod:`~conformance.fuzz.configs`); deals and actions are steered toward rare rules
(:mod:`~conformance.fuzz.steering`), now and then an illegal one (:mod:`~conformance.fuzz.probes`);
each game is played on the reference (:mod:`~conformance.fuzz.play`) and replayed on the engine,
every step compared (:mod:`~conformance.fuzz.differential`), by the fuzzer
(:mod:`~conformance.fuzz.fuzzer`), which groups the divergences by cause
(:mod:`~conformance.fuzz.findings`); a divergence is shrunk (:mod:`~conformance.fuzz.shrink`),
written as a scenario (:mod:`~conformance.fuzz.scenario`), and the scenario checked to fail on the
engine and pass on the reference (:mod:`~conformance.fuzz.scenario_check`).
"""

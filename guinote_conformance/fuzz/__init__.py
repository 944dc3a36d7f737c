"""Differential fuzzing, the stage behind ``guinote-conformance compare`` and ``replay``.

In: an engine spec and the configurations it declares. Out: the divergence groups, each with its
cause, its smallest example as a replayable record and as a Gherkin scenario that fails on the
engine and passes on the reference, and the rule coverage of the games played. The configurations
are resolved (:mod:`~guinote_conformance.fuzz.configs`); deals and actions are steered toward rare rules
(:mod:`~guinote_conformance.fuzz.steering`), now and then an illegal one (:mod:`~guinote_conformance.fuzz.probes`);
each game is played on the reference (:mod:`~guinote_conformance.fuzz.play`) and replayed on the engine,
every step compared (:mod:`~guinote_conformance.fuzz.differential`), by the fuzzer
(:mod:`~guinote_conformance.fuzz.fuzzer`), which groups the divergences by cause
(:mod:`~guinote_conformance.fuzz.findings`); a divergence is shrunk (:mod:`~guinote_conformance.fuzz.shrink`),
written as a scenario (:mod:`~guinote_conformance.fuzz.scenario`), and the scenario checked to fail on the
engine and pass on the reference (:mod:`~guinote_conformance.fuzz.scenario_check`).
"""

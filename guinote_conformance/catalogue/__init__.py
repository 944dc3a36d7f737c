"""The catalogue: the rulebook as data, read from ``features/``.

In: the feature files (Gherkin, with rule, source and flag tags), the rule index
(``features/index/*.toml``) and the reference's profiles. Out: :class:`~guinote_conformance.catalogue.features.Scenario`
entries, the rules and areas, the data the docs draw (:mod:`~guinote_conformance.catalogue.rulebook`), and
the suite's self-checks: fidelity to the sources, flag sensitivity, the scaffolding of a new flag.
"""

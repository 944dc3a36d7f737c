"""The two checks of an engine's harness (:mod:`guinote_conformance.adapters.harness_check` is their command line).

* :mod:`guinote_conformance.adapters.harness.validate`: the protocol spoken at the lowest level, every answer checked
  against its schema, each violation reported;
* :mod:`guinote_conformance.adapters.harness.smoke`: one complete hand played through the suite's own adapter;
* :mod:`guinote_conformance.adapters.harness.findings`: what both report
  (:class:`~guinote_conformance.adapters.harness.findings.Finding`);
* :mod:`guinote_conformance.adapters.harness.setups`: what both set up and ask: the deck, the deal, the state fields.
"""

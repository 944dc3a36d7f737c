"""The two checks of an engine's harness (:mod:`adapters.harness_check` is their command line).

* :mod:`adapters.harness.validate`: the protocol spoken at the lowest level, every answer checked
  against its schema, each violation reported;
* :mod:`adapters.harness.smoke`: one complete hand played through the suite's own adapter;
* :mod:`adapters.harness.findings`: what both report (:class:`~adapters.harness.findings.Finding`);
* :mod:`adapters.harness.setups`: what both set up and ask: the deck, the deal, the state fields.
"""

"""GCP, the Guiñote conformance protocol, defined: its messages, their JSON, their schemas.

* :mod:`guinote_conformance.adapters.gcp.messages`: the protocol's versions, its error codes and its commands (the
  typed requests);
* :mod:`guinote_conformance.adapters.gcp.json_text`: a message as a line of JSON and back (what is protocol JSON), a
  value's canonical text and when two values are the same JSON value;
* :mod:`guinote_conformance.adapters.gcp.validation`: the schemas of ``adapters/schemas/``, and every check of a
  message against them: the fast one, and :mod:`jsonschema`'s to explain a failure;
* :mod:`guinote_conformance.adapters.gcp.fast_validator`: the fast check, compiled from the schemas.

:mod:`guinote_conformance.adapters.protocol` gathers their public names (the docs cite them there).
"""

"""The conformance runner: scenario catalogue, rule index, pytest plugin, CLI and reports."""

"""``python -m conformance`` is the ``guinote-conformance`` command."""

from conformance.cli import main

main()

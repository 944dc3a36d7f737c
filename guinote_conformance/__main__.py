"""``python -m guinote_conformance`` is the ``guinote-conformance`` command."""

from guinote_conformance.cli import main

main()

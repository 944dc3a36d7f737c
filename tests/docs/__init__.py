"""Checks of the annotated rulebook (docs/): it builds with warnings as errors and shows the suite's data."""

"""The full run's part that the default run leaves out (``tox -e independent``): ``compare``
against drawn variations, every profile of each (``conftest.py`` collects this file only then)."""

from __future__ import annotations

from hypothesis import given, settings

from tests.independent.test_variants import PROPERTY, compare_variation
from tests.independent.variants import Variation, variations


@settings(PROPERTY, max_examples=8)
@given(variation=variations())
def test_compare_finds_no_divergence_whatever_the_engine_does_with_what_the_protocol_leaves_free(
    variation: Variation,
) -> None:
    found = compare_variation(variation, 20)
    assert found["compare_hands"] >= 20 * len(variation.profiles), found

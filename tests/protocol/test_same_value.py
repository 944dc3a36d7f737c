"""One notion of "the same JSON value" for every comparison of an engine's answer: Python's ``==``
takes ``True`` for ``1``, JSON does not."""

from __future__ import annotations

from typing import Any

import pytest

from guinote_conformance.adapters.protocol import same_value

SAME = [
    (1, 1), (1, 1.0), (0, 0.0), ("Ao", "Ao"), (None, None), ([], []), (["Ao", "2o"], ["Ao", "2o"]),
    ({"side": 0, "arrastre": False}, {"arrastre": False, "side": 0}), ([{"v": [1, True]}], [{"v": [1.0, True]}]),
]  # fmt: skip
DIFFERENT = [
    (True, 1), (False, 0), (1, True), (0, False), (None, 0), (None, False), ("1", 1), (1, 2),
    ([True], [1]), ({"arrastre": False}, {"arrastre": 0}), ([{"v": [1, True]}], [{"v": [1, 1]}]),
    (["Ao"], ["Ao", "2o"]), ({"a": 1}, {"b": 1}), ([1, 2], (1, 3)),
]  # fmt: skip


@pytest.mark.parametrize(("expected", "got"), SAME)
def test_the_same_value(expected: Any, got: Any) -> None:
    assert same_value(expected, got) and same_value(got, expected)


@pytest.mark.parametrize(("expected", "got"), DIFFERENT)
def test_a_different_value_even_where_python_equality_says_equal(expected: Any, got: Any) -> None:
    assert not same_value(expected, got) and not same_value(got, expected)


def test_an_object_s_x_members_are_extensions_the_harness_ignores() -> None:
    cante = {"seat": 0, "side": 0, "suit": "o", "value": 20, "arrastre": False}
    assert same_value([cante], [{**cante, "x-sound": "ding"}])
    assert same_value({**cante, "x-a": 1}, cante)
    assert not same_value([cante], [{**cante, "animation": "slow"}])  # not an extension: a different object
    assert not same_value([cante], [{**cante, "value": 40, "x-a": 1}])
    assert not same_value([cante], [cante, cante])

"""The engine-side kits run: handshake, unsupported setups, not-implemented commands."""

from __future__ import annotations

import shutil
import sys

import pytest

from guinote_conformance.adapters.interface import SetupRejected
from guinote_conformance.adapters.subprocess_adapter import EngineFailure, EngineReportedError

from .conftest import ROOT, EngineFactory, deck_setup

pytestmark = pytest.mark.timeout(30)

KITS = {
    "python": [sys.executable, str(ROOT / "kits" / "python" / "skeleton_engine.py")],
    "node": ["node", str(ROOT / "kits" / "node" / "skeleton_engine.js")],
}


@pytest.mark.parametrize("language", sorted(KITS))
def test_a_kit_answers_the_handshake_and_refuses_what_it_does_not_play(
    make_engine: EngineFactory, language: str
) -> None:
    if shutil.which(KITS[language][0]) is None:
        pytest.skip(f"{KITS[language][0]} is not installed")
    engine = make_engine(KITS[language], timeout=5.0)
    info = engine.info()
    assert info.name == "my-guinote"
    assert info.language == ("python" if language == "python" else "javascript")
    assert list(info.profiles) == ["lascuarenta"]
    assert info.unsupported(info.profiles["lascuarenta"]) == []
    setup = deck_setup()
    with pytest.raises(SetupRejected) as rejected:
        engine.start({**setup, "flags": {**setup["flags"], "players": "2", "deck": "48"}})
    assert rejected.value.unsupported == ["players=2", "deck=48"]
    with pytest.raises(EngineFailure, match="not implemented") as failure:
        engine.start(setup)
    assert isinstance(failure.value, EngineReportedError)
    assert engine.alive  # an engine_error answer does not cost the process

"""A flag added by ``guinote-conformance new-flag`` (or ``sync``) lands in every kit's flag table in a
form that still builds (and, in Go, that gofmt leaves alone), and the kit then declares it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from guinote_conformance.catalogue.fidelity import KITS
from tests.kits.conftest import KITS as KITS_ROOT
from tests.kits.conftest import build, built_copy, toolchain

NEW_FLAG, DEFAULT = "zz_new_flag", "some_value"
#: kit -> (toolchain, the build commands, the engine command), for the kits that build in seconds
BUILDS = {
    "go": ("go", [["gofmt", "-l", "."], ["go", "build", "-o", "guinote-engine", "."]], ["./guinote-engine"]),
    "java": ("javac", [["javac", "-d", "out", "@sources"]], ["java", "-cp", "out", "guinote.kit.Main"]),
    "rust": ("cargo", [["cargo", "build", "--offline", "--quiet"]], ["target/debug/guinote-engine"]),
}


def test_every_kit_has_a_flag_table_the_scaffold_can_extend() -> None:
    for kit in KITS:
        text = (KITS_ROOT.parent / kit.path).read_text(encoding="utf-8")
        start, entries = kit.table(text)
        assert start and len(entries) > 20, kit.path
        extended = kit.synced(text, with_new_flag(entries))
        assert extended is not None
        assert [(name, values) for _, name, values in kit.table(extended)[1]] == [
            *((name, values) for _, name, values in entries),
            (NEW_FLAG, [DEFAULT]),
        ], kit.path
        assert kit.synced(text, {name: values[0] for _, name, values in entries}) == text, kit.path


def with_new_flag(entries: list[tuple[int, str, list[str]]]) -> dict[str, str]:
    """A kit's table as ``sync`` writes it once ``NEW_FLAG`` is declared."""
    return {**{name: values[0] for _, name, values in entries}, NEW_FLAG: DEFAULT}


@pytest.mark.parametrize("name", sorted(BUILDS))
def test_a_kit_with_a_new_flag_builds_and_declares_it(name: str, tmp_path: Path) -> None:
    tool, commands, engine = BUILDS[name]
    if tool == "cargo" and shutil.which("cargo") is None and (Path.home() / ".cargo" / "bin" / "cargo").exists():
        commands = [[str(Path.home() / ".cargo" / "bin" / "cargo"), *commands[0][1:]]]
    else:
        toolchain(tool, install=f"the {name} kit's README lists how")
    kit = built_copy(name, tmp_path)
    table = next(entry for entry in KITS if entry.path.parts[1] == name)
    path = tmp_path / Path(*table.path.parts[1:])
    text = path.read_text(encoding="utf-8")
    extended = table.synced(text, with_new_flag(table.table(text)[1]))
    assert extended is not None
    path.write_text(extended, encoding="utf-8")
    (kit / "sources").write_text("\n".join(str(p.relative_to(kit)) for p in kit.rglob("*.java")), encoding="utf-8")
    env = {"GOCACHE": str(tmp_path / "gocache"), "GOPATH": str(tmp_path / "gopath"), "GOPROXY": "off",
           "CARGO_TARGET_DIR": str(kit / "target")}  # fmt: skip
    for command in commands:
        build(command, kit, env=env)
        if command[0] == "gofmt":
            unformatted = subprocess.run(command, cwd=kit, capture_output=True, text=True, check=True).stdout
            assert not unformatted, f"gofmt would change {unformatted}"
    done = subprocess.run(engine, cwd=kit, input='{"id": 1, "cmd": "hello", "protocol": 2}\n{"id": 2, "cmd": "stop"}\n',
                          capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    hello = json.loads(done.stdout.splitlines()[0])
    assert hello["engine"]["flags"][NEW_FLAG] == [DEFAULT]

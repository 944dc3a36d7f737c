"""Serves the reference engine, but answers ``legal`` with a line that is not protocol JSON, of
the kind ``KIND`` names (the answer is otherwise a valid one, with the request's id):

    python odd_json.py deep|too_deep|duplicate|utf8|surrogate|nan|infinity|huge_number|escape|float_id
"""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

KIND = sys.argv[1]


def line(request_id: int) -> bytes:
    head = b'{"id":%d,"ok":true,"actions":[]' % request_id
    return {
        "deep": head + b',"x-deep":' + b"[" * 253 + b"]" * 253 + b"}",  # 254 levels: the bound, accepted
        "too_deep": head + b',"x-deep":' + b"[" * 600 + b"]" * 600 + b"}",
        "duplicate": b'{"id":%d,"ok":true,"actions":[{"type":"draw"}],"actions":[]}' % request_id,
        "utf8": head + b',"x-note":"\xff\xfe"}',
        "surrogate": head + b',"x-note":"\\udcff"}',
        "nan": head + b',"x-n":NaN}',
        "infinity": head + b',"x-n":-Infinity}',
        "huge_number": head + b',"x-n":1' + b"0" * 400 + b"}",
        "escape": head + b',"x-note":"\x1b[31mred\x1b[0m \x00"}',  # raw control bytes: not JSON
        "float_id": b'{"id":%d.0,"ok":true,"actions":[]}' % request_id,
    }[KIND]


class OddJson(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "legal":
            sys.stdout.buffer.write(line(int(request["id"])) + b"\n")
            sys.stdout.buffer.flush()
            return {}  # the line above is the answer
        return super().dispatch(request)

    def write(self, stdout: Any, answer: dict[str, Any]) -> None:
        if answer:
            super().write(stdout, answer)


if __name__ == "__main__":
    raise SystemExit(OddJson(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))

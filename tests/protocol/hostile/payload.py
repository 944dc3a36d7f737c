"""Serves the reference engine with hostile text in one place: ``python payload.py WHERE KIND``.

WHERE is where the text goes:

* ``name``: the engine's name and version (the handshake);
* ``profile``: the name of its profile ``lascuarenta`` (its only profile then);
* ``message``: the message and the code of every rejection;
* ``value``: the state field ``turn`` (so that every scenario reading it fails and shows it);
* ``stderr``: a line on stderr at every ``start``, and a wrong ``turn`` so that it is shown;
* ``all``: every place above at once (the stderr line beside the failures of the value).

KIND is what it is (:data:`PAYLOADS`): live HTML, rich markup, ANSI escapes, NUL and other
controls, a lone surrogate (over the wire the answer is then not JSON: orjson refuses it), or
bidi overrides. For ``tests/harness/test_untrusted.py``: nothing of it may execute, restyle or
crash anything in the harness.
"""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

PAYLOADS = {
    "html": "<script>alert(1)</script><img src=x onerror=alert(2)>\"'",
    "markup": "[/bold][red]x[/red][link=http://x]y:warning:",
    "ansi": "\x1b[2J\x1b[31mRED\x1b]0;title\x07\r",
    "nul": "a\x00b\x1bc\x7f\x85",
    "surrogate": "\udcff",
    "bidi": "\u202etxt.exe\u2066x\u2069",
}

PLACES = ("name", "profile", "message", "value", "stderr")


class Payload(Server):
    def __init__(self, where: str, payload: str) -> None:
        super().__init__(ReferenceEngine())
        self.where, self.payload = where, payload

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        if not answer.get("ok"):
            return answer
        for place in PLACES if self.where == "all" else (self.where,):
            answer = self.put(place, request, answer)
        return answer

    def put(self, where: str, request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        cmd, payload = request.get("cmd"), self.payload
        if cmd == "hello" and where == "name":
            answer["engine"]["name"] = "eng" + payload
            answer["engine"]["version"] = "1" + payload
        elif cmd == "hello" and where == "profile":
            engine = answer["engine"]
            engine["profiles"] = {"lascuarenta" + payload: engine["profiles"]["lascuarenta"]}
        elif cmd == "start" and where == "stderr":
            sys.stderr.write(f"log {payload}\n")
            sys.stderr.flush()
        elif cmd == "state" and request.get("field") == "turn" and where == "value":
            answer["value"] = "t" + payload
        elif cmd == "state" and request.get("field") == "turn" and where == "stderr" and self.where == "stderr":
            answer["value"] = 7  # alone, the stderr line is shown only beside a failure
        elif cmd == "apply" and where == "message" and not answer.get("accepted"):
            answer["message"] = "m" + payload
            answer["code"] = "C" + payload
        return answer


if __name__ == "__main__":
    raise SystemExit(Payload(sys.argv[1], PAYLOADS[sys.argv[2]]).run(sys.stdin.buffer, sys.stdout.buffer))

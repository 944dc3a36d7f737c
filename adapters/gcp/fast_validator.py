"""The fast check of a message: the protocol's schemas compiled to nested closures.

:class:`Compiler` implements the subset of JSON Schema the protocol's schemas use and refuses
to compile anything else (:class:`ProtocolSchemaError`); the tests check that it agrees with
:mod:`jsonschema`. A check takes a few microseconds per message: the subprocess adapter runs it
on every answer (:mod:`guinote_conformance.adapters.gcp.validation` compiles the schemas with it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urldefrag, urljoin

from guinote_conformance.adapters.gcp.messages import JSONObject


class ProtocolSchemaError(Exception):
    """A schema uses a JSON Schema feature the fast validator does not implement."""


Check = Callable[[Any], bool]

#: ``x-capability`` and ``x-since`` say what an entry asks of an engine
#: (:mod:`guinote_conformance.adapters.obligations`)
_ANNOTATIONS = {
    *("$schema", "$id", "$defs", "title", "description", "$comment", "examples", "default"),
    *("x-capability", "x-since"),
}
_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``1 == 1.0`` but ``true != 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


class Compiler:
    """Compile the protocol's schemas to nested closures returning ``True`` for a valid instance."""

    def __init__(self, documents: Mapping[str, JSONObject]) -> None:
        self.documents = documents
        self.compiled: dict[str, Check] = {}

    def compile_ref(self, base: str, ref: str) -> Check:
        uri = urljoin(base, ref)
        if uri not in self.compiled:
            slot: list[Check] = []
            self.compiled[uri] = lambda v: slot[0](v)  # allows recursive references
            document_uri, fragment = urldefrag(uri)
            if document_uri not in self.documents:
                raise ProtocolSchemaError(f"unresolvable $ref {ref!r} from {base}")
            target: Any = self.documents[document_uri]
            for token in [t for t in fragment.split("/") if t]:
                target = target[token.replace("~1", "/").replace("~0", "~")]
            check = self.compile(document_uri, target)
            if isinstance(target, dict) and target.get("type") == "object":
                check = _remembering(check)
            slot.append(check)
            self.compiled[uri] = slot[0]
        return self.compiled[uri]

    def compile(self, base: str, node: Any) -> Check:
        if node is True:
            return _always
        if node is False:
            return lambda v: False
        if not isinstance(node, dict):
            raise ProtocolSchemaError(f"not a schema: {node!r}")
        base = node.get("$id", base)
        unknown = set(node) - _ANNOTATIONS - _KEYWORDS
        if unknown:
            raise ProtocolSchemaError(f"the fast validator does not implement {sorted(unknown)}")
        checks: list[Check] = []
        if "$ref" in node:
            checks.append(self.compile_ref(base, node["$ref"]))
        # "type": "object" (or "array") is folded into the check of the members (of the items):
        # one call per object instead of three, and a batch answer holds hundreds of them
        typed = node.get("type") if node.get("type") in ("object", "array") else None
        if typed == "object" and not _OBJECT_KEYWORDS & node.keys():
            typed = None
        if typed == "array" and "items" not in node:
            typed = None
        if "type" in node and typed is None:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            tests = [_TYPES[name] for name in names]
            checks.append(_any(tests))
        if "const" in node:
            checks.append(_const_check(node["const"]))
        if "enum" in node:
            checks.append(_enum_check(node["enum"]))
        if "minimum" in node:
            low = node["minimum"]
            checks.append(lambda v: not _TYPES["number"](v) or v >= low)
        if "minLength" in node:
            shortest = node["minLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) >= shortest)
        if "maxLength" in node:
            longest = node["maxLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) <= longest)
        if "pattern" in node:
            search = re.compile(node["pattern"]).search
            checks.append(lambda v: not isinstance(v, str) or search(v) is not None)
        checks.extend(self._object_checks(base, node, typed == "object"))
        checks.extend(self._array_checks(base, node, typed == "array"))
        if "allOf" in node:
            checks.append(
                self._dispatch(base, node["allOf"]) or _all([self.compile(base, sub) for sub in node["allOf"]])
            )
        if "anyOf" in node:
            alternatives = [self.compile(base, sub) for sub in node["anyOf"]]
            checks.append(lambda v: any(alternative(v) for alternative in alternatives))
        if "oneOf" in node:
            options = [self.compile(base, sub) for sub in node["oneOf"]]
            checks.append(lambda v: sum(1 for option in options if option(v)) == 1)
        if "if" in node:
            condition = self.compile(base, node["if"])
            then = self.compile(base, node.get("then", True))
            otherwise = self.compile(base, node.get("else", True))
            checks.append(lambda v: then(v) if condition(v) else otherwise(v))
        return _all(checks)

    def _dispatch(self, base: str, branches: list[Any]) -> Check | None:
        """``allOf`` of ``if {"properties": {K: {"const": "..."}}} then S`` as a table lookup on ``K``.

        Exactly equivalent: a non-object, or an object without ``K``, satisfies every ``if``.
        """
        keys: set[str] = set()
        table: dict[str, Check] = {}
        for branch in branches:
            if not isinstance(branch, dict) or set(branch) - {"if", "then"}:
                return None
            condition = branch.get("if")
            if not isinstance(condition, dict) or set(condition) != {"properties"} or len(condition["properties"]) != 1:
                return None
            [(key, test)] = condition["properties"].items()
            if not isinstance(test, dict) or set(test) != {"const"} or not isinstance(test["const"], str):
                return None
            if test["const"] in table:
                return None
            keys.add(key)
            table[test["const"]] = self.compile(base, branch.get("then", True))
        if len(keys) != 1:
            return None
        [key] = keys
        every = _all(list(table.values()))

        def check_dispatch(v: Any) -> bool:
            if not isinstance(v, dict) or key not in v:
                return every(v)
            value = v[key]
            branch = table.get(value) if isinstance(value, str) else None
            return branch is None or branch(v)

        return check_dispatch

    def _object_checks(self, base: str, node: JSONObject, typed: bool = False) -> list[Check]:
        """The checks of an object's members; ``typed``: also that it is an object (``"type": "object"``)."""
        checks: list[Check] = []
        required = frozenset(node.get("required", ()))
        properties = {key: self.compile(base, sub) for key, sub in node.get("properties", {}).items()}
        patterns = [
            (re.compile(p).search, self.compile(base, sub)) for p, sub in node.get("patternProperties", {}).items()
        ]
        extra = node.get("additionalProperties", True)
        additional = None if extra is True else self.compile(base, extra)
        if additional is None and not patterns:
            listed = tuple(properties.items())

            def check_listed(v: Any) -> bool:
                if not isinstance(v, dict):
                    return not typed
                if not v.keys() >= required:
                    return False
                for key, test in listed:  # noqa: SIM110 - a plain loop is faster than all() over a generator
                    if key in v and not test(v[key]):
                        return False
                return True

            if listed or required or typed:
                checks.append(check_listed)
            return checks

        # patterns whose schema takes anything (the protocol's "x-" extension members) only free
        # their keys from additionalProperties: a key listed in properties needs no search
        searched = any(pattern_test is not _always for _, pattern_test in patterns)

        def check_object(v: Any) -> bool:
            if not isinstance(v, dict):
                return not typed
            if not v.keys() >= required:
                return False
            for key, value in v.items():
                test = properties.get(key)
                matched = test is not None
                if matched:
                    if not test(value):  # type: ignore[misc]
                        return False
                    if not searched:
                        continue
                for search, pattern_test in patterns:
                    if search(key) is not None:
                        matched = True
                        if not pattern_test(value):
                            return False
                if not matched and additional is not None and not additional(value):
                    return False
            return True

        checks.append(check_object)
        return checks

    def _array_checks(self, base: str, node: JSONObject, typed: bool = False) -> list[Check]:
        """The checks of an array's items; ``typed``: also that it is an array (``"type": "array"``)."""
        checks: list[Check] = []
        if "items" in node:
            item = self.compile(base, node["items"])

            def check_items(v: Any) -> bool:
                if not isinstance(v, list):
                    return not typed
                for x in v:  # noqa: SIM110 - a plain loop is faster than all() over a generator
                    if not item(x):
                        return False
                return True

            checks.append(check_items)
        if "minItems" in node:
            fewest = node["minItems"]
            checks.append(lambda v: not isinstance(v, list) or len(v) >= fewest)
        if node.get("uniqueItems"):
            checks.append(
                lambda v: (
                    not isinstance(v, list)
                    or not any(_equal(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))
                )
            )
        return checks


_KEYWORDS = {
    "type", "enum", "const", "required", "properties", "patternProperties", "additionalProperties",
    "items", "minItems", "uniqueItems", "minimum", "minLength", "maxLength", "pattern",
    "anyOf", "oneOf", "allOf", "if", "then", "else", "$ref",
}  # fmt: skip


#: The keywords of an object's members, whose check can tell an object from anything else.
_OBJECT_KEYWORDS = {"required", "properties", "patternProperties", "additionalProperties"}


def _always(v: Any) -> bool:
    return True


#: How many valid objects each remembering check keeps.
_REMEMBERED = 4096


def _remembering(check: Check) -> Check:
    """``check`` of a JSON object, remembering the objects of plain members (strings, numbers,
    booleans, null) it found valid: a ``batch`` answer lists the same actions again and again.

    The members' types are part of what is remembered, so ``1``, ``1.0`` and ``true`` stay apart.
    A check whose objects have so far always held a list or an object stops trying."""
    valid: set[tuple[Any, ...]] = set()
    tries = [0, 0]  # objects seen, objects that could be remembered

    def check_remembering(v: Any) -> bool:
        if type(v) is not dict or (tries[0] > 64 and not tries[1]):
            return check(v)
        key = (*v.items(), *map(type, v.values()))  # the members, then their types
        tries[0] += 1
        try:
            if key in valid:
                return True
        except TypeError:  # a member holds a list or an object: checked every time
            return check(v)
        tries[1] = 1
        if not check(v):
            return False
        if len(valid) < _REMEMBERED:
            valid.add(key)
        return True

    return check_remembering


def _any(tests: list[Check]) -> Check:
    """Whether one of ``tests`` passes (for a list of types, ``["integer", "null"]``)."""
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        first, second = tests
        return lambda v: first(v) or second(v)
    return lambda v: any(test(v) for test in tests)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    frozen = tuple(checks)

    def check_all(v: Any) -> bool:
        for check in frozen:  # noqa: SIM110 - a plain loop is faster than all() over a generator
            if not check(v):
                return False
        return True

    return check_all


def _const_check(constant: Any) -> Check:
    if isinstance(constant, str):
        return lambda v: isinstance(v, str) and v == constant
    if isinstance(constant, bool):
        return lambda v: v is constant
    return lambda v: _equal(v, constant)


def _enum_check(options: list[Any]) -> Check:
    if all(isinstance(option, str) for option in options):
        allowed = frozenset(options)
        return lambda v: isinstance(v, str) and v in allowed
    return lambda v: any(_equal(v, option) for option in options)

"""A step's two phrasings, English and Spanish: the pattern of each, and the way from one to the other.

The step definitions (:mod:`guinote_conformance.run.steps`) declare each step once, with both phrasings
(:class:`Phrasing`); the Spanish feature files are generated from the English ones through them
(:mod:`guinote_conformance.catalogue.spanish`), and a Spanish step is parsed back to the English step's
arguments, so that one function serves both languages and sees the same values.

The Spanish phrasing is a template, not a second regular expression, so that it can be both read
and written: literal text, ``{name}`` for a group of the English pattern, ``[...]`` for a part
that is there only when its groups are (an optional group of the English pattern). A group whose
values are English words has a table of them (``words``): ``{"attempt": {"plays": "juega"}}``; a
key ending in ``*`` is a prefix (``"exactly *": "exactamente *"``), and ``"*": "*"`` lets any other
value through unchanged (cards, numbers, codes); a value with no entry has no Spanish (the step is
not this phrasing's). A group without a table keeps its value and the
English group's own pattern.

In: the English pattern, the Spanish template and the words of each step. Out: the compiled
patterns, the Spanish text of an English step (:meth:`Phrasing.to_spanish`) and the English
arguments of a Spanish step (:meth:`Phrasing.english_arguments`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from guinote_conformance.catalogue.player_phrasing import Players

#: ``{name}`` in a Spanish template
_FIELD = re.compile(r"\{(\w+)\}")


class PhrasingError(ValueError):
    """A Spanish template that does not fit its English pattern (names the step)."""


def english_groups(pattern: str) -> dict[str, str]:
    """The sub-pattern of every named group of ``pattern``: ``{"seat": r"\\d+"}``."""
    groups: dict[str, str] = {}
    for match in re.finditer(r"\(\?P<(\w+)>", pattern):
        depth, index = 1, match.end()
        while depth and index < len(pattern):
            char = pattern[index]
            if char == "\\":
                index += 2
                continue
            depth += {"(": 1, ")": -1}.get(char, 0)
            index += 1
        groups[match.group(1)] = pattern[match.end() : index - 1]
    return groups


@dataclass(frozen=True)
class Phrasing:
    """One step in both languages (``kind`` is given, when or then)."""

    kind: str
    english: str
    spanish: str
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: the step as a player says it, in both languages (:mod:`guinote_conformance.catalogue.player_phrasing`)
    players: Players | None = field(default=None, compare=False)

    @cached_property
    def english_re(self) -> re.Pattern[str]:
        return re.compile(self.english)

    @cached_property
    def spanish_pattern(self) -> str:
        """The Spanish template as a regular expression with the English pattern's group names."""
        groups = english_groups(self.english)
        fields = _FIELD.findall(self.spanish)
        if sorted(fields) != sorted(groups):
            raise PhrasingError(
                f"step {self.english!r}: the Spanish phrasing {self.spanish!r} has the fields {sorted(fields)}, "
                f"the English pattern the groups {sorted(groups)}"
            )
        out: list[str] = []
        for token in re.split(r"(\{\w+\}|\[|\])", self.spanish):
            if token == "[":
                out.append("(?:")
            elif token == "]":
                out.append(")?")
            elif match := _FIELD.fullmatch(token):
                name = match.group(1)
                out.append(f"(?P<{name}>{self._group_pattern(name, groups[name])})")
            else:
                out.append(re.escape(token))
        return "".join(out)

    def _group_pattern(self, name: str, english: str) -> str:
        table = self.words.get(name)
        if not table:
            return english
        choices = []
        for value in table.values():
            if value == "*":
                choices.append(english)
            elif value.endswith("*"):
                # what follows a prefix: the English group's pattern when it is one pattern, else any text
                # (an alternation holds the English prefix itself: "exactly .+")
                choices.append(re.escape(value[:-1]) + ("(?:.+)" if "|" in english else f"(?:{english})"))
            else:
                choices.append(re.escape(value))
        return "|".join(choices)

    @cached_property
    def spanish_re(self) -> re.Pattern[str]:
        return re.compile(self.spanish_pattern)

    def to_spanish(self, text: str) -> str | None:
        """The Spanish text of an English step of this phrasing (None: not this step)."""
        match = self.english_re.fullmatch(text)
        if match is None:
            return None
        values = {name: _mapped(self.words.get(name), value) for name, value in match.groupdict().items()}
        if any(value is None and match.groupdict()[name] is not None for name, value in values.items()):
            return None  # a value the table has no Spanish for

        def optional(part: re.Match[str]) -> str:
            names = _FIELD.findall(part.group(1))
            return part.group(1) if all(values[name] is not None for name in names) else ""

        text_es = re.sub(r"\[([^\]]*)\]", optional, self.spanish)
        return _FIELD.sub(lambda field_: str(values[field_.group(1)]), text_es)

    def english_arguments(self, text: str) -> dict[str, str | None] | None:
        """The English step's arguments of a Spanish step of this phrasing (None: not this step)."""
        match = self.spanish_re.fullmatch(text)
        if match is None:
            return None
        reverse = {name: {es: en for en, es in table.items()} for name, table in self.words.items()}
        return {name: _mapped(reverse.get(name), value) for name, value in match.groupdict().items()}


def _mapped(table: Mapping[str, str] | None, value: str | None) -> str | None:
    """``value`` through a table of words (whole words first, then prefixes, then ``*``)."""
    if value is None or not table:
        return value
    if value in table and not value.endswith("*"):
        return table[value]
    # the longest prefix first, so that "*" (the empty prefix) is the last resort
    for key in sorted((key for key in table if key.endswith("*")), key=len, reverse=True):
        if value.startswith(key[:-1]):
            return table[key][:-1] + value[len(key) - 1 :]
    return None

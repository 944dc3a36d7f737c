"""The project's data as the rulebook's messages: the text a translation is looked up by.

The rulebook turns a text of the data (a flag's reading, a rule's statement, a question) into
reStructuredText before it renders it: the rule IDs and question codes it cites become roles, the
inline markup characters are escaped. That text is the message Sphinx extracts, and the key of its
Spanish in the catalogues; the rulebook's extension and ``check-variant`` (which names a text with
no Spanish and gives the message to add) both make it here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from guinote_conformance.catalogue.rulebook import CODE_IN_TEXT, QUESTION_ID

_SPECIAL = re.compile(r"([\\*`|])|(_)(?=\W|$)")


def rest_escape(text: str) -> str:
    """``text`` as reST that renders as itself (inline markup characters escaped)."""
    return _SPECIAL.sub(lambda match: "\\" + match.group(0), text)


def linked_text(
    text: str,
    rules: Iterable[str],
    questions: Iterable[str] | None,
    unknown: Callable[[str], None] | None = None,
) -> str:
    """``text`` of the data as the rulebook gives it, reST where every rule ID of ``rules`` is a
    ``:rule:`` role and, when there are ``questions``, every ``B-nn``/``C-nn`` code a ``:question:``
    role (``unknown`` is told a code with no question): the message its Spanish is looked up by."""
    rules, questions = set(rules), None if questions is None else set(questions)
    result: list[str] = []
    position = 0
    for match in CODE_IN_TEXT.finditer(text):
        code = match.group(1)
        if code in rules:
            role = f":rule:`{code}`"
        elif questions is not None and QUESTION_ID.match(code):
            if code not in questions:
                if unknown is not None:
                    unknown(code)
                continue
            role = f":question:`{code}`"
        else:
            continue
        result.append(rest_escape(text[position : match.start()]))
        # a role must stand apart from the words around it
        if result[-1] and not result[-1][-1].isspace() and result[-1][-1] not in "([\"'“‘/":
            result.append("\\ ")
        result.append(role)
        after = text[match.end() : match.end() + 1]
        if after and not after.isspace() and after not in ".,;:!?)]\"'”’/-":
            result.append("\\ ")
        position = match.end()
    result.append(rest_escape(text[position:]))
    return "".join(result)


#: a role in a message (``:question:`B-44```), and a word of two letters or more
_ROLE = re.compile(r":[a-z]+:`[^`]*`")
_WORD = re.compile(r"[^\W\d_]{2,}")


def nothing_to_translate(message: str) -> bool:
    """A message of nothing but roles, codes and punctuation (``:question:`B-44```): it is its
    own translation, and needs no entry in a catalogue."""
    return not _WORD.search(_ROLE.sub("", message))

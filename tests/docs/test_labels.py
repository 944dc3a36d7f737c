"""The extension's own labels (``_("...")`` in docs/_ext) are all extractable and all translated, so
the Spanish rulebook shows none in English: a call inside an f-string is invisible to pybabel
(the label "regional custom" was shown in English that way), and a label with no entry, or only a
draft, in ``guinote_rulebook.po`` is rendered as written."""

from __future__ import annotations

import ast
from pathlib import Path

from guinote_conformance.catalogue.spanish import read_po
from tests.docs.conftest import DOCS

EXTENSION = DOCS / "_ext" / "guinote_rulebook"
CATALOGUE = DOCS / "locale" / "es" / "LC_MESSAGES" / "guinote_rulebook.po"


def is_label(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"


def labels(path: Path) -> tuple[list[tuple[int, str]], list[int]]:
    """The labels of a module (line, text), and the lines of the ``_()`` calls inside an f-string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, hidden = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            hidden += [inner.lineno for inner in ast.walk(node) if isinstance(inner, ast.Call) and is_label(inner)]
        elif is_label(node) and isinstance(node, ast.Call) and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.append((node.lineno, argument.value))
    return found, hidden


def test_no_label_is_hidden_in_an_f_string() -> None:
    hidden = [f"{path}:{line}" for path in sorted(EXTENSION.rglob("*.py")) for line in labels(path)[1]]
    assert not hidden, "pybabel cannot extract a _() inside an f-string; take it out first:\n" + "\n".join(hidden)
    probe = ast.parse("f\"{x} ({_('regional custom')})\"")
    assert any(is_label(node) for node in ast.walk(probe)), "the check sees one"


def test_every_label_has_its_spanish() -> None:
    spanish = read_po(CATALOGUE)
    missing = [
        f"{path}:{line}: {text!r}"
        for path in sorted(EXTENSION.rglob("*.py"))
        for line, text in labels(path)[0]
        if text not in spanish
    ]
    assert not missing, f"no Spanish (or only a draft) in {CATALOGUE}; run tox -e docs-i18n:\n" + "\n".join(missing)

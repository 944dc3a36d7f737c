"""The Spanish web edition's player pages in plain words: no flag value, flag name or profile
code where a club player reads.

The rule pages, the glossary, the disagreements, profiles, questions, club and sources pages are
read by players (and the index of rules, whose titles :mod:`guinote_rulebook.domain` gives
alike). Their data (rule statements, titles, a flag's values) names flags as code
(``cante_per_trick=many``); in the Spanish HTML edition, outside the engine authors' view
(``guinote-engine``), this module says each in the players' words, once the page's references
are resolved:

* ``flag=value`` (or ``flag=a|b``) in a sentence is *la opción «reading»*, the value's reading
  in plain words (:func:`guinote_conformance.catalogue.club.questions`); in a title, where the
  rule's flag field says the choice, ``Con flag=value`` is left out;
* a flag's name alone is its question in plain words, a profile's code its words
  (``tradicional_literal`` is *tradicional literal*), a reason code what a player says
  (``NOT_YOUR_TURN`` is «no es su turno»), ``el Ao`` *el As de oros*;
* a value marked by a directive (``guinote-flag-value``, with its flag) is its reading, and its
  code moves into a ``<details class="guinote-engine">`` for engine authors.

In both HTML editions, a scenario played under a flag's value says so in its players' view
(*Se juega con la opción: …*). The English edition keeps its codes (its readers include the
engine authors it names them for). The printed book (``tox -e print``), all of whose chapters are
the players', is said the same way in either language, with no engine view to open: a value's code
is left out, and a scenario's rule IDs, sources and house rules share one line above its steps
(*ARR-01 S000 — Se juega con las opciones: …; …*); its flag-value tags are left out. The club
booklet, written in plain words, is not touched."""

from __future__ import annotations

import re
from functools import cache

from docutils import nodes
from sphinx.application import Sphinx

from guinote_conformance.catalogue.club import questions
from guinote_conformance.catalogue.table_words import REASON_WORDS, card_words
from guinote_conformance.reference_engine.flags import profile_specs
from guinote_rulebook.locale import _
from guinote_rulebook.nodes import details, scenario_block, summary

#: the pages players read (the rest of the site is for engine authors)
PLAYER_PAGES = frozenset({"glossary", "disagreements", "profiles", "club", "questions", "sources"})
#: flags named by a word of the table, which a player may read as it is (the style guide's)
BARE = frozenset({"tute", "vueltas"})
#: the class of what engine authors read (a scenario's Gherkin, a value's code)
ENGINE = "guinote-engine"
#: a value a directive shows as code, with its flag in ``flag`` and its value in ``value``
FLAG_VALUE = "guinote-flag-value"


def player_page(docname: str) -> bool:
    return docname.startswith("rulebook/") or docname in PLAYER_PAGES


def _phrase(text: str) -> str:
    """A reading as part of a sentence: its first letter small, no final stop."""
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:]


@cache
def _words(language: str) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    """Each (flag, value)'s reading and each flag's question, in plain words in ``language``."""
    readings: dict[tuple[str, str], str] = {}
    asked: dict[str, str] = {}
    for question in questions(language):
        asked[question.flag] = _phrase(question.text)
        for reading in question.readings:
            readings[question.flag, reading.value] = _phrase(reading.text)
    return readings, asked


def reading(flag: str, value: str, language: str) -> str | None:
    """``flag=value`` (``value`` may be ``a|b``) in plain words, or None if the flag has no such value."""
    readings, _asked = _words(language)
    said = [readings.get((flag, one)) for one in value.split("|")]
    if not all(said):
        return None
    return " o ".join(f"«{one}»" for one in said if one)


def choice(flag: str, value: str, language: str) -> str | None:
    """A scenario's house rule, as its players' view says it: *Se juega con la opción: …*."""
    said = _house_reading(flag, value, language)
    return None if said is None else _("Played with the house rule: {reading}").format(reading=said)


def choices(tagged: list[tuple[str, str]], language: str) -> str | None:
    """A scenario's house rules in one sentence (the book's: a line saved for each rule after the
    first): *Se juega con las opciones: …; …*."""
    said = [one for one in (_house_reading(flag, value, language) for flag, value in tagged) if one]
    if len(said) < 2:
        return choice(*tagged[0], language) if said else None
    return _("Played with the house rules: {readings}").format(readings="; ".join(said))


def _house_reading(flag: str, value: str, language: str) -> str | None:
    said = reading(flag, value, language) if language == "es" else _english(flag, value)
    return None if said is None else said.replace("«", "").replace("»", "")


def _english(flag: str, value: str) -> str | None:
    readings, _asked = _words("en")
    said = [readings.get((flag, one)) for one in value.split("|")]
    return " or ".join(one for one in said if one) if all(said) else None


#: a reason code, as the engine refuses an action with it
_REASON = re.compile(rf"\b(?:{'|'.join(sorted(REASON_WORDS, key=len, reverse=True))})\b")
#: a card code after its article (``el Ao``), as the catalogue's examples write it
_CARD = re.compile(r"\b((?:el|la|del|al) )([A2-7SCR][oceb])\b")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    flags = sorted(_words("es")[1], key=len, reverse=True)
    names = "|".join(map(re.escape, flags))
    value = re.compile(rf"(?:\b([Cc]on|[Bb]ajo)\s+)?\b({names})=([a-z0-9_|]+)\b")
    flag = re.compile(rf"^(?:{names})$")
    profiles = sorted((name for name in profile_specs() if "_" in name), key=len, reverse=True)
    profile = re.compile(rf"\b({'|'.join(map(re.escape, profiles))})\b") if profiles else re.compile(r"(?!)")
    return value, flag, profile


def _in_engine_view(node: nodes.Node) -> bool:
    parent: nodes.Node | None = node
    while parent is not None:
        if isinstance(parent, (nodes.literal_block, nodes.raw)):
            return True
        if isinstance(parent, nodes.Element) and ENGINE in parent.get("classes", []):
            return True
        parent = parent.parent
    return False


def _in_title(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.title, nodes.rubric)):
            return True
        parent = parent.parent
    return False


def plain_text(text: str, title: bool = False) -> str:
    """``text`` with each ``flag=value``, reason code, card code after its article and profile
    code said in the Spanish players' words; in a ``title``, a ``flag=value`` (and the ``Con``
    that brings it in) is left out, as the rule's flag field says the choice."""
    value, _flag, profile = _patterns()

    def said(match: re.Match[str]) -> str:
        words = reading(match.group(2), match.group(3), "es")
        if words is None:
            return match.group(0)
        if title:
            removed.append(match.group(0))
            return ""
        intro = f"{match.group(1)} " if match.group(1) else ""
        return f"{intro}la opción {words}"

    lead = text[: len(text) - len(text.lstrip())]  # the space after a heading's rule ID stays
    removed: list[str] = []
    text = value.sub(said, text)
    text = _REASON.sub(lambda match: f"«{REASON_WORDS[match.group(0)][1]}»", text)
    text = _CARD.sub(lambda match: match.group(1) + card_words(match.group(2), "es").split(" ", 1)[1], text)
    if removed:  # the title starts anew where its choice was taken out
        body = re.sub(r"\s{2,}", " ", text).strip()
        text = lead + body[:1].upper() + body[1:]
    return profile.sub(lambda match: match.group(1).replace("_", " "), text)


def _swap(node: nodes.Node, new: list[nodes.Node]) -> None:
    """``node`` replaced by ``new`` (none or more nodes; docutils' own would keep its classes);
    the link around a code no longer shows as code."""
    parent = node.parent
    assert parent is not None
    for up in _ancestors(node)[:3]:
        if isinstance(up, nodes.Element) and "guinote-code" in up["classes"]:
            up["classes"].remove("guinote-code")
    index = parent.index(node)
    parent.remove(node)
    for offset, child in enumerate(new):
        parent.insert(index + offset, child)


def _engine_code(code: str) -> details:
    block = details(classes=[ENGINE, "guinote-engine-code"])
    block += summary("", _("For engine authors"))
    paragraph = nodes.paragraph()
    paragraph += nodes.literal(code, code)
    block += paragraph
    return block


def _flag_value(node: nodes.literal) -> None:
    """A value a directive marked: its reading (unless shown beside it), the code one click away
    for engine authors."""
    flag, value = node.get("flag", ""), node.get("value", "")
    words = reading(flag, value, "es")
    container = node.parent
    if words is None or container is None:
        return
    shown: list[nodes.Node] = []
    if not node.get("read_beside"):
        shown.append(nodes.inline("", words.replace("«", "").replace("»", ""), classes=["guinote-reading"]))
    if isinstance(container, nodes.paragraph) and container.parent is not None:
        # the code goes below the paragraph, in the engine authors' view; the brackets of
        # ``value (sources)`` go with it
        index = container.index(node)
        following = container.children[index + 1 :]
        if following and isinstance(following[0], nodes.Text) and str(following[0]).strip() == "(":
            container.remove(following[0])
            closing = container.children[-1]
            if isinstance(closing, nodes.Text) and str(closing).strip() == ")":
                container.remove(closing)
        _swap(node, shown)
        container.parent.insert(container.parent.index(container) + 1, _engine_code(value))
    else:
        _swap(node, shown)


def house_rules(doctree: nodes.document, language: str) -> None:
    """Each scenario played under a flag's value says so in its players' view, in plain words."""
    for block in doctree.findall(scenario_block):
        tagged: list[tuple[str, str]] = block.get("house_rules", [])
        said = [choice(flag, value, language) for flag, value in tagged]
        view = next((node for node in block.findall(nodes.container) if "guinote-players" in node["classes"]), None)
        if view is None or not any(said):
            continue
        for index, text in enumerate(line for line in said if line):
            view.insert(1 + index, nodes.paragraph("", text, classes=["guinote-house-rule"]))


@cache
def _lone_values() -> dict[str, str]:
    """The values that only one flag has (``lose_point``), each with its flag: a value alone in a
    sentence is that flag's (a number, or ``none``, is said as it is)."""
    owners: dict[str, list[str]] = {}
    for flag, value in _words("es")[0]:
        owners.setdefault(value, []).append(flag)
    return {value: flags[0] for value, flags in owners.items() if len(flags) == 1 and not value.isdigit()}


def _location(node: nodes.literal) -> nodes.Element | None:
    """The feature file an area's overview line names (the literal, or its link), if ``node`` is it."""
    for candidate in (node, node.parent):
        if not isinstance(candidate, nodes.Element) or "guinote-scenario-location" not in candidate["classes"]:
            continue
        if isinstance(candidate.parent, nodes.Element) and "guinote-area-overview" in candidate.parent["classes"]:
            return candidate
    return None


def _overview_location(node: nodes.Element) -> None:
    """An area's feature file, in its overview line: for engine authors, below the line."""
    paragraph = node.parent
    assert paragraph is not None and paragraph.parent is not None
    index = paragraph.index(node)
    before = paragraph.children[index - 1] if index else None
    if isinstance(before, nodes.Text):  # "…escenarios; archivo de escenarios " ends at the counts
        paragraph.replace(before, nodes.Text(str(before).rsplit(";", 1)[0]))
    paragraph.remove(node)
    block = _engine_code(node.astext())
    paragraph.parent.insert(paragraph.parent.index(paragraph) + 1, block)


def _flag_name(node: nodes.Node, question: str) -> str:
    """A flag's name as players read it: its question, in quotes inside a sentence (the link under
    a rule's flag field, whose question follows, says where its readings are)."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.Element) and "guinote-flag-head" in parent.get("classes", []):
            return str(_("The readings and who plays each"))
        parent = parent.parent
    alone = _in_title(node) or any(isinstance(up, nodes.entry) for up in _ancestors(node))
    return question[:1].upper() + question[1:] if alone else f"«{question}»"


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found, parent = [], node.parent
    while parent is not None:
        found.append(parent)
        parent = parent.parent
    return found


def _bracketed(node: nodes.Node) -> bool:
    """Whether ``node`` is all that stands in brackets; if so the brackets and it are removed."""
    parent = node.parent
    if parent is None:
        return False
    index = parent.index(node)
    before = parent.children[index - 1] if index else None
    after = parent.children[index + 1] if index + 1 < len(parent.children) else None
    if not (isinstance(before, nodes.Text) and isinstance(after, nodes.Text)):
        return False
    if not (str(before).endswith("(") and str(after).startswith(")")):
        return False
    parent.replace(before, nodes.Text(str(before)[:-1].rstrip()))
    parent.replace(after, nodes.Text(str(after)[1:]))
    parent.remove(node)
    return True


def plain_words_for_players(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """The HTML player pages and the printed book: each scenario's house rule; in the Spanish
    edition, plain words outside the engine view. The book is one document whose chapters are all
    the players' (the engine authors' are left out of it); on paper there is no engine view to
    open, so what it would hold is left out (:func:`_unprinted_codes`)."""
    language = app.config.language or "en"
    book = app.builder.format == "latex" and bool(app.config.guinote_print) and not app.config.guinote_booklet
    if not (book or (app.builder.format == "html" and player_page(docname))):
        return
    if book:
        _book_scenario_lines(doctree, language)
    else:
        house_rules(doctree, language)
    if language == "es":
        _plain_words(doctree)
    if book:
        _unprinted_codes(doctree)  # (after the plain words, which fold a value's code away)


def _unprinted_codes(doctree: nodes.document) -> None:
    """In the book, a value's code, which the web keeps one click away for engine authors, is left
    out (its reading is printed)."""
    for block in [d for d in doctree.findall(details) if "guinote-engine-code" in d["classes"]]:
        if block.parent is not None:
            block.parent.remove(block)


def _book_scenario_lines(doctree: nodes.document, language: str) -> None:
    """In the book, a scenario's rules and sources, then its house rules in one sentence, on one
    line above its steps: *ARR-01 S000 S002 — Se juega con la opción: …*. Its flag-value tags are
    left out (the sentence says them in words), and its ``interpretation`` tag is in the reader's
    language."""
    for block in doctree.findall(scenario_block):
        view = next((node for node in block.findall(nodes.container) if "guinote-players" in node["classes"]), None)
        if view is None:
            continue
        line = nodes.paragraph(classes=["guinote-house-rule"])
        tags = next((p for p in block.findall(nodes.paragraph) if "guinote-tags" in p["classes"]), None)
        if tags is not None and tags.parent is not None:
            tags.parent.remove(tags)
            for badge in tags.children:
                if not isinstance(badge, nodes.Element) or "guinote-badge-flag" in badge["classes"]:
                    continue
                if "guinote-badge-interpretation" in badge["classes"]:
                    for text in list(badge.findall(nodes.Text)):
                        if text.parent is not None:
                            text.parent.replace(text, nodes.Text(str(_("interpretation"))))
                if line.children:
                    line += nodes.Text(" ")
                line += badge
        steps = next((c for c in view.children if isinstance(c, nodes.bullet_list)), None)
        # (a scenario shown again gives the page of its steps, where its house rules are said)
        said = choices(list(block.get("house_rules", [])), language) if steps is not None else None
        if said:
            line += nodes.Text((" — " if line.children else "") + said)
        if line.children:
            view.insert(view.index(steps) if steps is not None else len(view.children), line)


def _plain_words(doctree: nodes.document) -> None:
    """Plain words outside the engine view, in the Spanish edition (the module's rules)."""
    _value, flag, _profile = _patterns()
    asked = _words("es")[1]
    for literal in list(doctree.findall(nodes.literal)):
        if _in_engine_view(literal):
            continue
        if FLAG_VALUE in literal.get("classes", []):
            _flag_value(literal)
            continue
        text = literal.astext().replace("\u200b", "")
        if flag.match(text.replace(" ", "_")) and text not in BARE:
            _swap(literal, [nodes.inline("", _flag_name(literal, asked[text.replace(" ", "_")]))])
        elif _value.fullmatch(text) and _bracketed(literal):
            pass  # ``(flag=value)`` after a sentence that says it: left out, as in plain words
        elif text in _lone_values():
            _swap(literal, [nodes.inline("", reading(_lone_values()[text], text, "es") or text)])
        elif plain_text(text) != text:
            _swap(literal, [nodes.inline("", plain_text(text))])
        elif _location(literal) is not None:
            _overview_location(_location(literal))  # type: ignore[arg-type]
    for text_node in list(doctree.findall(nodes.Text)):
        if text_node.parent is None or _in_engine_view(text_node):
            continue
        before = str(text_node).replace("\u200b", "")  # (the book's break points after ``_``, in a table)
        after = plain_text(before, title=_in_title(text_node))
        if after != before:
            text_node.parent.replace(text_node, nodes.Text(after))


def setup(app: Sphinx) -> None:
    app.connect("doctree-resolved", plain_words_for_players)

"""What a Spanish player meets on a rulebook page: its text outside the engine authors' view.

The players' view of a page is its text but for what is folded away for engine authors (a
``<details class="guinote-engine">`` block: a scenario's Gherkin, a flag value's code, a passage of
``.. guinote-engine-authors::``), scripts and styles. :func:`offences` lists what a player could
not read there: codes (``MUST_FOLLOW_SUIT``, ``snake_case``, ``flag=value``), card codes (``5c``),
bare rule IDs, seat numbers (``jugador 2``), English words and the engine's Spanish words
(«motor», «batería», «arnés», «asiento»).

What it allows, and why (the whole allow-list):

* the words of :data:`ALLOWED`: the game's terms, Spanish in both editions, that look like
  English or like codes (``as``, ``mano``, ``tute``...);
* a rule ID as the text of its link, or as the small label before its rule's heading
  (``guinote-id``): a club cites a rule by it, as a page number; never inside a sentence;
* with ``within=MAIN``, only the page's own text is read: the site's sidebars and footer list
  every page of the site, the engine authors' too, under their titles.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: the game's words, Spanish in both editions, that look like English or like codes
ALLOWED = frozenset({"as", "de", "a", "no", "mano", "tute", "muestra"})
CODE = re.compile(
    r"\b[A-Z]{2,}_[A-Z0-9_]+\b|\b[a-z]+_[a-z0-9_]+\b|\b\w+=\w+|\b(?!Se )[A23456789SCR][oceb]\b"
    r"|\bjugador(?:es)? \d\b|\bbando \d\b|\b[Ss]eats? \d\b|\b[Ss]ides? \d\b"
)
SEAT_OR_CODE = re.compile(r"\b[A-Z]{2,}_[A-Z0-9_]+\b|\b[A23456789SCR][oceb]\b|\b[Ss]eats? \d\b|\b[Ss]ides? \d\b")
RULE = re.compile(r"\b[A-Z]{2,}-\d+\b")
ENGLISH = frozenset(
    [
        "the",
        "and",
        "of",
        "is",
        "are",
        "seat",
        "seats",
        "side",
        "trick",
        "tricks",
        "hand",
        "plays",
        "play",
        "may",
        "wins",
        "win",
        "true",
        "false",
        "null",
        "free",
        "over",
        "rule",
        "card",
        "cards",
        "points",
        "point",
        "engine",
        "harness",
        "battery",
        "yes",
        "with",
        "when",
    ]
)
#: the Spanish words a player page must not use (the project's style: docs/locale/es/style.toml has the rest)
BANNED = re.compile(r"(?i)\b(batería|arnés|motor(?:es)?|asientos?)\b")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})


class PlayerText(HTMLParser):
    """The text of a page a player reads, in pieces, with the rule IDs of links kept apart."""

    def __init__(self, within: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.within = within
        self.stack: list[tuple[str, bool, bool, bool]] = []  # (tag, skipped, a link to a rule, within)
        self.pieces: list[str] = []

    def skipping(self) -> bool:
        inside = self.within is None or any(within for *_, within in self.stack)
        return not inside or any(skipped for _, skipped, _, _ in self.stack)

    def in_rule_link(self) -> bool:
        return any(link for _, _, link, _ in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        skipped = tag in ("script", "style") or (tag == "details" and "guinote-engine" in classes)
        skipped = skipped or "headerlink" in classes or "guinote-languages" in classes
        # a rule ID may be the text of its link, or the small label before its rule's heading
        link = (tag == "a" and "#rule-" in values.get("href", "")) or "guinote-id" in classes
        inside = self.within in classes or values.get("id") == self.within
        self.stack.append((tag, skipped, link, inside))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.skipping() or not data.strip():
            return
        self.pieces.append(RULE.sub(" ", data) if self.in_rule_link() else data)


#: the id of a page's own text, less the site's sidebars, header and footer (the Furo theme's):
#: these list every page of the site, the engine authors' too, under their titles
MAIN = "furo-main-content"


def offences(html: str, within: str | None = None, english: bool = True) -> list[str]:
    """What a player cannot read in the players' view of ``html`` (only inside the elements of the
    class or id ``within``, if given): each offending piece of text, with why (``english=False``: English
    words are allowed, as in the English edition)."""
    parser = PlayerText(within)
    parser.feed(html)
    found: list[str] = []
    for piece in parser.pieces:
        text = " ".join(piece.split())
        if not english:  # the English edition names flag values and rules in its titles: seats and codes only
            found += [f"{m.group(0)}: {text[:160]}" for m in SEAT_OR_CODE.finditer(text)]
            continue
        why = [match.group(0) for match in CODE.finditer(text)] + [match.group(0) for match in RULE.finditer(text)]
        why += sorted({word for word in re.findall(r"[^\W\d_]+", text) if word.lower() in ENGLISH} - ALLOWED)
        why += [match.group(0) for match in BANNED.finditer(text)]
        if why:
            found.append(f"{', '.join(why)}: {text[:160]}")
    return found

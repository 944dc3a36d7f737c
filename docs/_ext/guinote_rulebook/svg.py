"""Drawings of the project's own making: Spanish-suited cards, the table of a scenario and the
seats with the direction of play. Pure SVG text; every piece of text is escaped.

The four suit emblems are drawn here with simple shapes (a coin, a cup, a sword, a club): no
artwork is copied. They are defined once per page (:func:`sprite`) and used by reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from guinote_conformance.catalogue.rulebook import TablePicture
from guinote_rulebook.locale import _

CARD_W, CARD_H = 40, 60
STEP = 22  # overlap of the cards of a hand
SUIT_COLOURS = {"o": "#c98a00", "c": "#b8322a", "e": "#2a5ca8", "b": "#3f7a2c"}
#: the number printed on a Spanish card: the As is the 1, Sota 10, Caballo 11, Rey 12
NUMBERS = {"A": "1", "S": "10", "C": "11", "R": "12"}
FIGURES = {"S": "Sota", "C": "Caballo", "R": "Rey"}
SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}

_EMBLEMS = {
    # oros: a gold coin with a ring and a centre
    "o": '<circle r="9" fill="#e7b416" stroke="#8a5a00" stroke-width="1.5"/>'
    '<circle r="5.5" fill="none" stroke="#8a5a00" stroke-width="1"/><circle r="1.6" fill="#8a5a00"/>',
    # copas: a cup on a stem
    "c": '<path d="M-8,-9 H8 Q8,1 0,2 Q-8,1 -8,-9 Z" fill="#d8453a" stroke="#7a1b14" stroke-width="1.2"/>'
    '<rect x="-1.5" y="2" width="3" height="5" fill="#7a1b14"/>'
    '<ellipse cx="0" cy="8.5" rx="6" ry="2" fill="#d8453a" stroke="#7a1b14" stroke-width="1"/>',
    # espadas: a straight sword, point up, with its guard
    "e": '<path d="M0,-11 L2,-7 V5 H-2 V-7 Z" fill="#9fb8dd" stroke="#1d3f75" stroke-width="1"/>'
    '<rect x="-6" y="5" width="12" height="2.4" rx="1" fill="#2a5ca8"/>'
    '<rect x="-1.2" y="7.4" width="2.4" height="3" fill="#1d3f75"/><circle cy="11" r="1.6" fill="#2a5ca8"/>',
    # bastos: a knotted club, slanted
    "b": '<g transform="rotate(-20)"><path d="M-2.5,10 L-3.5,-6 Q0,-12 3.5,-6 L2.5,10 Z" fill="#6b8f3a" '
    'stroke="#2f4a14" stroke-width="1.2"/><circle cx="-3" cy="-1" r="1.3" fill="#2f4a14"/>'
    '<circle cx="2.8" cy="3" r="1.3" fill="#2f4a14"/><circle cx="-2.2" cy="6" r="1.1" fill="#2f4a14"/></g>',
}


def sprite_symbols() -> str:
    """The suit emblems and the card back as SVG symbols (a drawing uses them by reference)."""
    symbols = "".join(
        f'<symbol id="gs-{suit}" viewBox="-12 -12 24 24">{body}</symbol>' for suit, body in _EMBLEMS.items()
    )
    back = (
        '<symbol id="gs-back" viewBox="0 0 40 60"><rect x="0.5" y="0.5" width="39" height="59" rx="4" '
        'fill="#7a1f2b" stroke="#3b0d13"/><rect x="4" y="4" width="32" height="52" rx="2" fill="none" '
        'stroke="#e9c46a" stroke-width="1"/><path d="M20,12 L30,30 L20,48 L10,30 Z" fill="none" '
        'stroke="#e9c46a" stroke-width="1"/></symbol>'
    )
    return symbols + back


def sprite() -> str:
    """The suit emblems and the card back, defined once per page."""
    return (
        '<svg class="guinote-sprite" width="0" height="0" aria-hidden="true" focusable="false" '
        f'style="position:absolute;width:0;height:0;overflow:hidden">{sprite_symbols()}</svg>'
    )


def card(code: str, x: float, y: float, *, highlight: bool = False) -> str:
    """One card, its top-left corner at (x, y); an unknown code draws the card's back."""
    if len(code) != 2 or code[1] not in _EMBLEMS:
        return f'<use href="#gs-back" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}"/>'
    rank, suit = code[0], code[1]
    number = NUMBERS.get(rank, rank)
    colour = SUIT_COLOURS[suit]
    stroke = "#d4a017" if highlight else "#555"
    width = 2.5 if highlight else 1
    parts = [
        f'<g class="guinote-card" transform="translate({x},{y})"><title>{escape(card_name(code))}</title>',
        f'<rect x="0.5" y="0.5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="4" fill="#fffdf6" '
        f'stroke="{stroke}" stroke-width="{width}"/>',
        f'<text x="4" y="12" font-size="10" font-weight="bold" fill="{colour}">{escape(number)}</text>',
        f'<use href="#gs-{suit}" x="2" y="14" width="12" height="12"/>',
        f'<text x="{CARD_W - 4}" y="{CARD_H - 4}" font-size="10" font-weight="bold" fill="{colour}" '
        f'text-anchor="end">{escape(number)}</text>',
    ]
    if rank in FIGURES:
        parts.append(
            f'<rect x="6" y="15" width="{CARD_W - 12}" height="30" rx="3" fill="none" stroke="{colour}" '
            'stroke-width="0.8" stroke-dasharray="2 1.5"/>'
        )
        parts.append(f'<use href="#gs-{suit}" x="10" y="17" width="20" height="20"/>')
        parts.append(
            f'<text x="{CARD_W / 2}" y="43" font-size="6.5" text-anchor="middle" fill="{colour}">'
            f"{escape(FIGURES[rank])}</text>"
        )
    else:
        parts.append(f'<use href="#gs-{suit}" x="7" y="17" width="26" height="26"/>')
    parts.append("</g>")
    return "".join(parts)


def card_name(code: str) -> str:
    """``Ao`` -> ``As de oros`` (the Spanish names are the game's own, in both editions)."""
    names = {"A": "As", "3": "Tres", "R": "Rey", "S": "Sota", "C": "Caballo", "9": "Nueve", "8": "Ocho"}
    names |= {"7": "Siete", "6": "Seis", "5": "Cinco", "4": "Cuatro", "2": "Dos"}
    if len(code) != 2:
        return code
    return f"{names.get(code[0], code[0])} de {SUIT_NAMES.get(code[1], code[1])}"


def hand(codes: Sequence[str], x: float, y: float, step: float = STEP) -> str:
    return "".join(card(code, x + index * step, y) for index, code in enumerate(codes))


def hand_width(count: int, step: float = STEP) -> float:
    return CARD_W + max(0, count - 1) * step if count else 0


def cards_row(codes: Sequence[str], label: str = "") -> str:
    """A row of cards side by side (the deck page), as a complete SVG."""
    gap = CARD_W + 6
    width = max(gap * len(codes), 1)
    body = "".join(card(code, 3 + index * gap, 3) for index, code in enumerate(codes))
    return (
        f'<svg class="guinote-svg guinote-cards-row" viewBox="0 0 {width + 6} {CARD_H + 6}" '
        f'width="{width + 6}" height="{CARD_H + 6}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>{body}</svg>"
    )


def _text(x: float, y: float, text: str, size: float = 11, anchor: str = "middle", css: str = "") -> str:
    extra = f' class="{css}"' if css else ""
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" fill="#222"{extra}>'
        f"{escape(text)}</text>"
    )


def _seat_positions(
    players: int, width: float, top: float, middle: float, bottom: float
) -> dict[int, tuple[float, float]]:
    """Where each seat's hand is centred. Play goes to the right (counter-clockwise seen from
    above): seat 0 at the bottom, the next seat on the right, then the top, then the left. The
    two side hands sit on one row, which keeps the drawing narrow enough for a phone."""
    if players == 2:
        return {0: (width / 2, bottom), 1: (width / 2, top)}
    return {0: (width / 2, bottom), 1: (width * 3 / 4, middle), 2: (width / 2, top), 3: (width / 4, middle)}


def table_svg(picture: TablePicture, label: str, seat_names: Mapping[int, str] | None = None) -> str:
    """The table of ``picture``: every seat's hand in playing order, the cards played to the
    trick in front of their players, the stock with the muestra beside it, and the scores.
    ``seat_names``: the players named as at the table (a scenario's), instead of by number."""
    players = picture.players
    most = max((len(cards) for cards in picture.hands.values()), default=0)
    step = STEP if players == 2 or most <= 6 else max(8.0, (170 - CARD_W) / max(1, most - 1))
    width = 380.0 if players == 4 else max(380.0, hand_width(most) + 40)
    top = 54.0
    middle = 150.0 if players == 4 else top
    centre_y = (middle if players == 4 else top) + 132
    bottom = centre_y + 130
    names = {"card points": _("card points"), "cante points": _("cante points"), "tricks won": _("tricks won")}
    lines = [f"{names.get(name, name)}: {a} – {b}" for name, (a, b) in picture.scores.items()]
    height = bottom + CARD_H / 2 + 12 + 14 * len(lines)
    out: list[str] = []
    out.append(f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="18" fill="#2f6b3e" stroke="#1c4227"/>')
    sides = picture.sides
    for seat, (cx, cy) in _seat_positions(players, width, top, middle, bottom).items():
        codes = picture.hands.get(seat, [])
        seat_step = step if players == 4 and seat in (1, 3) else STEP
        own = hand_width(len(codes), seat_step)
        if codes:
            out.append(hand(codes, cx - own / 2, cy - CARD_H / 2 + 8, seat_step))
        side = 0 if seat in sides[0] else 1
        parts = [seat_names[seat]] if seat_names else [_("seat {seat}").format(seat=seat)]
        if players == 4 and not seat_names:  # a name says whose partner a player is; the colour, his side
            parts.append(_("side {side}").format(side=side))
        if picture.dealer == seat and not (seat_names and picture.dealer is not None):
            parts.append(_("dealer"))
        playing = picture.turn == seat and picture.phase != "hand_over"
        if playing:
            parts.append(_("to play"))
        label_y = cy - CARD_H / 2 - 2
        colour = "#cfe3ff" if side == 0 else "#ffd9d2"
        ring = ' stroke="#e9c46a" stroke-width="2.5"' if playing else ""
        text = " · ".join(parts)
        box = max(168 if players == 4 and seat in (1, 3) else 200, 5.6 * len(text) + 12)
        x = min(max(cx - box / 2, 4), width - box - 4)
        out.append(f'<rect x="{x:.0f}" y="{label_y - 12:.0f}" width="{box}" height="17" rx="8" fill="{colour}"{ring}/>')
        out.append(_text(x + box / 2, label_y, text, 11))
    # the trick: each card in front of its player, the card that led outlined
    centre_x = width / 2 - 50
    offsets = {0: (0, 38), 1: (46, 0), 2: (0, -38), 3: (-46, 0)} if players == 4 else {0: (0, 34), 1: (0, -34)}
    leader = picture.trick[0][0] if picture.trick else None
    for seat, code in picture.trick:
        dx, dy = offsets.get(seat, (0, 0))
        out.append(card(code, centre_x + dx - CARD_W / 2, centre_y + dy - CARD_H / 2, highlight=seat == leader))
    # the stock, with the muestra face up beside it (partly under it)
    stock_x, stock_y = centre_x + 118, centre_y - CARD_H / 2
    if picture.muestra:
        out.append(card(picture.muestra, stock_x - 26, stock_y + 6))
    if picture.stock:
        for layer in range(3):
            x, y = stock_x + layer * 2, stock_y - layer * 2
            out.append(f'<use href="#gs-back" x="{x}" y="{y}" width="40" height="60"/>')
        out.append(_text(stock_x + 10, stock_y + CARD_H + 20, _("stock: {count}").format(count=picture.stock), 11))
    if picture.trump:
        trump = _("trumps: {suit}").format(suit=SUIT_NAMES.get(picture.trump, picture.trump))
        out.append(_text(stock_x + 10, stock_y - 12, trump, 11))
    for index, line in enumerate(lines):
        out.append(_text(14, bottom + CARD_H / 2 + 22 + 14 * index, line, 11, "start"))
    body = "".join(out)
    return (
        f'<svg class="guinote-svg guinote-table-svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img"><title>{escape(label)}</title>{body}</svg>'
    )


def seats_svg(sides: Sequence[int]) -> str:
    """The seats around the table, the partnerships and the direction of play."""
    players = len(sides)
    size = 340
    c = size / 2 - 8
    radius = 110
    points = {0: (c, c + radius), 1: (c + radius, c), 2: (c, c - radius), 3: (c - radius, c)}
    if players == 2:
        points = {0: (c, c + radius), 1: (c, c - radius)}
    out = [f'<circle cx="{c}" cy="{c}" r="{radius - 28}" fill="#2f6b3e" stroke="#1c4227" stroke-width="2"/>']
    # arrows between consecutive seats, going counter-clockwise (seen from above)
    out.append(
        '<defs><marker id="gs-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#e9c46a"/></marker></defs>'
    )
    arc = radius - 50
    order = list(points)
    for index, seat in enumerate(order):
        nxt = order[(index + 1) % len(order)]
        x1, y1 = points[seat]
        x2, y2 = points[nxt]
        # points on the inner circle towards each seat
        sx, sy = c + (x1 - c) * arc / radius, c + (y1 - c) * arc / radius
        ex, ey = c + (x2 - c) * arc / radius, c + (y2 - c) * arc / radius
        sweep = 0
        out.append(
            f'<path d="M{sx:.0f},{sy:.0f} A{arc},{arc} 0 0 {sweep} {ex:.0f},{ey:.0f}" fill="none" '
            'stroke="#e9c46a" stroke-width="3" marker-end="url(#gs-arrow)"/>'
        )
    for seat, (x, y) in points.items():
        side = sides[seat]
        colour = "#cfe3ff" if side == 0 else "#ffd9d2"
        out.append(f'<circle cx="{x}" cy="{y}" r="26" fill="{colour}" stroke="#333"/>')
        out.append(_text(x, y - 2, _("seat {seat}").format(seat=seat), 11))
        out.append(_text(x, y + 12, _("side {side}").format(side=side) if players == 4 else "", 9))
    out.append(_text(c, size - 10, _("play goes to the right"), 11))
    label = _("The seats and the direction of play")
    return (
        f'<svg class="guinote-svg guinote-seats-svg" viewBox="0 0 {size - 16} {size}" width="{size - 16}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img"><title>{escape(label)}</title>{"".join(out)}</svg>'
    )

"""The board of 1960 as an accessible SVG tile-grid cartogram.

Each of the game's 50 states is one equal tile, placed roughly where it lies on a map of the USA,
so that the small eastern states are as readable and tappable as Texas; since the layout is
written out below, no map data (and no map data licence) is needed.

Why 8 columns and not the common 12 x 8 "tile grid" (NPR, FiveThirtyEight): a phone (390 px
wide, 358 px for the page's content) gives a 12-column grid 28 px tiles, too small for three
lines of text at least 12 px high (the state code, its electoral votes, the leader's cubes), and
a second map for phones would be a second picture to learn. So the one grid, at every width, is
8 columns by 7 rows of portrait tiles (44 x 54 units, about 41 x 50 px on a phone): the West on
the left, the Plains in its fourth column, the Midwest in the middle, the South along the
bottom and the East down the right edge, Alaska and Hawaii as insets under California. Every
<text> is at least 13.5 units, 12.5 px on a phone (tests/web/test_phone_board.py measures it in
Chromium); on a wide screen the page caps the map's width (board.html).

In each tile: the state code; its electoral votes; the leader's initial and support cubes, with
``*`` when he carries it (the fill says it too: a pale tint for a lead, the full colour for a
carried state). A candidate token is a disc with the candidate's initial inside its state's
tile, in a top corner (Kennedy's on the left, Nixon's on the right, or beside the electoral
votes when both are in one state), and the text of that row moves over to leave it room: a
token never hides the code, and never sits on a corner shared with other states. Thick lines
divide the game's regions (and Alaska and Hawaii, each behind its own boundary for travel),
named in the strip above the grid and, for the South, in the empty corner at the bottom left.

The SVG has role="img" with a <title> and a <desc> that tells in words what the picture shows;
every tile also carries its own <title> as a tooltip. Colours meet WCAG contrast 4.5:1 for the
text drawn on them (tests/web/test_board_map.py computes it).
"""
from markupsafe import Markup, escape

from engine.games.tmotp.data import STATES


_ROWS = ("WA ID MT ND MN WI VT ME",
         "OR NV WY SD IA MI NY NH",
         "CA UT CO NE IL IN PA MA",
         "AK AZ NM KS MO OH NJ CT",
         "HI .  .  OK KY VA WV RI",
         ".  .  TX AR TN NC MD DE",
         ".  .  LA MS AL GA SC FL")
TILES: dict[str, tuple[int, int]] = {code: (col, row) for row, line in enumerate(_ROWS)
                                     for col, code in enumerate(line.split()) if code != "."}
COLUMNS, ROWS = 8, 7
WIDTH, HEIGHT, GAP = 44, 54, 4   # one tile's size and the space between tiles, in SVG units
MARGIN, STRIP = 2, 22            # around the grid (room for the outer region lines); the names
FONT, CODE_FONT = 13.5, 14     # the smallest text, the state code
TOKEN_R = 7.5
# Where each region's name is written: the columns of the strip above the grid, or (South) the
# empty block of cells (col, row, cols, rows) at the bottom left.
REGION_LABELS: dict[str, tuple[int, int, int, int] | tuple[int, int]] = {
    "west": (0, 4), "midwest": (4, 6), "east": (6, 8), "south": (0, 5, 2, 2)}

# (leader seat, carried) -> (fill, text colour); a pale tint with dark text for a mere lead.
COLOURS: dict[tuple[str, bool], tuple[str, str]] = {
    ("kennedy", True): ("#1d4e89", "#ffffff"), ("kennedy", False): ("#d3e2f4", "#10294a"),
    ("nixon", True): ("#a4161a", "#ffffff"), ("nixon", False): ("#f6d6d6", "#5c0b0e"),
    ("none", False): ("#e4e4e4", "#222222"),
}
# A candidate token: a disc in the seat's full colour with a white letter and white ring.
TOKEN_COLOURS: dict[str, tuple[str, str]] = {"kennedy": ("#1d4e89", "#ffffff"),
                                             "nixon": ("#a4161a", "#ffffff")}
LINE, LABEL = "#222222", "#333333"   # the region lines and names, on the page's white
_PREFERRED = {"kennedy": "tl", "nixon": "tr"}


def zone(code: str) -> str:
    """The part of the board a state lies in for the region lines: its region, or Alaska's and
    Hawaii's own (engine data ``zone``: each is behind its own boundary)."""
    return STATES[code]["zone"]


def origin(code: str) -> tuple[float, float]:
    """The top left corner of a state's tile, in SVG units."""
    col, row = TILES[code]
    return MARGIN + col * (WIDTH + GAP), MARGIN + STRIP + row * (HEIGHT + GAP)


def size() -> tuple[float, float]:
    """The viewBox's width and height."""
    return (2 * MARGIN + COLUMNS * (WIDTH + GAP) - GAP,
            2 * MARGIN + STRIP + ROWS * (HEIGHT + GAP) - GAP)


def _label(state: dict, seat_names: dict[str, str], words: dict[str, str]) -> str:
    """'Ohio — 25 EV — Kennedy 2 support cubes (carried)', in the reader's words."""
    seat = state.get("leader_seat")
    if seat:
        leader = state.get("leader") or seat_names.get(seat, seat)
        lead = f"{leader} {state.get('cubes', 0)} {words['cubes']}"
        if state.get("carried"):
            lead += f" ({words['carried']})"
    elif state.get("unpledged"):
        lead = words.get("unpledged", words["no_leader"])
    else:
        lead = words["no_leader"]
    return f"{state['name']} — {state['ev']} {words['ev']} — {lead}"


def _token_text(seat: str, seat_names: dict[str, str], words: dict[str, str]) -> str:
    return words["token"].format(name=seat_names.get(seat, seat))


def _n(v: float) -> str:
    return f"{v:g}"


def _region_lines() -> str:
    """One path along every tile side that faces another zone or no tile, in the gap's middle."""
    segments = set()
    half = GAP / 2
    for code, (col, row) in TILES.items():
        x, y = origin(code)
        left, right, top, bottom = x - half, x + WIDTH + half, y - half, y + HEIGHT + half
        for dc, dr, seg in ((0, -1, (left, top, right, top)), (0, 1, (left, bottom, right, bottom)),
                            (-1, 0, (left, top, left, bottom)), (1, 0, (right, top, right, bottom))):
            other = next((c for c, at in TILES.items() if at == (col + dc, row + dr)), None)
            if other is None or zone(other) != zone(code):
                segments.add(seg)
    d = "".join(f"M{_n(a)} {_n(b)}L{_n(c)} {_n(e)}" for a, b, c, e in sorted(segments))
    return (f'<path class="regions" d="{d}" fill="none" stroke="{LINE}" stroke-width="2.5" '
            f'stroke-linecap="square"/>')


def _region_names(regions: dict[str, str]) -> list[str]:
    out = []
    for region, where in REGION_LABELS.items():
        name = regions.get(region)
        if not name:
            continue
        name = name[:1].upper() + name[1:]          # "the West" as a label: "The West"
        if len(where) == 2:
            first, last = where
            x = MARGIN + (first * (WIDTH + GAP) + last * (WIDTH + GAP) - GAP) / 2
            y = MARGIN + STRIP - 7
        else:
            col, row, cols, rows = where
            x = MARGIN + col * (WIDTH + GAP) + (cols * (WIDTH + GAP) - GAP) / 2
            y = MARGIN + STRIP + row * (HEIGHT + GAP) + (rows * (HEIGHT + GAP) - GAP) / 2 + 5
        out.append(f'<text class="region" x="{_n(x)}" y="{_n(y)}" text-anchor="middle" '
                   f'font-size="{FONT}" font-weight="bold" fill="{LABEL}">{escape(name)}</text>')
    return out


def _token_corners(tokens: dict[str, str]) -> dict[str, str]:
    """Where in its state's tile each candidate's disc stands (row t/m/b, side l/r): Kennedy's
    at the top left, Nixon's at the top right, or at the right of the electoral votes when
    Kennedy's is in the same tile (the code's row has room for one disc only, and the votes,
    at most two digits, leave room for one beside them)."""
    out = {}
    for seat in sorted(tokens):
        if tokens[seat] in TILES and seat in TOKEN_COLOURS:
            out[seat] = _PREFERRED[seat]
    if len(out) == 2 and len(set(tokens[x] for x in out)) == 1:
        out["nixon"] = "mr"
    return out


def _centre(x: float, taken: set[str], row: str) -> float:
    """The middle of what a disc at either side of ``row`` (t, m or b) leaves of a tile at
    ``x``: the text of that row is centred there."""
    left = x + (2 * TOKEN_R + 1 if f"{row}l" in taken else 0)
    right = x + WIDTH - (2 * TOKEN_R + 1 if f"{row}r" in taken else 0)
    return (left + right) / 2


def svg(states: list[dict], tokens: dict[str, str], *, seat_names: dict[str, str],
        words: dict[str, str], title: str, regions: dict[str, str] | None = None,
        targets: dict[str, str] | None = None, ids: str = "tmotp-map") -> Markup:
    """Return the board as one <svg> element, every piece of text in it escaped. ``states``
    has every state (a view has all 50); ``regions`` names the regions (none: no names).
    ``targets`` (a decision form's copy: state code -> its spoken name) makes those states
    buttons to tap or reach by Tab (the form's script gives them their effect) and the others
    inert; ``ids`` prefixes the ids of the title and description (one page shows two maps)."""
    given = {s["code"]: s for s in states}
    id_title, id_desc = (f"{ids}-title", f"{ids}-desc")
    width, height = size()
    tiles, tokens_drawn, described, placed = [], [], [], []
    corners = _token_corners(tokens)
    for code in sorted(TILES):
        state = given[code]
        seat = state.get("leader_seat") if state.get("leader_seat") in TOKEN_COLOURS else None
        carried = bool(seat and state.get("carried"))
        fill, ink = COLOURS[(seat or "none", carried)]
        label = _label(state, seat_names, words)
        if seat:
            described.append(label)
        x, y = origin(code)
        taken = {corner for seat, corner in corners.items() if tokens[seat] == code}
        classes = " ".join(["state", seat or "none"] + (["carried"] if carried else [])
                           + ([] if targets is None else ["target" if code in targets
                                                          else "inert"]))
        button = (f' role="button" tabindex="0" aria-label="{escape(targets[code])}"'
                  if targets and code in targets else "")
        parts = [f'<g class="{classes}" data-state="{escape(code)}"{button}>',
                 f"<title>{escape(label)}</title>",
                 f'<rect x="{_n(x)}" y="{_n(y)}" width="{WIDTH}" height="{HEIGHT}" rx="3" '
                 f'fill="{fill}"/>',
                 f'<text x="{_n(_centre(x, taken, "t"))}" y="{_n(y + 18)}" text-anchor="middle" '
                 f'font-size="{CODE_FONT}" font-weight="bold" fill="{ink}">{escape(code)}</text>',
                 f'<text class="ev" x="{_n(_centre(x, taken, "m"))}" y="{_n(y + 34)}" '
                 f'text-anchor="middle" '
                 f'font-size="{FONT}" fill="{ink}">{int(state["ev"])}</text>']
        cubes = int(state.get("cubes") or 0)
        if cubes > 0:
            # The leader's initial, then the cubes ("*": carried), as one line centred in the
            # row: two texts meeting at a point found from rough glyph widths.
            initial = (state.get("leader") or seat_names.get(seat, seat))[:1] if seat else ""
            mark = f"{cubes}{'*' if carried else ''}"
            em = {"*": 0.5}
            lead = (0.0 if not initial else 1.0 if not initial.isascii() else 0.75) * FONT
            rest = sum(em.get(c, 0.65) for c in mark) * FONT
            meet = _centre(x, taken, "b") + (lead - rest) / 2
            if initial:
                parts.append(f'<text class="leader" x="{_n(meet)}" y="{_n(y + 50)}" '
                             f'text-anchor="end" font-size="{FONT}" font-weight="bold" '
                             f'fill="{ink}">{escape(initial)}</text>')
            parts.append(f'<text class="cubes" x="{_n(meet)}" y="{_n(y + 50)}" '
                         f'text-anchor="{"start" if initial else "middle"}" font-size="{FONT}" '
                         f'font-weight="bold" fill="{ink}">{mark}</text>')
        parts.append("</g>")
        tiles.append("".join(parts))
    for seat, corner in corners.items():
        code = tokens[seat]
        x, y = origin(code)
        cx = x + (TOKEN_R + 1 if corner[1] == "l" else WIDTH - TOKEN_R - 1)
        cy = y + {"t": TOKEN_R + 1, "m": 29.5, "b": HEIGHT - TOKEN_R - 1}[corner[0]]
        disc, letter = TOKEN_COLOURS[seat]
        text = _token_text(seat, seat_names, words)
        placed.append(f"{given[code]['name']}: {text}")  # "here" needs a place
        tokens_drawn.append(f'<g class="token {seat}" data-token="{seat}" data-at="{escape(code)}">'
                     f"<title>{escape(text)}</title>"
                     f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{TOKEN_R}" fill="{disc}" '
                     f'stroke="#ffffff" stroke-width="1.5"/><text x="{_n(cx)}" '
                     f'y="{_n(cy + 4.5)}" text-anchor="middle" font-size="{FONT}" '
                     f'font-weight="bold" fill="{letter}">'
                     f"{escape(seat_names.get(seat, seat)[:1])}</text></g>")
    desc = "; ".join(placed + (described or [words["no_leader"]]))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" '
            f'role="{"img" if targets is None else "group"}" '
            f'aria-labelledby="{id_title} {id_desc}" class="board-map" '
            f'style="width:100%;max-width:100%;height:auto" font-family="sans-serif">'
            f'<title id="{id_title}">{escape(title)}</title>'
            f'<desc id="{id_desc}">{escape(desc)}</desc>')
    return Markup(head + "".join(_region_names(regions or {})) + "".join(tiles)
                  + _region_lines() + "".join(tokens_drawn) + "</svg>")

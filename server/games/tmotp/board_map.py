"""The board of 1960 as an accessible SVG tile-grid cartogram.

Each of the game's 50 states is one equal square on a 12 x 8 grid, placed roughly where it lies
on a map of the USA (the common public "tile grid" arrangement of NPR- and FiveThirtyEight-style
maps, without DC, which the game does not have): Alaska top left, Maine top right, Hawaii bottom
left, Texas bottom centre, Florida bottom right. Equal tiles keep the small eastern states as
readable and clickable as Texas, and since the layout is written out below, no map data (and no
map data licence) is needed.

The SVG has role="img" with a <title> and a <desc> that tells in words what the picture shows;
every tile also carries its own <title> as a tooltip. Colours meet WCAG contrast 4.5:1 for the
text drawn on them (tests/web/test_board_map.py computes it).
"""
from markupsafe import Markup, escape


_ROWS = ("AK . . . . . . . . . . ME",
         ". . . . . . . . . . VT NH",
         ". WA ID MT ND MN IL WI MI NY RI MA",
         ". OR NV WY SD IA IN OH PA NJ CT",
         ". CA UT CO NE MO KY WV VA MD DE",
         ". . AZ NM KS AR TN NC SC",
         ". . . . OK LA MS AL GA",
         "HI . . . TX . . . . FL")
TILES: dict[str, tuple[int, int]] = {code: (col, row) for row, line in enumerate(_ROWS)
                                     for col, code in enumerate(line.split()) if code != "."}
COLUMNS, ROWS = 12, 8
TILE, GAP = 44, 4                # one tile's side and the space between tiles, in SVG units

# (leader seat, carried) -> (fill, text colour); a pale tint with dark text for a mere lead.
COLOURS: dict[tuple[str, bool], tuple[str, str]] = {
    ("kennedy", True): ("#1d4e89", "#ffffff"), ("kennedy", False): ("#d3e2f4", "#10294a"),
    ("nixon", True): ("#a4161a", "#ffffff"), ("nixon", False): ("#f6d6d6", "#5c0b0e"),
    ("none", False): ("#e4e4e4", "#222222"),
}
# A candidate token: a disc in the seat's full colour with a white letter and white ring.
TOKEN_COLOURS: dict[str, tuple[str, str]] = {"kennedy": ("#1d4e89", "#ffffff"),
                                             "nixon": ("#a4161a", "#ffffff")}
_IDS = ("tmotp-map-title", "tmotp-map-desc")


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


def svg(states: list[dict], tokens: dict[str, str], *, seat_names: dict[str, str],
        words: dict[str, str], title: str) -> Markup:
    """Return the board as one <svg> element, every piece of text in it escaped. ``states``
    has every state (a view has all 50)."""
    given = {s["code"]: s for s in states}
    step = TILE + GAP
    width, height = COLUMNS * step - GAP, ROWS * step - GAP
    tiles, described, placed = [], [], []
    for code in sorted(TILES):
        state = given[code]
        seat = state.get("leader_seat") if state.get("leader_seat") in TOKEN_COLOURS else None
        carried = bool(seat and state.get("carried"))
        fill, ink = COLOURS[(seat or "none", carried)]
        label = _label(state, seat_names, words)
        if seat:
            described.append(label)
        col, row = TILES[code]
        x, y = col * step, row * step
        classes = " ".join(["state", seat or "none"] + (["carried"] if carried else []))
        parts = [f'<g class="{classes}" data-state="{escape(code)}">',
                 f"<title>{escape(label)}</title>",
                 f'<rect x="{x}" y="{y}" width="{TILE}" height="{TILE}" rx="3" fill="{fill}"/>',
                 f'<text x="{x + TILE // 2}" y="{y + 20}" text-anchor="middle" font-size="14" '
                 f'font-weight="bold" fill="{ink}">{escape(code)}</text>']
        cubes = int(state.get("cubes") or 0)
        if cubes > 0:
            mark = f"{cubes}*" if carried else str(cubes)
            parts.append(f'<text class="cubes" x="{x + TILE // 2}" y="{y + 36}" '
                         f'text-anchor="middle" font-size="11" fill="{ink}">{mark}</text>')
        parts.append("</g>")
        tiles.append("".join(parts))
    for seat in sorted(tokens):
        code = tokens[seat]
        if code not in TILES or seat not in TOKEN_COLOURS:
            continue
        col, row = TILES[code]
        cx, cy = col * step + TILE - 8, row * step + 8
        disc, letter = TOKEN_COLOURS[seat]
        text = _token_text(seat, seat_names, words)
        placed.append(f"{given[code]['name']}: {text}")  # "here" needs a place
        tiles.append(f'<g class="token {seat}" data-token="{seat}" data-at="{escape(code)}">'
                     f"<title>{escape(text)}</title>"
                     f'<circle cx="{cx}" cy="{cy}" r="7.5" fill="{disc}" stroke="#ffffff" '
                     f'stroke-width="1.5"/><text x="{cx}" y="{cy + 3.5}" text-anchor="middle" '
                     f'font-size="10" font-weight="bold" fill="{letter}">'
                     f"{escape(seat_names.get(seat, seat)[:1])}</text></g>")
    desc = "; ".join(placed + (described or [words["no_leader"]]))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'role="img" aria-labelledby="{_IDS[0]} {_IDS[1]}" class="board-map" '
            f'style="max-width:100%;height:auto" font-family="sans-serif">'
            f'<title id="{_IDS[0]}">{escape(title)}</title>'
            f'<desc id="{_IDS[1]}">{escape(desc)}</desc>')
    return Markup(head + "".join(tiles) + "</svg>")

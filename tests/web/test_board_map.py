"""The tile-grid board map: its layout, its SVG, its words and its colours."""
import xml.etree.ElementTree as ET

import pytest
from markupsafe import Markup

from engine.games.tmotp.data import STATES
from server.games.tmotp import board_map
from server.games.tmotp.board_map import TILES, svg

NS = "{http://www.w3.org/2000/svg}"
EN_SEATS = {"kennedy": "Kennedy", "nixon": "Nixon"}
JA_SEATS = {"kennedy": "ケネディ", "nixon": "ニクソン"}
WORDS = {"ev": "EV", "cubes": "support cubes", "carried": "carried", "no_leader": "no support",
         "token": "{name}'s candidate token here"}
REGIONS = {"west": "the West", "midwest": "the Midwest", "south": "the South", "east": "the East"}


def _states(seat_names=EN_SEATS, **special):
    """All 50 states without support, except those given as code=(seat, cubes, carried)."""
    out = []
    for code in sorted(STATES):
        seat, cubes, carried = special.get(code, (None, 0, False))
        out.append({"code": code, "name": STATES[code]["name"], "ev": STATES[code]["ev"],
                    "leader": seat_names[seat] if seat else None, "leader_seat": seat,
                    "cubes": cubes, "carried": carried})
    return out


def _render(states=None, tokens=None, seat_names=EN_SEATS, title="The board", regions=REGIONS):
    out = svg(_states(seat_names) if states is None else states,
              {"kennedy": "MA", "nixon": "CA"} if tokens is None else tokens,
              seat_names=seat_names, words=WORDS, title=title, regions=regions)
    return out, ET.fromstring(str(out))


def _tile(root, code):
    (g,) = [g for g in root.iter(NS + "g") if g.get("data-state") == code]
    return g


def _luminance(colour):
    def channel(c):
        c = int(c, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(colour[i:i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b):
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# --- layout ---------------------------------------------------------------------------------

def test_tiles_are_the_fifty_states_on_distinct_squares_of_the_grid():
    assert set(TILES) == set(STATES) and len(TILES) == 50
    assert len(set(TILES.values())) == 50
    assert all(0 <= col < 8 and 0 <= row < 7 for col, row in TILES.values())
    assert (board_map.COLUMNS, board_map.ROWS) == (8, 7)


def test_layout_is_roughly_the_map_of_the_usa():
    col = {code: c for code, (c, _) in TILES.items()}
    row = {code: r for code, (_, r) in TILES.items()}
    assert col["WA"] < col["ME"] and row["WA"] < row["CA"]
    # Alaska and Hawaii are insets under California, Alaska above Hawaii.
    assert col["AK"] == col["HI"] == col["CA"] == 0 and row["CA"] < row["AK"] < row["HI"]
    assert col["ME"] == max(col.values()) and row["ME"] == 0
    assert col["FL"] > col["TX"] and row["FL"] >= row["GA"]
    assert col["NY"] > col["OH"] and col["CA"] < col["NV"] < col["CO"]
    assert row["TX"] > row["OK"] > row["KS"] > row["NE"] > row["SD"] > row["ND"]
    assert row["MN"] < row["IA"] < row["MO"] and col["MA"] > col["NY"]


def test_each_region_is_one_block_of_neighbouring_tiles():
    """The region lines enclose the game's regions: each region's tiles (Alaska and Hawaii
    apart, behind their own boundary) are connected side to side."""
    for zone in {board_map.zone(c) for c in TILES}:
        codes = {c for c in TILES if board_map.zone(c) == zone}
        at = {TILES[c]: c for c in codes}
        seen, todo = set(), [next(iter(codes))]
        while todo:
            code = todo.pop()
            if code in seen:
                continue
            seen.add(code)
            col, row = TILES[code]
            todo += [at[p] for p in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1))
                     if p in at]
        assert seen == codes, zone


def test_region_names_stand_in_empty_places():
    """The strip above the grid and the empty cells at the bottom left hold the names."""
    empty = {(c, r) for c in range(8) for r in range(7)} - set(TILES.values())
    for where in board_map.REGION_LABELS.values():
        if len(where) == 4:
            col, row, cols, rows = where
            assert {(col + i, row + j) for i in range(cols) for j in range(rows)} <= empty


# --- the SVG --------------------------------------------------------------------------------

def test_svg_is_markup_with_title_desc_and_a_scaling_width():
    out, root = _render(title="Board after turn 3")
    assert isinstance(out, Markup)
    assert root.tag == NS + "svg" and root.get("role") == "img" and root.get("viewBox")
    assert root.get("width") is None and "width:100%" in root.get("style")
    title, desc = root.find(NS + "title"), root.find(NS + "desc")
    assert title.text == "Board after turn 3" and desc.text
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]


def test_one_tile_per_state_in_code_order_each_with_a_title():
    _, root = _render()
    tiles = [g for g in root.iter(NS + "g") if g.get("data-state")]
    assert [g.get("data-state") for g in tiles] == sorted(STATES)
    for g in tiles:
        code = g.get("data-state")
        assert g.find(NS + "rect") is not None
        assert [t.text for t in g.findall(NS + "text")] == [code, str(STATES[code]["ev"])]
        assert g.find(NS + "title").text == (
            f"{STATES[code]['name']} — {STATES[code]['ev']} EV — no support")


def test_a_leading_state_names_leader_cubes_and_colour():
    _, root = _render(_states(OH=("kennedy", 2, False), TX=("nixon", 1, False)))
    ohio, texas = _tile(root, "OH"), _tile(root, "TX")
    assert ohio.find(NS + "title").text == "Ohio — 25 EV — Kennedy 2 support cubes"
    assert texas.find(NS + "title").text == "Texas — 24 EV — Nixon 1 support cubes"
    # The code, the electoral votes, the leader's initial (not colour only) and cubes.
    assert [t.text for t in ohio.findall(NS + "text")] == ["OH", "25", "K", "2"]
    assert [t.text for t in texas.findall(NS + "text")] == ["TX", "24", "N", "1"]
    assert ohio.get("class").split() == ["state", "kennedy"]
    assert texas.get("class").split() == ["state", "nixon"]
    assert _tile(root, "UT").get("class").split() == ["state", "none"]
    assert ohio.find(NS + "rect").get("fill") == board_map.COLOURS[("kennedy", False)][0]
    assert texas.find(NS + "rect").get("fill") == board_map.COLOURS[("nixon", False)][0]
    assert _tile(root, "UT").find(NS + "rect").get("fill") == board_map.COLOURS[("none", False)][0]
    assert len(_tile(root, "UT").findall(NS + "text")) == 2      # no cube count without cubes


def test_a_carried_state_is_marked_in_full_colour_with_white_text():
    _, root = _render(_states(CA=("nixon", 4, True), NY=("kennedy", 5, True)))
    ca = _tile(root, "CA")
    assert ca.find(NS + "title").text == "California — 32 EV — Nixon 4 support cubes (carried)"
    assert ca.get("class").split() == ["state", "nixon", "carried"]
    assert ca.find(NS + "rect").get("fill").lower() == "#a4161a"
    assert [t.text for t in ca.findall(NS + "text")] == ["CA", "32", "N", "4*"]
    assert {t.get("fill") for t in ca.findall(NS + "text")} == {"#ffffff"}
    assert _tile(root, "NY").find(NS + "rect").get("fill").lower() == "#1d4e89"
    assert "carried" in _tile(root, "NY").get("class").split()


def test_tokens_stand_in_their_states_tiles_with_titles():
    _, root = _render(tokens={"kennedy": "MA", "nixon": "CA"})
    tokens = {g.get("data-token"): g for g in root.iter(NS + "g") if g.get("data-token")}
    assert set(tokens) == {"kennedy", "nixon"}
    for seat, code in (("kennedy", "MA"), ("nixon", "CA")):
        rect = _tile(root, code).find(NS + "rect")
        x, y, size = (float(rect.get(a)) for a in ("x", "y", "width"))
        circle = tokens[seat].find(NS + "circle")
        assert x <= float(circle.get("cx")) <= x + size and y <= float(circle.get("cy")) <= y + size
        assert tokens[seat].find(NS + "text").text == EN_SEATS[seat][0]
        assert tokens[seat].find(NS + "title").text == f"{EN_SEATS[seat]}'s candidate token here"
    assert "Massachusetts: Kennedy's candidate token here" in root.find(NS + "desc").text
    assert "California: Nixon's candidate token here" in root.find(NS + "desc").text


def _box(text):
    """A text's box in SVG units, a little larger than drawn: x from its anchor (start, middle
    or end), y from its capitals' top to its baseline."""
    size, x, y = float(text.get("font-size")), float(text.get("x")), float(text.get("y"))
    # DejaVu Sans Bold's widths (the widest common sans-serif), rounded up: W and M 1.04 em,
    # other capitals 0.86, a digit 0.7, "*" 0.5 (Chromium measures the drawn text in
    # tests/web/test_phone_board.py).
    width = size * sum(1.04 if c in "WM" else 0.5 if c == "*" else 0.7 if c.isdigit() else 0.86
                       for c in text.text)
    left = {"start": x, "end": x - width}.get(text.get("text-anchor"), x - width / 2)
    return left, y - 0.75 * size, left + width, y


def _touches(disc, box):
    """Whether a disc (cx, cy, r) reaches into a box (x0, y0, x1, y1)."""
    cx, cy, r = disc
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return (cx - nx) ** 2 + (cy - ny) ** 2 < r ** 2


@pytest.mark.parametrize("kennedy,nixon", [("MA", "CA"), ("WV", "WV"), ("OH", "OH"),
                                           ("IN", "MI"), ("WI", "MN"), ("MD", "WV")])
def test_tokens_stand_inside_their_tiles_and_never_hide_a_code_nor_each_other(kennedy, nixon):
    states = _states(WV=("nixon", 4, True), MN=("kennedy", 3, False), OH=("kennedy", 12, True))
    _, root = _render(states, tokens={"kennedy": kennedy, "nixon": nixon})
    for seat, code in (("kennedy", kennedy), ("nixon", nixon)):
        (g,) = [g for g in root.iter(NS + "g") if g.get("data-token") == seat]
        circle, rect = g.find(NS + "circle"), _tile(root, code).find(NS + "rect")
        cx, cy, r = (float(circle.get(a)) for a in ("cx", "cy", "r"))
        x, y = float(rect.get("x")), float(rect.get("y"))
        assert x < cx - r and cx + r < x + float(rect.get("width")), (seat, code)
        assert y < cy - r and cy + r < y + float(rect.get("height")), (seat, code)
    discs = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
             for c in root.iter(NS + "circle")]
    assert len(discs) == 2
    (x1, y1, r), (x2, y2, _) = discs
    assert (x1 - x2) ** 2 + (y1 - y2) ** 2 >= (2 * r) ** 2
    texts = [t for c in TILES for t in _tile(root, c).findall(NS + "text")]
    for cx, cy, r in discs:
        for text in texts:
            assert not _touches((cx, cy, r), _box(text)), text.text


def test_region_lines_and_names():
    _, root = _render()
    (path,) = [p for p in root.iter(NS + "path") if p.get("class") == "regions"]
    d = path.get("d")
    # Between Ohio (Midwest) and Pennsylvania? Not neighbours here; Kentucky (Midwest) and
    # Virginia (South) are: a line runs down the gap between their tiles.
    ky, va = _tile(root, "KY").find(NS + "rect"), _tile(root, "VA").find(NS + "rect")
    gap_x = (float(ky.get("x")) + float(ky.get("width")) + float(va.get("x"))) / 2
    assert f"M{gap_x:g} " in d
    # None between Ohio and Indiana (both the Midwest).
    oh, ind = _tile(root, "OH").find(NS + "rect"), _tile(root, "IN").find(NS + "rect")
    assert float(oh.get("x")) == float(ind.get("x"))
    between = (float(ind.get("y")) + float(ind.get("height")) + float(oh.get("y"))) / 2
    left = float(oh.get("x")) - board_map.GAP / 2
    assert f"M{left:g} {between:g}L" not in d
    names = [t.text for t in root.iter(NS + "text") if t.get("class") == "region"]
    assert sorted(names) == ["The East", "The Midwest", "The South", "The West"]
    assert board_map.LABEL and _contrast(board_map.LABEL, "#ffffff") >= 4.5


def test_every_text_is_at_least_13_5_units():
    """13.5 units are 12.5 px on a phone (the map 358 px wide); Chromium measures it in
    tests/web/test_phone_board.py."""
    _, root = _render(_states(OH=("kennedy", 2, True)), tokens={"kennedy": "OH", "nixon": "TX"})
    width = float(root.get("viewBox").split()[2])
    for t in root.iter(NS + "text"):
        assert float(t.get("font-size")) * 358 / width >= 12.4, t.text


def test_a_missing_token_is_not_drawn():
    _, root = _render(tokens={"nixon": "TX"})
    assert [g.get("data-token") for g in root.iter(NS + "g") if g.get("data-token")] == ["nixon"]


def test_japanese_seat_names_appear_as_given():
    _, root = _render(_states(JA_SEATS, OH=("kennedy", 3, True)), seat_names=JA_SEATS)
    assert "ケネディ 3 support cubes (carried)" in _tile(root, "OH").find(NS + "title").text
    letters = {g.get("data-token"): g.find(NS + "text").text
               for g in root.iter(NS + "g") if g.get("data-token")}
    assert letters == {"kennedy": "ケ", "nixon": "ニ"}


def test_text_is_escaped():
    evil = {"kennedy": "<script>alert(1)</script>", "nixon": "Nixon & Co"}
    states = _states(evil, OH=("kennedy", 2, False))
    states[0]["name"] = 'Alaska"><script>x</script>'
    out, root = _render(states, seat_names=evil, title="<script>t</script>")
    assert "<script" not in str(out)
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert "<script>alert(1)</script> 2 support cubes" in _tile(root, "OH").find(NS + "title").text
    assert root.find(NS + "title").text == "<script>t</script>"
    assert _tile(root, "AK").find(NS + "title").text.startswith('Alaska"><script>')


def test_output_is_deterministic():
    states = _states(OH=("kennedy", 2, True), TX=("nixon", 1, False))
    assert _render(states)[0] == _render([dict(s) for s in reversed(states)])[0]


# --- colours --------------------------------------------------------------------------------

@pytest.mark.parametrize("pair", sorted(set(board_map.COLOURS.values())
                                        | set(board_map.TOKEN_COLOURS.values())))
def test_text_contrast_meets_wcag_aa(pair):
    fill, text = pair
    assert _contrast(fill, text) >= 4.5


def test_every_colour_pair_drawn_is_a_checked_one():
    _, root = _render(_states(OH=("kennedy", 2, False), NY=("kennedy", 4, True),
                              TX=("nixon", 1, False), CA=("nixon", 4, True)))
    checked = set(board_map.COLOURS.values()) | set(board_map.TOKEN_COLOURS.values())
    for g in root.iter(NS + "g"):
        shape = g.find(NS + "rect") if g.get("data-state") else g.find(NS + "circle")
        for t in g.findall(NS + "text"):
            assert (shape.get("fill"), t.get("fill")) in checked

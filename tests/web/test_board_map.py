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


def _states(seat_names=EN_SEATS, **special):
    """All 50 states without support, except those given as code=(seat, cubes, carried)."""
    out = []
    for code in sorted(STATES):
        seat, cubes, carried = special.get(code, (None, 0, False))
        out.append({"code": code, "name": STATES[code]["name"], "ev": STATES[code]["ev"],
                    "leader": seat_names[seat] if seat else None, "leader_seat": seat,
                    "cubes": cubes, "carried": carried})
    return out


def _render(states=None, tokens=None, seat_names=EN_SEATS, title="The board"):
    out = svg(_states(seat_names) if states is None else states,
              {"kennedy": "MA", "nixon": "CA"} if tokens is None else tokens,
              seat_names=seat_names, words=WORDS, title=title)
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
    assert all(0 <= col < 12 and 0 <= row < 8 for col, row in TILES.values())


def test_layout_is_roughly_the_map_of_the_usa():
    col = {code: c for code, (c, _) in TILES.items()}
    row = {code: r for code, (_, r) in TILES.items()}
    assert col["WA"] < col["ME"] and row["WA"] < row["CA"]
    assert col["AK"] == col["HI"] == 0 and row["AK"] == 0 and row["HI"] == max(row.values())
    assert col["ME"] == max(col.values()) and row["ME"] == 0
    assert col["FL"] > col["TX"] and row["FL"] >= row["GA"]
    assert col["NY"] > col["OH"] and col["CA"] < col["NV"] < col["CO"]
    assert row["TX"] > row["OK"] > row["KS"] > row["NE"] > row["SD"] > row["ND"]
    assert row["MN"] < row["IA"] < row["MO"] and col["MA"] > col["NY"]


# --- the SVG --------------------------------------------------------------------------------

def test_svg_is_markup_with_title_desc_and_a_scaling_width():
    out, root = _render(title="Board after turn 3")
    assert isinstance(out, Markup)
    assert root.tag == NS + "svg" and root.get("role") == "img" and root.get("viewBox")
    assert root.get("width") is None and "max-width:100%" in root.get("style")
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
        assert g.find(NS + "text").text == code
        assert g.find(NS + "title").text == (
            f"{STATES[code]['name']} — {STATES[code]['ev']} EV — no support")


def test_a_leading_state_names_leader_cubes_and_colour():
    _, root = _render(_states(OH=("kennedy", 2, False), TX=("nixon", 1, False)))
    ohio, texas = _tile(root, "OH"), _tile(root, "TX")
    assert ohio.find(NS + "title").text == "Ohio — 25 EV — Kennedy 2 support cubes"
    assert texas.find(NS + "title").text == "Texas — 24 EV — Nixon 1 support cubes"
    assert [t.text for t in ohio.findall(NS + "text")] == ["OH", "2"]
    assert ohio.get("class").split() == ["state", "kennedy"]
    assert texas.get("class").split() == ["state", "nixon"]
    assert _tile(root, "UT").get("class").split() == ["state", "none"]
    assert ohio.find(NS + "rect").get("fill") == board_map.COLOURS[("kennedy", False)][0]
    assert texas.find(NS + "rect").get("fill") == board_map.COLOURS[("nixon", False)][0]
    assert _tile(root, "UT").find(NS + "rect").get("fill") == board_map.COLOURS[("none", False)][0]
    assert len(_tile(root, "UT").findall(NS + "text")) == 1      # no cube count without cubes


def test_a_carried_state_is_marked_in_full_colour_with_white_text():
    _, root = _render(_states(CA=("nixon", 4, True), NY=("kennedy", 5, True)))
    ca = _tile(root, "CA")
    assert ca.find(NS + "title").text == "California — 32 EV — Nixon 4 support cubes (carried)"
    assert ca.get("class").split() == ["state", "nixon", "carried"]
    assert ca.find(NS + "rect").get("fill").lower() == "#a4161a"
    assert [t.text for t in ca.findall(NS + "text")] == ["CA", "4*"]
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

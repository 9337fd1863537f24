"""Golden test: the GMT manual's sample Election Day (turn 9), ending 266 to 261.

The sample does not print the whole map. The position below keeps every fact it states (the
support in each named state, the media, momentum and endorsements, the strategy cards' states,
the events in play) and gives the other states to the 1960 winners, with New Mexico and Nevada
to Nixon, so that the stated final tally can be checked: Nixon 266, Kennedy 261, Louisiana
(10 votes, Kennedy with 3 support) awarded to nobody under Unpledged Electors.
"""
from engine.games.tmotp.data import STATES

from .golden_helpers import act, draws, game, jump_to_next_turn, resume, support

RECOUNT, UNPLEDGED = 90, 33
# Nixon's strategy cards: Minnesota, North Carolina, Connecticut, Florida.
SUBURBAN_VOTERS, QUEMOY, BOBBY_KENNEDY, ELEANOR = 77, 84, 54, 49
# Kennedy's: Wisconsin, Ohio, and two for New York.
SEAL_BUG, GIVE_ME_A_WEEK, CATHOLIC, COMPACT_CARD_NY = 29, 63, 43, 92

KENNEDY_STATES = "AR DE HI IL MA MD MI MO NJ PA RI SC TX".split()
NIXON_STATES = ("AK AL AZ CA CO IA ID IN KS KY ME MS MT ND NE OK OR SD TN UT VA VT WA WY "
                "NM NV").split()
BEFORE = {"MN": 2, "NC": 1, "CT": -1, "FL": -2, "WI": -2, "OH": -3, "NY": -3, "LA": 3,
          "GA": 0, "NH": 0, "WV": 0}

DRAWS = {  # per state, the cubes the sample draws ('k' blue, 'n' red)
    "MN": ["nnn"], "NC": ["nkk"], "CT": ["nnk"], "FL": ["kkk"],
    "WI": ["nnn"], "OH": ["kkk"], "NY": ["kkn", "kkn"],
}


def election_day(edition="gmt"):
    g = game(edition)
    jump_to_next_turn(g, 8)
    s = g.s
    for code in STATES:
        s["support"][code] = 1 if code in KENNEDY_STATES else -1 if code in NIXON_STATES else 0
    s["support"].update(BEFORE)
    s["media"] = {"west": 0, "midwest": 2, "south": 1, "east": -2}
    s["issues"] = {"defense": 1, "economy": -2, "civil_rights": 0}
    s["momentum"] = {"kennedy": 1, "nixon": 2}
    s["endorsements"] = {"west": 0, "midwest": 2, "south": -1, "east": 0}
    s["bag"] = {"kennedy": 10, "nixon": 5}
    s["persistent"]["election_day"] = [RECOUNT, UNPLEDGED]
    s["strategy"] = {"kennedy": [SEAL_BUG, GIVE_ME_A_WEEK, CATHOLIC, COMPACT_CARD_NY],
                     "nixon": [SUBURBAN_VOTERS, QUEMOY, BOBBY_KENNEDY, ELEANOR]}
    resume(g)
    return g


def test_deposit_bonus_cubes():
    g = election_day("gmt")
    # Nixon: 2 bonus + 2 media + 2 issue + 4 for two momentum; Kennedy: 3 + 3 + 1 + 2.
    assert g.s["bag"] == {"kennedy": 10 + 9, "nixon": 5 + 10}
    assert g.s["media"] == {"west": 0, "midwest": 0, "south": 0, "east": 0}
    assert g.s["momentum"] == {"kennedy": 0, "nixon": 0}


def test_deposit_bonus_cubes_zman_has_no_bonus():
    g = election_day("zman")
    assert g.s["bag"] == {"kennedy": 10 + 6, "nixon": 5 + 8}


def play_to_events(g):
    draws(g, "k", "n", "n")                     # blue, red, then red: Nixon has the initiative
    assert g.s["initiative"] == "nixon"
    order, planned = [], {code: list(seq) for code, seq in DRAWS.items()}
    while g.top["step"] == "support_checks":
        code = g.top["where"]
        order.append(code)
        draws(g, *planned[code].pop(0))
    return order


def test_strategy_cards_initiative_player_first():
    g = election_day()
    order = play_to_events(g)
    assert order[:4] == ["MN", "NC", "CT", "FL"]          # Nixon, with the initiative, first
    assert sorted(order[4:]) == ["NY", "NY", "OH", "WI"]
    assert support(g, "MN") == ("nixon", 1)
    assert support(g, "NC") == (None, 0)
    assert support(g, "CT") == ("nixon", 3)
    assert support(g, "FL") == ("nixon", 2)
    assert support(g, "WI") == ("nixon", 2)
    assert support(g, "OH") == (None, 0)
    assert support(g, "NY") == ("kennedy", 1)


def test_recount_and_final_tally():
    g = election_day()
    play_to_events(g)
    assert g.active() == ["nixon"]                        # initiative orders the events
    act(g, "nixon", f"resolve {RECOUNT}", "recount OH")
    draws(g, "k", "k", "k")                               # three blue cubes: nothing
    assert support(g, "OH") == ("kennedy", 1)             # empty: Kennedy's Midwest endorsements
    assert support(g, "NC") == ("nixon", 1)               # Nixon's endorsement in the South
    assert support(g, "GA") == ("nixon", 1)
    assert support(g, "NH") == ("nixon", 1)               # no East endorsements: edges
    assert support(g, "WV") == ("kennedy", 1)
    assert g.is_over()
    result = g.s["result"]
    assert result["unawarded"] == ["LA"]
    assert result["electoral_votes"] == {"kennedy": 261, "nixon": 266}
    out = g.outcome()
    assert out.winner == "nixon" and "266" in out.reason and "261" in out.reason


def test_without_unpledged_electors_louisiana_goes_to_kennedy():
    g = election_day()
    g.s["persistent"]["election_day"] = [RECOUNT]
    play_to_events(g)
    act(g, "nixon", "recount OH")
    draws(g, "k", "k", "k")
    assert g.s["result"]["electoral_votes"] == {"kennedy": 271, "nixon": 266}
    assert g.outcome().winner == "kennedy"

"""Election Day – Turn 9."""
import json
from pathlib import Path

import pytest

from engine.core import CHANCE

from .helpers import EDITIONS, draws, force, reach_election_day, setup, step

DATA = Path(__file__).resolve().parents[3] / "engine" / "games" / "tmotp" / "data"
STATES = {s["code"]: s for s in json.loads((DATA / "states.json").read_text())}
EV = {code: s["ev"] for code, s in STATES.items()}

K_CARDS = [62, 61, 19, 43]       # Wisconsin, Ohio, New York, New York
N_CARDS = [40, 84, 13, 54]       # Minnesota, North Carolina, Florida, Connecticut


def quiet(**board):
    """A before-Campaign-Strategy hook: no media, issues, momentum or rest cubes; then ``board``."""
    def hook(g):
        setup(g, media={r: 0 for r in g.s["media"]}, issues={i: 0 for i in g.s["issues"]},
              momentum={"kennedy": 0, "nixon": 0}, rest={"kennedy": 0, "nixon": 0},
              bag={"kennedy": 20, "nixon": 20})
        setup(g, **board)
    return hook


def in_given_order(g) -> bool:
    """Answer a Z-Man choice of the next Campaign Strategy card with the card placed first;
    whether there was one."""
    if g.s["stack"] and g.top["step"] == "election_day_strategy_order":
        seat = g.top["seat"]
        g.apply(seat, f"resolve {g.asks(seat)['cards'][0]}")
        return True
    return False


def fail_all_checks(g):
    """Draw the opposing colour for every Election Day support check until a decision (other
    than Z-Man's choice of the next Campaign Strategy card: the card placed first) or the end
    of the game."""
    while in_given_order(g) or g.active() == [CHANCE]:
        if g.active() != [CHANCE]:
            continue
        assert g.top["step"] == "support_checks", g.top["step"]
        g.apply(CHANCE, "draw " + ("nixon" if g.top["seat"] == "kennedy" else "kennedy"))


def full_board(kennedy_states, kennedy_support=1, nixon_support=1):
    """Every state led by someone: Kennedy's listed states, Nixon's the rest."""
    return {st: (kennedy_support if st in kennedy_states else -nixon_support) for st in STATES}


@pytest.mark.parametrize("edition,k_bonus,n_bonus", [("gmt", 3, 2), ("zman", 0, 0)])
def test_deposit_bonus_cubes(edition, k_bonus, n_bonus):
    """GMT: "Each player adds a number of cubes from his cube supply to the Political Capital Bag
    equal to the number of media support cubes he has on the board, then removes all his media
    support cubes and issue support cubes from the board and deposits those into the bag as well
    ... two cubes into the bag from his cube supply for each momentum marker exchanged.\"
    Z-Man: media and issue cubes and two per momentum marker, no bonus."""
    hook = quiet(media={"midwest": 2, "south": 1, "east": -2},
                 issues={"defense": 1, "economy": -2, "civil_rights": 0},
                 momentum={"kennedy": 1, "nixon": 2})
    g = reach_election_day(K_CARDS, N_CARDS, edition, before_strategy=hook)
    # Kennedy: 3 media + 1 issue + 2 x 1 momentum; Nixon: 2 media + 2 issue + 2 x 2 momentum
    assert g.s["bag"] == {"kennedy": 20 + k_bonus + 3 + 1 + 2, "nixon": 20 + n_bonus + 2 + 2 + 4}
    assert all(v == 0 for v in g.s["media"].values())
    assert all(v == 0 for v in g.s["issues"].values())
    assert g.s["momentum"] == {"kennedy": 0, "nixon": 0}
    # then 2. Determine Initiative
    assert sorted(g.legal_actions(CHANCE)) == ["draw kennedy", "draw nixon"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("initiative", ["kennedy", "nixon"])
def test_initiative_player_resolves_strategy_cards_first_three_checks_each(edition, initiative):
    """"For each of these cards, the player gains three Support Checks in the state indicated on
    that card. The player with the initiative resolves his cards first.\" (Z-Man: in the order
    each chooses, here the order placed; test_election_day_strategy_order.py.)"""
    g = reach_election_day(K_CARDS, N_CARDS, edition, before_strategy=quiet())
    draws(g, initiative, initiative)
    order = []
    while in_given_order(g) or g.active() == [CHANCE]:
        if g.active() != [CHANCE]:
            continue
        f = g.top
        if f["left"] == 3:
            order.append((f["seat"], f["where"]))
        g.apply(CHANCE, "draw " + ("nixon" if f["seat"] == "kennedy" else "kennedy"))
    kennedy = [("kennedy", st) for st in ("WI", "OH", "NY", "NY")]
    nixon = [("nixon", st) for st in ("MN", "NC", "FL", "CT")]
    assert order == (kennedy + nixon if initiative == "kennedy" else nixon + kennedy)
    assert step(g) == "over"


def test_rulebook_sample_election_day():
    """The sample Election Day of the GMT manual: Nixon has the initiative; Recount and Unpledged
    Electors are in play; Kennedy holds two Midwest endorsements, Nixon one in the South."""
    board = {"MN": 2, "NC": 1, "CT": -1, "FL": 1, "WI": -2, "OH": -3, "NY": -3, "LA": 3, "AL": -2, "MS": -1,
             "GA": 0, "NH": 0, "WV": 0}
    hook = quiet(support=board, endorsements={"midwest": 2, "south": -1, "east": 0, "west": 0})
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=hook,
                           election_day_events=[90, 33])
    draws(g, "kennedy", "nixon", "nixon")
    assert g.s["initiative"] == "nixon"
    draws(g, "nixon", "nixon", "nixon")                     # Minnesota: 2 Kennedy -> 1 Nixon
    assert g.s["support"]["MN"] == -1
    draws(g, "nixon", "kennedy", "kennedy")                 # North Carolina: 1 -> 0
    assert g.s["support"]["NC"] == 0
    draws(g, "kennedy", "kennedy", "kennedy")               # Florida: nothing
    assert g.s["support"]["FL"] == 1
    draws(g, "nixon", "nixon", "kennedy")                   # Connecticut: 1 -> 3 Nixon
    assert g.s["support"]["CT"] == -3
    draws(g, "nixon", "nixon", "nixon")                     # Wisconsin: nothing for Kennedy
    assert g.s["support"]["WI"] == -2
    draws(g, "kennedy", "kennedy", "kennedy")               # Ohio: 3 Nixon -> 0
    assert g.s["support"]["OH"] == 0
    draws(g, "kennedy", "kennedy", "nixon", "kennedy", "kennedy", "nixon")   # New York, six
    assert g.s["support"]["NY"] == 1
    # Election Day Events: Nixon, with the initiative, chooses the order
    assert g.active() == ["nixon"] and step(g) == "election_day_event_order"
    assert g.legal_actions("nixon") == ["resolve 33", "resolve 90"]
    force(g, ("nixon", "resolve 90"), ("nixon", "recount OH"))
    draws(g, "kennedy", "kennedy", "kennedy")              # the Recount fails in Ohio
    assert step(g) == "over"
    # Undecided voters: endorsements, else edges
    assert g.s["support"]["OH"] == 1            # Kennedy's Midwest endorsements
    assert g.s["support"]["NC"] == -1 and g.s["support"]["GA"] == -1   # Nixon's South endorsement
    assert g.s["support"]["NH"] == -1           # no East endorsement: Nixon's edge
    assert g.s["support"]["WV"] == 1            # Kennedy's edge
    # Unpledged Electors: Louisiana (Kennedy 3) goes to nobody
    result = g.s["result"]
    assert result["unawarded"] == ["LA"]
    expected = {seat: sum(EV[st] for st, v in g.s["support"].items()
                          if st != "LA" and (v > 0 if seat == "kennedy" else v < 0))
                for seat in ("kennedy", "nixon")}
    assert result["electoral_votes"] == expected
    assert g.outcome().winner == max(expected, key=expected.get)


def test_bag_not_refilled_during_election_day_campaign_strategy():
    hook = quiet(bag={"kennedy": 2, "nixon": 1})
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=hook)
    draws(g, "kennedy", "kennedy")
    assert g.s["bag"] == {"kennedy": 0, "nixon": 1}
    draws(g, "nixon")                       # Kennedy's first check in Wisconsin fails
    assert g.s["bag"] == {"kennedy": 0, "nixon": 0}
    assert step(g) == "over"                # the other 23 checks are lost, no reseeding


def test_election_day_events_resolved_in_the_initiative_players_order():
    """"The player with the initiative chooses the order in which these Events are resolved.\"
    Late Returns from Cook County: Kennedy draws 5 support checks for Illinois."""
    hook = quiet(support={"IL": 0})
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=hook,
                           election_day_events=[7, 90])
    draws(g, "kennedy", "kennedy")
    fail_all_checks(g)
    assert g.active() == ["kennedy"] and step(g) == "election_day_event_order"
    assert g.legal_actions("nixon") == []
    force(g, ("kennedy", "resolve 90"))
    assert g.active() == ["nixon"] and step(g) == "recount"
    force(g, ("nixon", "recount IL"))
    draws(g, "nixon", "nixon", "kennedy")
    assert g.s["support"]["IL"] == -2
    # the last event follows without a choice: Late Returns, five checks for Kennedy in Illinois
    assert g.top["step"] == "support_checks" and g.top["seat"] == "kennedy"
    assert g.top["where"] == "IL" and g.top["left"] == 5
    draws(g, "kennedy", "kennedy", "kennedy", "nixon", "nixon")
    assert g.s["support"]["IL"] == 1
    assert step(g) == "over"


def test_recount_gives_nixon_three_checks_in_a_state_he_chooses():
    hook = quiet(support={"TX": 2})
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=hook, election_day_events=[90])
    draws(g, "nixon", "nixon")
    fail_all_checks(g)
    assert g.active() == ["nixon"] and step(g) == "recount"
    assert len(g.legal_actions("nixon")) == 50
    force(g, ("nixon", "recount TX"))
    assert g.top["left"] == 3 and g.top["seat"] == "nixon"
    draws(g, "nixon", "nixon", "nixon")
    assert g.s["support"]["TX"] == -1


@pytest.mark.parametrize("edition", EDITIONS)
def test_empty_states_go_to_the_region_endorsement_holder_else_the_state_edge(edition):
    """"If either player has an endorsement marker in that state's region, that player wins the
    state and may place a state support cube there. If neither ... it goes to the player
    indicated by that state's edge.\""""
    board = {st: 0 for st in STATES}
    hook = quiet(support=board, endorsements={"west": 1, "south": -2, "midwest": 0, "east": 0})
    g = reach_election_day(K_CARDS, N_CARDS, edition, before_strategy=hook)
    draws(g, "kennedy", "kennedy")
    fail_all_checks(g)
    assert step(g) == "over"
    for st, info in STATES.items():
        region = info["region"]
        expected = {"west": "kennedy", "south": "nixon"}.get(region, info["edge"])
        assert g.s["support"][st] == (1 if expected == "kennedy" else -1), st
    # e.g. California has a Nixon edge but Kennedy's West endorsement; Texas a Kennedy edge
    assert g.s["support"]["CA"] == 1 and g.s["support"]["TX"] == -1


@pytest.mark.parametrize("state", ["AL", "LA", "MS"])
@pytest.mark.parametrize("kennedy_support,awarded", [(1, False), (3, False), (4, True)])
def test_unpledged_electors_states_kennedy_leads_with_fewer_than_four_go_to_nobody(
        state, kennedy_support, awarded):
    """Unpledged Electors: "any of Alabama, Louisiana or Mississippi that Kennedy holds with fewer
    than 4 state support cubes awards its electoral votes to nobody.\""""
    support = full_board({"NY", "PA", "IL", "TX", "MA"})
    support[state] = kennedy_support
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=quiet(support=support),
                           election_day_events=[33])
    draws(g, "kennedy", "kennedy")
    fail_all_checks(g)
    result = g.s["result"]
    assert result["unawarded"] == ([] if awarded else [state])
    base = sum(EV[st] for st in ("NY", "PA", "IL", "TX", "MA"))
    assert result["electoral_votes"]["kennedy"] == base + (EV[state] if awarded else 0)
    assert result["electoral_votes"]["nixon"] == 537 - base - EV[state]


def test_unpledged_electors_do_not_affect_nixon_or_other_states():
    support = full_board({"NY", "SC", "GA"})
    support["AL"] = -1
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=quiet(support=support),
                           election_day_events=[33])
    draws(g, "kennedy", "kennedy")
    fail_all_checks(g)
    assert g.s["result"]["unawarded"] == []
    assert g.s["result"]["electoral_votes"]["kennedy"] == EV["NY"] + EV["SC"] + EV["GA"]


# A tie needs states awarded to nobody: with Alabama and Louisiana unpledged, the other 48 states
# (516 votes) split 258 to 258.
K24 = ["AR", "CO", "CT", "DE", "FL", "GA", "HI", "IL", "KS", "MA", "ME", "MN", "MO", "NC", "NE",
       "NH", "NY", "RI", "SC", "TN", "VA", "WA", "WI", "WY"]
K25 = ["AR", "AZ", "CO", "DE", "FL", "GA", "IA", "IL", "IN", "MD", "ME", "MI", "MN", "MT", "NE",
       "NM", "OH", "OK", "RI", "SD", "TX", "VA", "WA", "WI", "WV"]


def _tally(edition, kennedy_states, kennedy_support=1, nixon_support=1):
    support = full_board(kennedy_states, kennedy_support, nixon_support)
    support["AL"] = support["LA"] = 1              # Kennedy leads without carrying: unpledged
    if "MS" in kennedy_states:
        support["MS"] = max(4, kennedy_support)    # carried: not unpledged
    assert sum(EV[st] for st in kennedy_states) == 258
    g = reach_election_day(K_CARDS, N_CARDS, edition, before_strategy=quiet(support=support),
                           election_day_events=[33])
    draws(g, "kennedy", "kennedy")
    fail_all_checks(g)
    assert step(g) == "over"
    result = g.s["result"]
    assert result["electoral_votes"] == {"kennedy": 258, "nixon": 258}
    assert sorted(result["unawarded"]) == ["AL", "LA"]
    return g


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("winner", ["kennedy", "nixon"])
def test_electoral_tie_goes_to_the_player_with_most_states(edition, winner):
    """"the winner being the player who won the largest number of states\" (both editions)."""
    # the 25 states of K25 go to the winner, the other 23 (258 votes as well) to the loser
    others = [st for st in STATES if st not in K25 + ["AL", "LA"]]
    kennedy_states = K25 if winner == "kennedy" else others
    g = _tally(edition, kennedy_states)
    assert g.s["result"]["states"] == ({"kennedy": 25, "nixon": 23} if winner == "kennedy"
                                       else {"kennedy": 23, "nixon": 25})
    assert g.outcome().winner == winner


@pytest.mark.parametrize("kennedy_support,nixon_support,winner", [(2, 1, "kennedy"), (1, 2, "nixon")])
def test_gmt_second_tiebreak_is_most_total_state_support(kennedy_support, nixon_support, winner):
    """GMT: "Should players somehow manage to achieve a tie in this as well, the winner is the
    player with the largest total number of state support cubes across all states.\""""
    g = _tally("gmt", K24, kennedy_support, nixon_support)
    assert g.s["result"]["states"] == {"kennedy": 24, "nixon": 24}
    assert g.outcome().winner == winner


@pytest.mark.parametrize("kennedy_support,nixon_support", [(2, 1), (1, 2)])
def test_zman_second_tiebreak_goes_to_kennedy(kennedy_support, nixon_support):
    """Z-Man: "Should players somehow manage to achieve a tie in this as well, Kennedy is voted in
    by the House by virtue of his marginal lead in those states denied him by the electors.\""""
    g = _tally("zman", K24, kennedy_support, nixon_support)
    assert g.s["result"]["states"] == {"kennedy": 24, "nixon": 24}
    assert g.outcome().winner == "kennedy"


@pytest.mark.parametrize("ct,seat", [(2, "kennedy"), (-1, "nixon")])
def test_early_returns_from_connecticut_five_checks_in_california_for_the_ct_leader(ct, seat):
    """Early Returns from Connecticut: "whichever player is leading in Connecticut at that moment
    draws 5 support checks for California.\""""
    hook = quiet(support={"CT": ct, "CA": 0})
    g = reach_election_day(K_CARDS, N_CARDS, "gmt", before_strategy=hook, election_day_events=[32])
    draws(g, "kennedy", "kennedy")
    for _ in range(24):                    # the eight strategy cards' checks all fail
        g.apply(CHANCE, "draw " + ("nixon" if g.top["seat"] == "kennedy" else "kennedy"))
    assert g.top["step"] == "support_checks" and g.top["where"] == "CA"
    assert g.top["seat"] == seat and g.top["left"] == 5
    draws(g, seat, seat, seat, seat, seat)
    assert g.s["support"]["CA"] == (5 if seat == "kennedy" else -5)

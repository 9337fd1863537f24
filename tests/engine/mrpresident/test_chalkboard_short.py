"""Chalkboard (1st) edition, the short National Campaign: four electoral cards a round, the scorer
leads, two cards once a game, ties carried into the next round, a majority of 270 (or the
election replayed, or a plurality when chosen)."""
from engine.core import CHANCE
from engine.games.mrpresident.data import MAJORITY, STATES, TOTAL_EV

from .helpers import (act, ev, game, mark, notes, play_round, position, refused, step, tally,
                      turn, won)


def first_codes(g, n):
    """The next ``n`` cards of the deck in its sorted order (any card may be turned up)."""
    return sorted(g.s["deck"])[:n]


# --- four cards a round, five in the 11th, six in the 12th ------------------------------------

def test_the_twelve_rounds_turn_up_4_then_5_then_6_cards_and_use_the_whole_deck():
    """Both candidates lay the same card every round: every round ties, so the election is never
    decided early and all twelve rounds are played (rounds 1-10: four cards; 11th: five; 12th:
    six; 51 in all)."""
    g = game()
    assert g.s["options"]["version"] == "short"
    turned = []
    for r in range(1, 13):
        assert step(g) == "turn_up" and g.top["left"] == (4 if r <= 10 else 5 if r == 11 else 6)
        codes = first_codes(g, g.top["left"])
        turn(g, *codes)
        assert g.s["round"] == r and g.s["table"] == codes
        assert g.view("p1")["cards_this_round"] == len(codes)
        turned += codes
        card = r      # a different card each round, the same for both
        act(g, {"p1": f"play {card}", "p2": f"play {card}"})
    assert len(turned) == len(set(turned)) == 51 == len(STATES)
    # every round tied: the twelve pots stay tied when the deck is out; nobody has a majority,
    # so the election is replayed (a new deal)
    assert g.s["past"] == [{"election": 1, "tally": {"p1": 0, "p2": 0},
                            "ev": {"p1": 0, "p2": 0}}]
    assert g.s["election"] == 2 and g.s["round"] == 1 and len(g.s["deck"]) == 51
    assert sum("stay tied: nobody wins them" in n for n in notes(g)) == 12
    assert "Nobody has a majority of 270 electoral votes: the election must be replayed." \
        in notes(g)


def test_the_rules_averages_come_out_of_the_electoral_cards():
    """"The average number of electoral votes is approximately 42 in the first 10 rounds, 53 in
    the 11th, and 63 in the 12th": 538 votes on 51 cards."""
    assert TOTAL_EV == 538 and len(STATES) == 51
    per_card = TOTAL_EV / len(STATES)
    assert [round(n * per_card) for n in (4, 5, 6)] == [42, 53, 63]
    assert {s["band"] for s in STATES.values() if s["ev"] <= 5} == {"brown"}
    assert {STATES[c]["band"] for c in ("NY", "CA", "MI")} == {"red"}
    assert STATES["NJ"]["band"] == "blue" and STATES["AL"]["band"] == "green"


# --- the highest value wins -------------------------------------------------------------------

def test_the_highest_card_wins_the_rounds_votes():
    g = game(players=3)
    play_round(g, ["NY", "AK", "NV", "OH"], {"p1": "play 5", "p2": "play 9", "p3": "play 7"})
    assert tally(g) == {"p1": 0, "p2": ev("NY", "AK", "NV", "OH"), "p3": 0} == \
        {"p1": 0, "p2": 75, "p3": 0}
    assert won(g) == {"p1": [], "p2": ["NY", "AK", "NV", "OH"], "p3": []}
    assert 9 not in g.s["hands"]["p2"] and len(g.s["hands"]["p2"]) == 12
    assert g.s["discards"] == {"p1": [5], "p2": [9], "p3": [7]}
    assert g.s["history"][-1]["winners"] == {"national": ["p2"]}
    assert notes(g)[-1] == "Candidate 2 wins New York, Alaska, Nevada, Ohio: 75 electoral votes."


def test_two_cards_together_beat_a_higher_single_card():
    g = game()
    play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 3 12", "p2": "play 13"})
    assert tally(g) == {"p1": 111, "p2": 0}
    assert "Candidate 1 turns up Newspaper Ads, Business Backing: 150 points." in notes(g)


# --- two cards once a game --------------------------------------------------------------------

def test_two_cards_only_once_a_game():
    g = game()
    turn(g, "NY", "CA", "TX", "AK")
    assert "play 3 12" in g.legal_actions("p1")
    act(g, {"p1": "play 3 12", "p2": "play 13"})
    assert g.s["doubles"] == {"p1": 0, "p2": 1}
    assert g.view("p2")["doubles"] == {"p1": 0, "p2": 1}     # the "2" chalked behind the name
    turn(g, "PA", "OH", "IL", "FL")
    assert step(g) == "lead" and g.active() == ["p1"]
    err = refused(g, "p1", "play 4 5")
    assert str(err.reason) == ("You have played two cards once already; the chalkboard edition "
                               "allows it once a game.")
    assert err.legal == g.legal_actions("p1") == sorted(f"play {c}" for c in g.s["hands"]["p1"])
    assert all(len(a.split()) == 2 for a in g.legal_actions("p1"))
    # the other candidate still has his
    act(g, {"p1": "play 1"})
    assert "play 1 2" in g.legal_actions("p2")
    act(g, {"p2": "play 1 2"})
    assert g.s["doubles"] == {"p1": 0, "p2": 0}
    assert tally(g) == {"p1": 111, "p2": ev("PA", "OH", "IL", "FL")}


def test_two_cards_in_either_order_are_the_same_play():
    g = game()
    turn(g, "NY", "CA", "TX", "AK")
    assert g.apply("p1", "play 12 3") == "play 3 12"
    assert "play 12 3" not in g.legal_actions("p2")
    assert g.s["log"][-1] == ["p1", "play 3 12"]
    act(g, {"p2": "play 13"})
    assert g.s["history"][-1]["plays"]["p1"] == [3, 12] and tally(g)["p1"] == 111


def test_two_cards_must_be_two_cards_in_hand():
    g = game()
    play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 13", "p2": "play 1"})
    turn(g, "PA", "OH", "IL", "FL")
    assert str(refused(g, "p1", "play 13 2").reason) == (
        "Full Party Backing is not in your hand; your hand: " + ", ".join(
            ["Campaign Promises", "Billboards", "Newspaper Ads", "Radio Speeches", "TV Debates",
             "Plane Tours", "Train Tours", "Bus Tours", "The Farm Vote", "The Women's Vote",
             "Labor Backing", "Business Backing"]) + ".")
    assert str(refused(g, "p1", "play 2 2").reason) == "Two cards must be two different cards."
    assert str(refused(g, "p1", "play 14").reason).startswith("Campaign cards are numbered 1 to 13")


# --- the scorer leads -------------------------------------------------------------------------

def test_the_scorer_lays_first_and_the_others_see_how_many_cards_not_which():
    g = game(players=3)
    play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 13", "p2": "play 1", "p3": "play 2"})
    assert g.s["contests"]["national"]["leaders"] == ["p1"]
    turn(g, "PA", "OH", "IL", "FL")
    assert step(g) == "lead" and g.active() == ["p1"]
    assert g.legal_actions("p2") == [] and g.legal_actions("p3") == []
    assert str(refused(g, "p2", "play 5").reason).startswith("It is not Candidate 2's decision now")
    start = mark(g)
    act(g, {"p1": "play 4 11"})
    assert notes(g, start) == ["Candidate 1 leads with 2 card(s) face down."]
    for seat in ("p2", "p3", None):
        assert g.view(seat)["plays"]["p1"] == {"shown": [], "face_down": 2, "cards": []}
    assert g.view("p1")["plays"]["p1"]["cards"] == [4, 11]
    # then the others lay at once
    assert step(g) == "play" and g.active() == ["p2", "p3"]
    act(g, {"p2": "play 12", "p3": "play 13"})
    assert tally(g) == {"p1": 111 + ev("PA", "OH", "IL", "FL"), "p2": 0, "p3": 0}
    # 150 beat 130: the scorer leads again
    turn(g, "MI", "NJ", "MA", "WA")
    assert step(g) == "lead" and g.active() == ["p1"]


def test_after_a_tie_nobody_scored_so_everybody_lays_at_once():
    g = game(players=3)
    play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 13", "p2": "play 13", "p3": "play 2"})
    assert g.s["contests"]["national"]["leaders"] == []
    turn(g, "PA", "OH", "IL", "FL")
    assert step(g) == "play" and g.active() == ["p1", "p2", "p3"]


# --- ties carried into the next round ---------------------------------------------------------

def test_tied_votes_go_to_the_best_of_the_tied_candidates_next_round():
    """The tied candidates' cards settle the carried votes first, even if another candidate laid
    a higher card; the new cards are fought for by all."""
    g = game(players=3)
    first = ["NY", "CA", "TX", "AK"]
    play_round(g, first, {"p1": "play 10", "p2": "play 10", "p3": "play 5"})
    contest = g.s["contests"]["national"]
    assert contest["pots"] == [{"states": first, "sides": ["p1", "p2"]}]
    assert tally(g) == {"p1": 0, "p2": 0, "p3": 0}
    assert notes(g)[-1] == ("Candidate 1, Candidate 2 tie for New York, California, Texas, "
                            "Alaska; the votes carry into the next round.")
    second = ["PA", "OH", "IL", "FL"]
    play_round(g, second, {"p1": "play 8", "p2": "play 6", "p3": "play 13"})
    assert tally(g) == {"p1": ev(*first), "p2": 0, "p3": ev(*second)} == \
        {"p1": 111, "p2": 0, "p3": 95}
    assert won(g) == {"p1": first, "p2": [], "p3": second}
    assert contest["pots"] == []
    assert "Candidate 1 wins the tied votes of New York, California, Texas, Alaska: 111 " \
        "electoral votes." in notes(g)
    # both scored: both lead the next round
    assert contest["leaders"] == ["p1", "p3"]
    turn(g, "MI", "NJ", "MA", "WA")
    assert step(g) == "lead" and g.active() == ["p1", "p3"]


def test_tied_again_the_votes_carry_on_among_those_still_tied():
    g = game(players=3)
    first = ["NY", "CA", "TX", "AK"]
    play_round(g, first, {"p1": "play 10", "p2": "play 10", "p3": "play 10"})
    contest = g.s["contests"]["national"]
    assert contest["pots"] == [{"states": first, "sides": ["p1", "p2", "p3"]}]
    # p1 and p2 tie again among the tied (p3 lower), and tie for the new cards too
    second = ["PA", "OH", "IL", "FL"]
    play_round(g, second, {"p1": "play 8", "p2": "play 8", "p3": "play 5"})
    assert contest["pots"] == [{"states": first, "sides": ["p1", "p2"]},
                               {"states": second, "sides": ["p1", "p2"]}]
    assert "Candidate 1, Candidate 2 tie again for New York, California, Texas, Alaska; the " \
        "votes carry into the next round." in notes(g)
    assert tally(g) == {"p1": 0, "p2": 0, "p3": 0}
    # p3 lays the highest card: he cannot win the carried votes, only the new ones
    third = ["MI", "NJ", "MA", "WA"]
    play_round(g, third, {"p1": "play 9", "p2": "play 7", "p3": "play 13"})
    assert tally(g) == {"p1": ev(*first, *second), "p2": 0, "p3": ev(*third)}
    assert won(g)["p1"] == first + second and won(g)["p3"] == third
    assert contest["pots"] == []


def test_the_tied_settle_the_carried_votes_while_another_scorer_leads():
    g = game(players=3)
    first = ["NY", "CA", "TX", "AK"]
    play_round(g, first, {"p1": "play 10", "p2": "play 10", "p3": "play 5"})
    play_round(g, ["PA", "OH", "IL", "FL"], {"p1": "play 8", "p2": "play 8", "p3": "play 13"})
    assert g.s["contests"]["national"]["pots"] == [{"states": first, "sides": ["p1", "p2"]}]
    assert tally(g)["p3"] == ev("PA", "OH", "IL", "FL")
    # p3 scored: he leads; then p1 and p2 settle the carried votes
    turn(g, "MI", "NJ", "MA", "WA")
    assert step(g) == "lead" and g.active() == ["p3"]
    act(g, {"p3": "play 1", "p1": "play 2", "p2": "play 3"})
    assert tally(g) == {"p1": 0, "p2": ev(*first, "MI", "NJ", "MA", "WA"),
                        "p3": ev("PA", "OH", "IL", "FL")}


def test_a_tie_on_the_last_round_is_won_by_nobody():
    g = game(plurality=True)
    last = ["NY", "CA", "PA", "IL", "OH", "TX"]
    position(g, round=12, deck=last, tally={"p1": 200, "p2": 149})
    assert g.top["left"] == 6
    play_round(g, last, {"p1": "play 7", "p2": "play 7"})
    assert tally(g) == {"p1": 200, "p2": 149}
    assert "New York, California, Pennsylvania, Illinois, Ohio, Texas stay tied: nobody wins " \
        "them." in notes(g)
    assert g.outcome().winner == "p1"       # the plurality, as chosen


def test_votes_tied_in_the_11th_and_again_in_the_12th_are_won_by_nobody():
    g = game(plurality=True)
    eleventh = ["AK", "DE", "NV", "VT", "WY"]
    last = ["NY", "CA", "PA", "IL", "OH", "TX"]
    position(g, round=11, deck=eleventh + last, tally={"p1": 150, "p2": 100})
    play_round(g, eleventh, {"p1": "play 2", "p2": "play 2"})
    play_round(g, last, {"p1": "play 6", "p2": "play 6"})
    assert tally(g) == {"p1": 150, "p2": 100}
    assert sum("stay tied: nobody wins them" in n for n in notes(g)) == 2
    assert g.outcome().winner == "p1"


# --- the majority, a replayed election, the plurality option ----------------------------------

def test_a_majority_of_270_wins_as_soon_as_it_is_reached():
    g = game()
    position(g, round=5, tally={"p1": 250, "p2": 100})
    play_round(g, ["NY", "AK", "DE", "NV"], {"p1": "play 13", "p2": "play 1"})
    assert tally(g) == {"p1": 250 + 52, "p2": 100}
    # decided before the deck ran out
    assert g.active() == [] and step(g) is None and g.s["deck"]
    out = g.outcome()
    assert out.winner == "p1" and out.scores == {"p1": 302, "p2": 100}
    assert str(out.reason) == "Candidate 1 becomes Mr. President with 302 electoral votes."
    assert notes(g)[-1] == "Candidate 1 wins the election and becomes Mr. President."
    assert g.s["result"]["winner"] == "p1" and g.s["result"]["president"] == "p1"


def test_269_is_not_a_majority():
    g = game()
    position(g, round=12, deck=["AK", "DE", "NV", "VT", "WY", "DC"],
             tally={"p1": 251, "p2": 200})
    play_round(g, ["AK", "DE", "NV", "VT", "WY", "DC"], {"p1": "play 13", "p2": "play 1"})
    assert g.s["past"][-1]["tally"] == {"p1": 269, "p2": 200}
    assert g.s["election"] == 2 and g.s["result"] is None and g.active() == [CHANCE]


def test_without_a_majority_the_election_is_replayed_with_a_new_deal():
    g = game(players=3)
    small = ["AK", "DE", "NV", "VT", "WY", "DC", "HI", "ID", "ME", "MT", "ND"]
    position(g, round=11, deck=small, tally={"p1": 240, "p2": 200, "p3": 90})
    assert ev(*small) == 38 and 240 + 38 >= MAJORITY
    play_round(g, small[:5], {"p1": "play 1", "p2": "play 13", "p3": "play 2"})
    # p1 can reach 240 + 23 at most: nobody can reach 270, so the election is replayed at once
    assert g.s["past"] == [{"election": 1, "tally": {"p1": 240, "p2": 215, "p3": 90},
                            "ev": {"p1": 0, "p2": 15, "p3": 0}}]
    assert "Nobody has a majority of 270 electoral votes: the election must be replayed." \
        in notes(g)
    assert g.s["election"] == 2 and g.view(None)["election"] == 2
    assert g.s["round"] == 1 and len(g.s["deck"]) == 51 and g.s["result"] is None
    assert g.s["hands"] == {x: list(range(1, 14)) for x in ("p1", "p2", "p3")}
    assert g.s["discards"] == {x: [] for x in ("p1", "p2", "p3")}
    assert g.s["doubles"] == {x: 1 for x in ("p1", "p2", "p3")}
    assert tally(g) == {"p1": 0, "p2": 0, "p3": 0}
    assert step(g) == "turn_up" and g.top["left"] == 4
    # the new election is played as the first was
    play_round(g, ["NY", "CA", "TX", "AK"], {"p1": "play 13", "p2": "play 1", "p3": "play 2"})
    assert tally(g) == {"p1": 111, "p2": 0, "p3": 0}
    assert g.s["history"][-1]["election"] == 2 and g.s["history"][-1]["round"] == 1


def test_the_plurality_option_declares_the_most_votes_the_winner():
    g = game(players=3, plurality=True)
    last = ["AK", "DE", "NV", "VT", "WY", "DC"]
    position(g, round=12, deck=last, tally={"p1": 200, "p2": 190, "p3": 130})
    play_round(g, last, {"p1": "play 1", "p2": "play 13", "p3": "play 2"})
    assert tally(g) == {"p1": 200, "p2": 208, "p3": 130}
    out = g.outcome()
    assert out.winner == "p2" and str(out.reason) == \
        "Candidate 2 becomes Mr. President with 208 electoral votes."


def test_the_plurality_is_decided_as_soon_as_the_lead_cannot_be_overturned():
    small = ["AK", "DE", "NV", "VT", "WY", "DC", "HI", "ID", "ME", "MT", "ND"]
    g = game(plurality=True)
    position(g, round=11, deck=small, tally={"p1": 100, "p2": 70})
    play_round(g, small[:5], {"p1": "play 13", "p2": "play 1"})
    # 115 against 70 with 23 votes left: decided, the 12th round is not played
    assert g.active() == [] and len(g.s["deck"]) == 6
    assert g.outcome().winner == "p1" and g.s["result"]["tally"] == {"p1": 115, "p2": 70}
    # without the option, the same position has no majority in reach: replayed
    g = game()
    position(g, round=11, deck=small, tally={"p1": 100, "p2": 70})
    play_round(g, small[:5], {"p1": "play 13", "p2": "play 1"})
    assert g.s["election"] == 2 and g.s["past"][0]["tally"] == {"p1": 115, "p2": 70}


def test_a_plurality_tied_at_the_end_is_replayed():
    g = game(plurality=True)
    last = ["AK", "DE", "NV", "VT", "WY", "DC"]
    position(g, round=12, deck=last, tally={"p1": 200, "p2": 182})
    play_round(g, last, {"p1": "play 1", "p2": "play 13"})
    assert g.s["past"][-1]["tally"] == {"p1": 200, "p2": 200}
    assert "Nobody has the most electoral votes alone: the election must be replayed." \
        in notes(g)
    assert g.s["election"] == 2 and g.active() == [CHANCE]


def test_carried_votes_count_as_votes_still_to_be_won():
    """The early decision counts tied votes still carried: with a majority out of reach of the
    deck alone but not of the deck and the pot, the election goes on."""
    g = game()
    rest = ["AK", "DE", "NV", "VT", "WY", "DC"]
    big = ["NY", "CA", "PA", "IL", "OH"]
    position(g, round=11, deck=big + rest, tally={"p1": 150, "p2": 150})
    play_round(g, big, {"p1": "play 5", "p2": "play 5"})
    assert g.s["election"] == 1 and step(g) == "turn_up"      # 150 + 164 + 18 can still reach 270
    play_round(g, rest, {"p1": "play 9", "p2": "play 3"})
    assert tally(g) == {"p1": 150 + ev(*big, *rest), "p2": 150}
    assert g.outcome().winner == "p1"

"""3. Momentum Phase: decay, issue shift, awards and endorsements, issue support decay, and the
order of these steps in each edition."""
import pytest

from engine.core import CHANCE

from .helpers import EDITIONS, force, last_activity_phase, play_activity_phases_out, setup, start, step


def to_momentum_phase(edition="gmt", **board):
    """Play turn 1's fifth Activity Phase with the given board and return the state at the first
    Momentum Phase decision (or at the Campaign Strategy Phase if none arises)."""
    g = start(edition, initiative="kennedy", start_player="kennedy")
    last_activity_phase(g)
    setup(g, **board)
    play_activity_phases_out(g)
    return g


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("before,after", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (7, 4)])
def test_momentum_decay_discards_half_rounded_down(edition, before, after):
    """"both players must discard half of their momentum markers, rounded down.\""""
    g = to_momentum_phase(edition, momentum={"kennedy": before, "nixon": before})
    assert step(g) == "campaign_strategy"
    assert g.s["momentum"] == {"kennedy": after, "nixon": after}


@pytest.mark.parametrize("edition", EDITIONS)
def test_issue_shift_by_the_player_with_more_media_cubes(edition):
    """"the player with the most media support cubes on the board may switch the positions of two
    adjacent issue tiles on the Issues Track.\" Totals over all regions count."""
    g = to_momentum_phase(edition, media={"west": 1, "east": 1, "south": -1})
    assert step(g) == "issue_shift" and g.active() == ["kennedy"]
    assert sorted(g.legal_actions("kennedy")) == ["pass", "swap defense economy",
                                                  "swap economy civil_rights"]
    force(g, ("kennedy", "swap economy civil_rights"))
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert step(g) == "campaign_strategy"


def test_issue_shift_may_be_declined():
    g = to_momentum_phase("gmt", media={"south": -2})
    assert g.active() == ["nixon"]
    force(g, ("nixon", "pass"))
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]
    assert step(g) == "campaign_strategy"


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_issue_shift_when_media_cubes_are_equal(edition):
    """"If both players have an equal number, neither may do this.\""""
    g = to_momentum_phase(edition, media={"west": 2, "east": -1, "south": -1})
    assert step(g) == "campaign_strategy"
    assert g.s["issue_track"] == ["defense", "economy", "civil_rights"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_awards_third_momentum_second_choice_first_momentum_and_endorsement(edition):
    """Third-place issue: one momentum marker; second: one momentum or one Endorsement Card;
    first: one momentum and one Endorsement Card."""
    g = to_momentum_phase(edition, issues={"defense": 2, "economy": -2, "civil_rights": 2})
    # decay 2 -> 1 each; Kennedy takes 1 for Civil Rights (third place) before the choice
    assert step(g) == "award_choice" and g.active() == ["nixon"]
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}
    assert g.legal_actions("nixon") == ["endorsement", "momentum"]
    force(g, ("nixon", "momentum"))
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 2}     # Kennedy's first-place marker too
    assert g.active() == [CHANCE] and g.top["step"] == "endorsement_draw"
    assert g.top["seat"] == "kennedy"
    g.apply(CHANCE, "endorsement 4")
    assert g.s["endorsements"]["midwest"] == 1
    assert step(g) == "campaign_strategy"


def test_second_place_endorsement_resolved_before_first_place_endorsement():
    """"the player winning the second-place issue must decide whether they wish to take an
    Endorsement Card (and, if so, must resolve that card) before the first-place winner resolves
    their Endorsement Card.\""""
    g = to_momentum_phase("gmt", issues={"defense": -1, "economy": 1})
    force(g, ("kennedy", "endorsement"))
    assert g.top["step"] == "endorsement_draw" and g.top["seat"] == "kennedy"
    g.apply(CHANCE, "endorsement 10")
    assert g.s["endorsements"]["east"] == 1
    assert g.top["step"] == "endorsement_draw" and g.top["seat"] == "nixon"
    assert "endorsement 10" not in g.legal_actions(CHANCE)    # the card is no longer in the deck
    g.apply(CHANCE, "endorsement 11")
    assert g.s["endorsements"]["east"] == 0                   # Nixon removes Kennedy's marker
    assert g.s["momentum"] == {"kennedy": 1, "nixon": 2}


def test_endorsement_removes_an_opposing_marker_instead_of_placing():
    """"if the opposing player already has one or more endorsement markers in the same region,
    the player must remove one of these markers instead of placing one.\""""
    g = to_momentum_phase("gmt", issues={"defense": 1}, endorsements={"south": -2})
    g.apply(CHANCE, "endorsement 7")
    assert g.s["endorsements"]["south"] == -1
    assert step(g) == "campaign_strategy"


def test_major_endorsement_lets_the_player_choose_the_region():
    g = to_momentum_phase("gmt", issues={"defense": -1})
    g.apply(CHANCE, "endorsement 13")
    assert g.active() == ["nixon"] and step(g) == "major_endorsement"
    assert sorted(g.legal_actions("nixon")) == ["endorse east", "endorse midwest", "endorse south",
                                                "endorse west"]
    force(g, ("nixon", "endorse west"))
    assert g.s["endorsements"]["west"] == -1
    assert step(g) == "campaign_strategy"


@pytest.mark.parametrize("edition", EDITIONS)
def test_issue_support_decays_one_cube_per_issue(edition):
    """"one issue support cube is removed from each issue tile that has any.\""""
    g = to_momentum_phase(edition, issues={"defense": 3, "economy": -1, "civil_rights": 0})
    force(g, ("nixon", "momentum"))
    g.apply(CHANCE, "endorsement 1")
    assert g.s["issues"] == {"defense": 2, "economy": 0, "civil_rights": 0}
    assert step(g) == "campaign_strategy"


def test_gmt_order_decay_shift_awards_issue_decay():
    """GMT: "The player with the most media support may now shift issues before momentum and
    endorsements are awarded rather than after.\" Nixon moves Civil Rights, which he leads, up to
    second place before the awards."""
    g = to_momentum_phase("gmt", issues={"defense": 1, "civil_rights": -2}, media={"east": -1},
                          momentum={"kennedy": 3, "nixon": 3})
    assert step(g) == "issue_shift" and g.active() == ["nixon"]
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}          # decay came first
    assert g.s["issues"] == {"defense": 1, "economy": 0, "civil_rights": -2}
    force(g, ("nixon", "swap economy civil_rights"))
    # the awards follow the new track: Civil Rights is second, Nixon chooses
    assert step(g) == "award_choice" and g.active() == ["nixon"]
    force(g, ("nixon", "momentum"))
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 3}
    g.apply(CHANCE, "endorsement 1")
    assert g.s["endorsements"]["west"] == 1
    assert g.s["issues"] == {"defense": 0, "economy": 0, "civil_rights": -1}   # decay last
    assert step(g) == "campaign_strategy"


def test_zman_order_decay_awards_issue_decay_shift():
    """Z-Man: Step 1 momentum decay, Step 2 awards, Step 3 issue support decay, Step 4 issue
    shift "At the end of the Momentum Phase\"."""
    g = to_momentum_phase("zman", issues={"defense": 1, "civil_rights": -2}, media={"east": -1},
                          momentum={"kennedy": 3, "nixon": 3})
    # decay (3 -> 2), then Civil Rights (third) gives Nixon 1, Defense (first) gives Kennedy 1
    assert g.active() == [CHANCE] and g.top["step"] == "endorsement_draw"
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 3}
    g.apply(CHANCE, "endorsement 1")
    assert step(g) == "issue_shift" and g.active() == ["nixon"]
    assert g.s["issues"] == {"defense": 0, "economy": 0, "civil_rights": -1}   # decayed already
    force(g, ("nixon", "swap economy civil_rights"))
    assert g.s["issue_track"] == ["defense", "civil_rights", "economy"]
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 3}
    assert step(g) == "campaign_strategy"



def test_endorsement_discards_reshuffled_when_the_deck_is_empty():
    """An empty Endorsement deck is formed again from its discards."""
    g = to_momentum_phase("gmt", issues={"defense": 1, "economy": -1})
    assert step(g) == "award_choice"
    g.s["endorsement_discard"] = list(range(2, 17))
    g.s["endorsement_deck"] = [1]
    force(g, ("nixon", "endorsement"))
    g.apply(CHANCE, "endorsement 1")                 # the last card of the deck
    assert g.s["endorsements"]["west"] == -1
    assert g.top["step"] == "endorsement_draw" and g.top["seat"] == "kennedy"
    assert sorted(g.legal_actions(CHANCE)) == sorted(f"endorsement {i}" for i in range(1, 17))
    g.apply(CHANCE, "endorsement 1")
    assert g.s["endorsements"]["west"] == 0          # Kennedy removes Nixon's West marker

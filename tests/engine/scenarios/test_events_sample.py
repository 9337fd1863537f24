"""A sample of card events, the Prevention events, and the GMT support checks for events that
add state support."""
import json
from pathlib import Path

import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction
from engine.games.tmotp import events as event_table

from .helpers import decline_trigger, EDITIONS, draws, end_turn, force, last_activity_phase, setup, start, step

DATA = Path(__file__).resolve().parents[3] / "engine" / "games" / "tmotp" / "data"
STATES = {s["code"]: s for s in json.loads((DATA / "states.json").read_text())}

K_HAND = [1, 2, 6, 35, 36, 76]          # GHMA, Nixon's Knee, New England, Harvard BT, Luce, Pledge
N_HAND = [18, 25, 28, 44, 71, 72]       # Ike, Civil Rights Act, Byrd, PR Bishops, Heartland, Revolt


def kennedy_first(edition="gmt", kennedy=K_HAND, nixon=N_HAND):
    return start(edition, kennedy=kennedy, nixon=nixon, initiative="kennedy", start_player="kennedy")


def nixon_first(edition="gmt", kennedy=K_HAND, nixon=N_HAND):
    return start(edition, kennedy=kennedy, nixon=nixon, initiative="nixon", start_player="nixon")


def support_states(g, seat):
    return sorted({a.split()[1] for a in g.legal_actions(seat) if a.startswith("support")})


def _noop(g, f):
    """A stand-in for an event not yet built, so that the prevention rule can be observed."""


@pytest.fixture
def playable_stand_ins(monkeypatch):
    """Make Baptist Ministers (9), Norman Vincent Peale (73) and Eisenhower's Silence (74)
    playable events if they are not built yet (the real handlers are kept if they are)."""
    for cid in (9, 73, 74):
        monkeypatch.setitem(event_table.EVENTS, cid, event_table.EVENTS.get(cid, (_noop,)))


# --- 71 Heartland of America -----------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_heartland_of_america_western_and_midwestern_states_of_ten_votes_or_fewer(edition):
    """Heartland of America: "up to 7 state support cubes, never more than 1 in a single state, in
    Western and/or Midwestern states that are worth 10 electoral votes or fewer.\""""
    g = nixon_first(edition)
    force(g, ("nixon", "play 71 event"))
    expected = sorted(c for c, s in STATES.items()
                      if s["region"] in ("west", "midwest") and s["ev"] <= 10)
    assert support_states(g, "nixon") == expected
    assert {"AK", "HI", "IA", "KY"} <= set(expected) and not {"CA", "IL", "OH", "TX"} & set(expected)
    assert "support IA 2" not in g.legal_actions("nixon")
    for st in ("AK", "HI", "IA", "KY", "NV", "UT", "OR"):
        force(g, ("nixon", f"support {st} 1"))
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]      # seven placed: done
    assert g.s["support"]["IA"] == -2 and g.s["support"]["AK"] == -1 and g.s["support"]["NV"] == -1


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_event_state_support_needs_checks_where_opponent_carries_gmt_only(edition, checks):
    """GMT: "When Events allow players to add State Support, they must make Support Checks for
    states carried or currently occupied by their opponent.\" Z-Man has no such rule."""
    g = nixon_first(edition)
    setup(g, support={"IA": 4})
    force(g, ("nixon", "play 71 event"), ("nixon", "support IA 1"))
    if checks:
        assert g.active() == [CHANCE] and g.top["step"] == "support_checks"
        assert g.top["where"] == "IA" and g.top["left"] == 1
        draws(g, "kennedy")
        assert g.s["support"]["IA"] == 4
        assert g.active() == ["nixon"] and "support IA 1" not in g.legal_actions("nixon")
    else:
        assert g.s["support"]["IA"] == 3
        assert g.active() == ["nixon"]


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_event_state_support_needs_checks_where_opponent_token_stands_gmt_only(edition, checks):
    g = nixon_first(edition)
    setup(g, tokens={"kennedy": "NV"})
    force(g, ("nixon", "play 71 event"), ("nixon", "support NV 1"))
    assert (g.active() == [CHANCE]) is checks
    if checks:
        draws(g, "nixon")
    assert g.s["support"]["NV"] == -1


def test_event_state_support_exempt_from_checks_with_media_in_the_region():
    g = nixon_first("gmt")
    setup(g, support={"IA": 4}, media={"midwest": -1})
    force(g, ("nixon", "play 71 event"), ("nixon", "support IA 1"))
    assert g.s["support"]["IA"] == 3 and g.active() == ["nixon"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_new_england_two_per_state_in_six_states_declared_before_checks(edition):
    """New England: "up to 5 state support cubes, at most 2 per state, among these six states
    only: Massachusetts, Connecticut, Rhode Island, Vermont, Maine and New York." GMT: "players who
    wish to add multiple State Support to a state where Support Checks are required must first
    declare how many Support will be added there before drawing the declared number of cubes.\""""
    g = kennedy_first(edition)
    setup(g, support={"NY": -4})
    force(g, ("kennedy", "play 6 event"))
    assert support_states(g, "kennedy") == ["CT", "MA", "ME", "NY", "RI", "VT"]
    assert "support MA 3" not in g.legal_actions("kennedy")
    force(g, ("kennedy", "support NY 1"))
    if edition == "gmt":
        assert g.top["step"] == "support_checks" and g.top["left"] == 1
        draws(g, "kennedy")
        # declared: no second cube in New York for this event
        assert "NY" not in support_states(g, "kennedy")
        with pytest.raises(IllegalAction):
            g.apply("kennedy", "support NY 1")
    else:
        assert "support NY 1" in g.legal_actions("kennedy")
        force(g, ("kennedy", "support NY 1"))
    assert g.s["support"]["NY"] == (-3 if edition == "gmt" else -2)
    force(g, ("kennedy", "support MA 2"), ("kennedy", "support CT 2") if edition == "gmt" else
          ("kennedy", "support CT 1"))
    assert g.s["support"]["MA"] == 4
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]   # five cubes used


# --- 76 Nixon's Pledge -----------------------------------------------------------------------

def test_nixons_pledge_kennedy_gains_momentum_when_nixon_plays_other_than_campaigning():
    """Nixon's Pledge: "Until the turn ends, Kennedy takes 1 momentum marker each time Nixon uses
    a card for anything except a Campaigning action.\""""
    g = kennedy_first()
    force(g, ("kennedy", "play 76 event"))
    assert g.s["effects"] == [76]
    force(g, ("nixon", "play 25 position"), ("nixon", "position defense"),
          ("nixon", "position economy"), ("nixon", "position civil_rights"))
    assert g.s["momentum"]["kennedy"] == 3
    force(g, ("kennedy", "play 36 campaign"), ("kennedy", "done"))
    force(g, ("nixon", "play 18 campaign"), ("nixon", "done"), ("kennedy", "pass"))
    assert g.s["momentum"]["kennedy"] == 3          # a Campaigning action: nothing
    force(g, ("kennedy", "play 35 campaign"), ("kennedy", "done"), ("nixon", "pass"))
    force(g, ("nixon", "play 28 event"))
    assert g.s["momentum"]["kennedy"] == 4          # an event
    assert g.s["momentum"]["nixon"] == 2


def test_nixons_pledge_does_not_reward_kennedys_own_plays():
    g = kennedy_first()
    force(g, ("kennedy", "play 76 event"), ("nixon", "play 25 campaign"), ("nixon", "done"),
          ("kennedy", "play 36 position"), ("kennedy", "position defense"), ("kennedy", "position economy"))
    assert g.s["momentum"]["kennedy"] == 2


# --- 2 Nixon's Knee --------------------------------------------------------------------------

def test_nixons_knee_moves_nixon_to_maryland_and_campaigning_costs_him_momentum():
    """Nixon's Knee: "Nixon's candidate token is relocated to Maryland ... Until the turn ends,
    Nixon has to pay 1 momentum marker every time he wants to use a card for a Campaigning
    action.\""""
    g = kennedy_first()
    force(g, ("kennedy", "play 2 event"))
    assert g.s["tokens"]["nixon"] == "MD"
    assert "play 25 campaign" in g.legal_actions("nixon")
    force(g, ("nixon", "play 25 campaign"))
    assert g.s["momentum"]["nixon"] == 1
    assert g.s["tokens"]["nixon"] == "MD"
    force(g, ("nixon", "campaign DE 4"))
    assert g.s["support"]["DE"] == -4


def test_nixons_knee_without_momentum_nixon_cannot_campaign():
    g = kennedy_first()
    force(g, ("kennedy", "play 2 event"))
    setup(g, momentum={"nixon": 0})
    legal = g.legal_actions("nixon")
    assert not any(a.endswith("campaign") or " campaign " in a for a in legal)
    assert "play 25 position" in legal and "play 25 advertise" in legal
    assert "play candidate advertise" in legal and "play candidate campaign" not in legal


# --- 72 Southern Revolt ----------------------------------------------------------------------

def test_southern_revolt_when_kennedy_leads_civil_rights():
    """Southern Revolt: "Only if Kennedy is the Civil Rights leader: Nixon may place up to 5 state
    support cubes in total in Southern states, no more than 2 in any one state.\""""
    g = nixon_first()
    setup(g, issues={"civil_rights": 1})
    force(g, ("nixon", "play 72 event"))
    assert support_states(g, "nixon") == sorted(c for c, s in STATES.items() if s["region"] == "south")
    assert "support VA 3" not in g.legal_actions("nixon")
    force(g, ("nixon", "support VA 2"), ("nixon", "support FL 2"), ("nixon", "support TN 1"))
    assert (g.s["support"]["VA"], g.s["support"]["FL"], g.s["support"]["TN"]) == (-2, -2, -1)
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]


@pytest.mark.parametrize("civil_rights", [0, -2])
def test_southern_revolt_does_nothing_unless_kennedy_leads_civil_rights(civil_rights):
    g = nixon_first()
    setup(g, issues={"civil_rights": civil_rights})
    before = dict(g.s["support"])
    force(g, ("nixon", "play 72 event"))
    assert g.s["support"] == before
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert 72 in g.s["removed"]


# --- 28 Harry F. Byrd, 22 Gaffe --------------------------------------------------------------

def test_harry_byrd_strips_kennedy_support_in_oklahoma_mississippi_alabama():
    g = nixon_first()
    setup(g, support={"OK": 1, "MS": 2, "AL": 1, "GA": 2})
    force(g, ("nixon", "play 28 event"))
    assert sorted(g.legal_actions("nixon")) == ["done", "remove AL", "remove MS", "remove OK"]
    force(g, ("nixon", "remove MS"), ("nixon", "remove MS"), ("nixon", "remove AL"))
    assert (g.s["support"]["OK"], g.s["support"]["MS"], g.s["support"]["AL"]) == (1, 0, 0)
    assert g.s["support"]["GA"] == 2
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_gaffe_costs_the_opponent_a_momentum_marker_and_three_support_where_his_token_is(edition):
    g = kennedy_first(edition, kennedy=[22, 36, 38, 41, 43, 49])
    setup(g, support={"TX": -3}, tokens={"nixon": "TX"})
    force(g, ("kennedy", "play 22 event"))
    assert g.s["support"]["TX"] == 0
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 1}


# --- 14-17 Gathering Momentum ----------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_gathering_momentum_leader_of_more_states_gets_momentum_and_empty_states(edition):
    """Gathering Momentum: "The player who leads more of them takes 1 momentum marker and puts 1
    of his state support cubes into every ... state that currently holds no cubes of either
    player.\" Played by Nixon, it still benefits Kennedy, who leads more Eastern states."""
    g = nixon_first(edition, nixon=[15, 25, 28, 44, 71, 72])
    setup(g, support={"CT": 1})          # Kennedy leads MA, RI, CT; Nixon ME, VT
    force(g, ("nixon", "play 15 event"))
    east = [c for c, s in STATES.items() if s["region"] == "east"]
    for st in east:
        expected = {"MA": 2, "RI": 2, "CT": 1, "ME": -1, "VT": -1}.get(st, 1)
        assert g.s["support"][st] == expected, st
    assert g.s["momentum"] == {"kennedy": 3, "nixon": 2}
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]


def test_gathering_momentum_with_equal_states_led_does_nothing():
    g = nixon_first(nixon=[15, 25, 28, 44, 71, 72])        # East: MA, RI v ME, VT
    before = dict(g.s["support"])
    force(g, ("nixon", "play 15 event"))
    assert g.s["support"] == before
    assert g.s["momentum"] == {"kennedy": 2, "nixon": 2}


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_gathering_momentum_support_check_where_opponent_token_stands_gmt_only(edition, checks):
    g = nixon_first(edition, nixon=[15, 25, 28, 44, 71, 72])
    setup(g, support={"CT": 1}, tokens={"nixon": "NY"})
    force(g, ("nixon", "play 15 event"))
    if checks:
        assert g.active() == [CHANCE] and g.top["where"] == "NY" and g.top["seat"] == "kennedy"
        draws(g, "nixon")
        assert g.s["support"]["NY"] == 0
    else:
        assert g.s["support"]["NY"] == 1
    assert g.s["support"]["NJ"] == 1 and g.s["support"]["PA"] == 1
    decline_trigger(g)
    assert step(g) == "activity"


# --- Persistent Debate and Election Day events -----------------------------------------------

@pytest.mark.parametrize("cid,space", [(35, "debate"), (34, "debate"), (90, "election_day"),
                                       (33, "election_day"), (1, "prevention"), (18, "prevention")])
def test_persistent_events_go_to_their_space(cid, space):
    seat = "kennedy" if cid in (1, 34, 35) else "nixon"
    hand = {"kennedy": [1, 34, 35, 36, 38, 41], "nixon": [18, 25, 33, 90, 29, 30]}
    g = start("gmt", kennedy=hand["kennedy"], nixon=hand["nixon"], initiative=seat)
    force(g, (seat, f"play {cid} event"))
    assert g.s["persistent"][space] == [cid]
    assert cid not in g.s["removed"] and cid not in g.s["discard"]


# --- 44 Puerto Rican Bishops -----------------------------------------------------------------

def test_puerto_rican_bishops_kennedy_cannot_spend_momentum_this_turn():
    """Puerto Rican Bishops: "Until the turn ends, Kennedy cannot spend momentum markers.\""""
    g = nixon_first(kennedy=[36, 38, 41, 43, 49, 71], nixon=[18, 25, 28, 29, 44, 72])
    force(g, ("nixon", "play 44 event"))
    assert g.s["effects"] == [44]
    assert not any(a.endswith("preempt") for a in g.legal_actions("kennedy"))
    force(g, ("kennedy", "play 71 campaign"), ("kennedy", "done"), ("nixon", "pass"))
    # Nixon plays Southern Revolt for CP: Kennedy, with two markers, is not offered a trigger
    force(g, ("nixon", "play 72 campaign"), ("nixon", "done"))
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert g.s["momentum"]["kennedy"] == 2


def test_puerto_rican_bishops_does_not_stop_kennedy_playing_events():
    """Playing a card as an event costs no momentum marker, so Puerto Rican Bishops ("Kennedy
    cannot spend momentum markers") leaves Kennedy's events playable."""
    g = nixon_first(kennedy=[1, 2, 6, 35, 36, 76], nixon=[18, 25, 28, 29, 44, 72])
    force(g, ("nixon", "play 44 event"))
    legal = g.legal_actions("kennedy")
    assert {"play 6 event", "play 76 event", "play 2 event"} <= set(legal)
    force(g, ("kennedy", "play 6 event"), ("kennedy", "support MA 2"), ("kennedy", "done"))
    assert g.s["support"]["MA"] == 4
    assert g.s["momentum"]["kennedy"] == 2


def test_puerto_rican_bishops_lasts_only_for_the_turn():
    g = nixon_first(kennedy=[36, 38, 41, 43, 49, 71], nixon=[18, 25, 28, 29, 44, 72])
    force(g, ("nixon", "play 44 event"))
    last_activity_phase(g)
    end_turn(g, [g.s["hands"]["kennedy"][-1]], [g.s["hands"]["nixon"][-1]])
    assert g.s["effects"] == []


# --- Prevention events: 1 Greater Houston Ministerial Association, 18 Dwight D. Eisenhower ----

def test_greater_houston_ministerial_association_event():
    """GHMA: "Kennedy's candidate token is relocated to Texas with no travel cost. Kennedy takes 1
    momentum marker and may place up to 5 state support cubes wherever he likes, never more than
    1 in a single state.\""""
    g = kennedy_first()
    force(g, ("kennedy", "play 1 event"))
    assert g.s["tokens"]["kennedy"] == "TX"
    assert g.s["momentum"]["kennedy"] == 3
    assert len(support_states(g, "kennedy")) == 50
    assert not any(a.endswith(" 2") for a in g.legal_actions("kennedy"))
    for st in ("NY", "PA", "IL", "OH", "MI"):
        force(g, ("kennedy", f"support {st} 1"))
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]
    assert g.s["persistent"]["prevention"] == [1]


def test_greater_houston_ministerial_association_makes_puerto_rican_bishops_unplayable():
    """"From then on, three events become unplayable: Puerto Rican Bishops, Baptist Ministers and
    Norman Vincent Peale.\" Prevention Events "render certain other Events unplayable\": neither
    played as an event nor triggered."""
    g = kennedy_first(kennedy=[1, 36, 38, 41, 43, 44], nixon=[18, 25, 28, 29, 71, 72])
    assert "play 44 event" in g.legal_actions("kennedy")
    force(g, ("kennedy", "play 1 event"), ("kennedy", "done"))
    force(g, ("nixon", "play 25 campaign"), ("nixon", "done"))
    decline_trigger(g)
    legal = g.legal_actions("kennedy")
    assert "play 44 event" not in legal and "play 44 campaign" in legal
    assert "play 44 campaign preempt" not in legal          # nothing to preempt
    force(g, ("kennedy", "play 44 campaign"), ("kennedy", "done"))
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]   # Nixon is not offered a trigger
    assert g.s["discard"][-1] == 44


def test_greater_houston_ministerial_association_prevention_also_blocks_trigger_of_nixon_cards(
        playable_stand_ins):
    g = nixon_first(kennedy=[1, 9, 36, 38, 41, 73], nixon=[18, 25, 28, 44, 71, 72])
    assert "play 44 event" in g.legal_actions("nixon")
    force(g, ("nixon", "play 25 campaign"), ("nixon", "done"))
    force(g, ("kennedy", "play 9 campaign"), ("kennedy", "done"))
    assert step(g) == "trigger" and g.active() == ["nixon"]     # Baptist Ministers before GHMA
    force(g, ("nixon", "pass"))
    force(g, ("nixon", "play 28 campaign"), ("nixon", "done"), ("kennedy", "pass"))
    force(g, ("kennedy", "play 1 event"), ("kennedy", "done"))
    assert "play 44 event" not in g.legal_actions("nixon")
    force(g, ("nixon", "play 71 campaign"), ("nixon", "done"), ("kennedy", "pass"))
    force(g, ("kennedy", "play 73 campaign"), ("kennedy", "done"))
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]     # Norman Vincent Peale: no trigger
    assert g.s["discard"][-1] == 73


def test_dwight_eisenhower_event_and_prevention_of_eisenhowers_silence(playable_stand_ins):
    """Dwight D. Eisenhower: "Nixon may place up to 7 state support cubes anywhere, never more
    than 1 in a single state. While this card is in effect, the Eisenhower's Silence event can no
    longer be played.\""""
    g = nixon_first(kennedy=[36, 38, 41, 43, 49, 74])
    force(g, ("nixon", "play 25 campaign"), ("nixon", "done"))
    decline_trigger(g)
    assert "play 74 event" in g.legal_actions("kennedy")
    force(g, ("kennedy", "play 36 campaign"), ("kennedy", "done"))
    force(g, ("nixon", "play 18 event"))
    assert len(support_states(g, "nixon")) == 50
    for st in ("OH", "WI", "MI", "IL", "PA", "NY", "NJ"):
        force(g, ("nixon", f"support {st} 1"))
    assert g.s["support"]["OH"] == -2 and g.s["support"]["NJ"] == -1
    assert g.s["persistent"]["prevention"] == [18]
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]
    legal = g.legal_actions("kennedy")
    assert "play 74 event" not in legal and "play 74 campaign preempt" not in legal
    force(g, ("kennedy", "play 74 campaign"), ("kennedy", "done"))
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["nixon"]     # no trigger for Nixon either


@pytest.mark.parametrize("edition,checks", [("gmt", True), ("zman", False)])
def test_triggered_event_adding_state_support_needs_checks_in_gmt(edition, checks):
    """A triggered event resolves "exactly as if the triggering player had just played it\": the
    GMT support checks apply to it too. Kennedy triggers New England with Nixon carrying NY."""
    g = nixon_first(edition, kennedy=[36, 38, 41, 43, 49, 51], nixon=[6, 25, 28, 44, 71, 72])
    setup(g, support={"NY": -4})
    force(g, ("nixon", "play 6 campaign"), ("nixon", "campaign CA 3"), ("kennedy", "trigger"))
    force(g, ("kennedy", "support NY 2"))
    if checks:
        assert g.top["step"] == "support_checks" and g.top["left"] == 2
        draws(g, "kennedy", "nixon")
        assert g.s["support"]["NY"] == -3
    else:
        assert g.s["support"]["NY"] == -2
    force(g, ("kennedy", "support MA 2"), ("kennedy", "support CT 1"))
    assert g.s["support"]["MA"] == 4 and g.s["support"]["CT"] == 1
    decline_trigger(g)
    assert step(g) == "activity" and g.active() == ["kennedy"]
    assert g.s["rest"] == {"kennedy": 0, "nixon": 1}

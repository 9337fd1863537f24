"""Keeping a valid Campaign Strategy card (GMT 4. Campaign Strategy Phase, Note; Z-Man the same):
"Players must make sure to retain a valid Campaign Strategy card in their hand until the Campaign
Strategy Phase." A play or the Vice President card option's discard that would leave fewer
allowed cards than the turn needs (1 on turns 1-5, 2 on turns 7-8), when the player's own plays
could keep them, is not legal. A shortfall that chance or an event made keeps the ruling of
RULINGS.md: the player commits what he has."""
import pytest

from engine.core import CHANCE
from engine.core.errors import IllegalAction

from .helpers import EDITIONS, draws, last_activity_phase, setup, start, step

GM = (14, 15, 16, 17)            # the Gathering Momentum cards: not allowed as strategy cards
KEEP = "keep a card you can commit as your Campaign Strategy card"
KEEP_TWO = "keep 2 cards you can commit as your Campaign Strategy cards"


def at_phase(edition, turn, phase, kennedy, nixon=(4, 12), exhausted=True, **options):
    """Kennedy to play in Activity Phase ``phase`` of ``turn`` holding ``kennedy``; his candidate
    card exhausted unless told otherwise (it would save a card)."""
    g = start(edition, **options)
    g.s["turn"] = turn
    last_activity_phase(g)
    g.s["phase"] = phase
    for c in (*kennedy, *nixon):
        for pile in ("deck", "discard"):
            if c in g.s[pile]:
                g.s[pile].remove(c)
    setup(g, hands={"kennedy": list(kennedy), "nixon": list(nixon)})
    g.s["exhausted"]["kennedy"] = exhausted
    assert g.active() == ["kennedy"]
    return g


def plays_of(g, seat="kennedy"):
    """The cards (or 'candidate') ``seat`` may play now, whatever the way."""
    return sorted({a.split()[1] for a in g.legal_actions(seat)}, key=str)


def refused(g, action, seat="kennedy"):
    """Apply ``action``, which must be refused without changing anything; return the error."""
    before = g.to_dict()
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, action)
    assert g.to_dict() == before
    assert err.value.legal == g.legal_actions(seat)
    return err.value


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("turn", [1, 5])
def test_the_last_activity_phase_keeps_the_one_allowed_card(edition, turn):
    """Turns 1-5, fifth Activity Phase, a Gathering Momentum card and one other: only the
    Gathering Momentum card may be played, and the other play is refused in the game's words."""
    g = at_phase(edition, turn, 5, [14, 36])
    assert plays_of(g) == ["14"]
    assert "play 14 campaign" in g.legal_actions("kennedy")
    err = refused(g, "play 36 campaign")
    assert KEEP in str(err.reason)
    refused(g, "play 36 event")
    g.apply("kennedy", "play 14 advertise")
    assert g.s["hands"]["kennedy"] == [36]


@pytest.mark.parametrize("edition", EDITIONS)
def test_earlier_phases_look_ahead_to_the_plays_still_to_come(edition):
    """Third phase, three Gathering Momentum cards and one other: two plays will follow this one,
    so the allowed card must stay whatever is played now."""
    g = at_phase(edition, 1, 3, [14, 15, 16, 36])
    assert plays_of(g) == ["14", "15", "16"]
    refused(g, "play 36 position")
    g = at_phase(edition, 1, 3, [14, 15, 36, 38])      # two allowed: either may go
    assert plays_of(g) == ["14", "15", "36", "38"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("turn", [7, 8])
def test_turns_seven_and_eight_keep_two_cards(edition, turn):
    """After the Debates two cards are placed: with two allowed cards and one Gathering Momentum
    card in the fifth phase, the Gathering Momentum card must be played."""
    g = at_phase(edition, turn, 5, [14, 36, 38])
    assert plays_of(g) == ["14"]
    err = refused(g, "play 38 advertise")
    assert KEEP_TWO in str(err.reason)
    g = at_phase(edition, turn, 4, [14, 15, 36, 38])
    assert plays_of(g) == ["14", "15"]
    g.apply("kennedy", "play 15 advertise")
    while step(g) != "activity" or g.active() != ["kennedy"]:      # Nixon plays 4, no trigger
        seat = g.active()[0]
        if seat == CHANCE:
            g.apply(CHANCE, g.chance_outcomes()[0][0])
        elif step(g) == "activity":
            g.apply(seat, "play 4 advertise")
        else:
            g.apply(seat, "pass" if step(g) == "trigger" else g.legal_actions(seat)[0])
    assert g.s["phase"] == 5 and plays_of(g) == ["14"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_candidate_card_keeps_a_card_in_hand(edition):
    """A ready candidate card leaves the hand whole: holding just the two cards turn 7 needs in
    the fifth phase, only the candidate card may be played; exhausted, nothing can keep both and
    any card may go."""
    g = at_phase(edition, 7, 5, [36, 38], exhausted=False)
    assert plays_of(g) == ["candidate"]
    refused(g, "play 36 campaign")
    g = at_phase(edition, 7, 5, [36, 38], exhausted=True)
    assert plays_of(g) == ["36", "38"]
    g = at_phase(edition, 7, 4, [14, 36, 38], exhausted=False)   # the candidate now, or 14
    assert plays_of(g) == ["14", "candidate"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_vice_president_discard_must_keep_a_card(edition):
    """The Vice President card option discards a card of the hand: it may not throw away the
    last allowed card. With another allowed card left, it may."""
    g = at_phase(edition, 1, 5, [14, 36], vp_cards=True)
    assert "vp 36" not in g.legal_actions("kennedy")
    err = refused(g, "vp 36")
    assert KEEP in str(err.reason)
    g = at_phase(edition, 1, 5, [36, 38], vp_cards=True)
    assert {"vp 36", "vp 38"} <= set(g.legal_actions("kennedy"))
    g.apply("kennedy", "vp 36")
    assert g.legal_actions("kennedy")[0].startswith("play 39")     # Lyndon Johnson, the VP card
    assert g.s["hands"]["kennedy"] == [38]


def settle(g):
    """Play on to the next Activity or Campaign Strategy decision: the first choice and chance
    outcome offered, no trigger (the Advertising play's region, the Momentum Phase)."""
    while step(g) not in ("activity", "campaign_strategy"):
        seat = g.active()[0]
        if seat == CHANCE:
            g.apply(CHANCE, g.chance_outcomes()[0][0])
        else:
            g.apply(seat, "pass" if step(g) == "trigger" else g.legal_actions(seat)[0])


def redraw_into_gathering_momentum(edition, kept):
    """Turn 7, fifth phase, Nixon first: he plays A New Frontier as its event, and Kennedy throws
    away his allowed cards but ``kept`` and draws Gathering Momentum cards in their place."""
    g = start(edition, initiative="nixon")
    g.s["turn"] = 7
    last_activity_phase(g)
    hand = [36, 38, 41]
    for c in (*hand, 57, 4, 12):
        for pile in ("deck", "discard"):
            if c in g.s[pile]:
                g.s[pile].remove(c)
    for c in GM:                         # in the deck, to be drawn
        if c not in g.s["deck"]:
            g.s["discard"].remove(c)
            g.s["deck"].append(c)
    setup(g, hands={"kennedy": hand, "nixon": [57, 4, 12]})
    assert g.active() == ["nixon"]
    g.apply("nixon", "play 57 event")
    thrown = [c for c in hand if c not in kept]
    g.apply("kennedy", "discard " + " ".join(map(str, thrown)))
    for c in GM[:len(thrown)]:
        g.apply(CHANCE, f"deal kennedy {c}")
    assert g.active() == ["kennedy"] and step(g) == "activity"
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_shortfall_from_the_opponents_event_keeps_the_old_ruling(edition):
    """Nixon's play of A New Frontier let Kennedy redraw, and the draws were Gathering Momentum
    cards: nothing Kennedy plays now can keep two, so every play is legal, and he commits what he
    has ("Those players will have to do the best they can with fewer cards in their Stack")."""
    g = redraw_into_gathering_momentum(edition, kept=())
    assert sorted(g.s["hands"]["kennedy"]) == [14, 15, 16]
    assert plays_of(g) == ["14", "15", "16", "candidate"]
    g.apply("kennedy", "play 14 advertise")
    settle(g)
    assert step(g) == "campaign_strategy"
    assert g.legal_actions("kennedy") == ["strategy none"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_partial_shortfall_still_keeps_what_can_be_kept(edition):
    """One allowed card left of the two needed: Kennedy may not play it away, and commits it."""
    g = redraw_into_gathering_momentum(edition, kept=(41,))
    assert sorted(g.s["hands"]["kennedy"]) == [14, 15, 41]
    g.s["exhausted"]["kennedy"] = True
    assert plays_of(g) == ["14", "15"]
    refused(g, "play 41 campaign")
    g.apply("kennedy", "play 15 advertise")
    settle(g)
    assert step(g) == "campaign_strategy"
    assert g.legal_actions("kennedy") == ["strategy 41"]


def test_random_games_always_reach_campaign_strategy_with_the_cards_required():
    """Over random games of both editions with the Vice President cards: every Campaign Strategy
    decision of a player whose hand no redraw touched offers the full number of cards."""
    import random

    from engine.core import new_game
    from engine.games.tmotp.strategy import required
    short = checked = 0
    for seed in range(40):
        g = new_game("tmotp", seed=seed, options={"edition": EDITIONS[seed % 2], "vp_cards": True})
        rng = random.Random(seed)
        redrawn = set()
        while g.active():
            seats = g.active()
            if seats == [CHANCE]:
                outcomes = g.chance_outcomes()
                g.apply(CHANCE, rng.choices([o for o, _ in outcomes],
                                            [w for _, w in outcomes])[0])
                continue
            seat = seats[0]
            if step(g) == "discard_redraw":
                redrawn.add((g.s["turn"], seat))
            if step(g) == "campaign_strategy" and (g.s["turn"], seat) not in redrawn \
                    and g.s["turn"] in (1, 2, 3, 4, 5, 7, 8):
                checked += 1
                words = g.legal_actions(seat)[0].split()[1:]
                n = 0 if words == ["none"] else len(words)
                short += n < required(g)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert checked > 400
    assert short == 0

"""Helpers for the rule-by-rule scenario tests of 1960: The Making of the President.

Positions are reached by real play (forced chance outcomes) plus direct edits of ``state.s``
for board setup.
"""
from __future__ import annotations

from engine.core import CHANCE, new_game

EDITIONS = ("gmt", "zman")

DEFAULT_HANDS = {
    # Cards with no event built in the engine yet, so plays leave no trigger decision unless a
    # test asks for one.
    "kennedy": [36, 38, 41, 43, 49, 51],
    "nixon": [4, 12, 25, 27, 29, 30],
}


def new(edition: str = "gmt", seed: int = 1, **options):
    """Return a new game (at the turn-1 deal)."""
    return new_game("tmotp", seed=seed, options={"edition": edition, **options})


def start(edition: str = "gmt", kennedy=None, nixon=None, initiative: str = "kennedy",
          start_player: str | None = None, seed: int = 1, **options):
    """Start a game, force the turn-1 deal of the given hands (Kennedy's six then Nixon's six),
    force the initiative check for ``initiative`` (two cubes of his colour), have him choose
    ``start_player`` (default: himself) and return the state at the first Activity Phase."""
    g = new(edition, seed, **options)
    kennedy = list(DEFAULT_HANDS["kennedy"] if kennedy is None else kennedy)
    nixon = list(DEFAULT_HANDS["nixon"] if nixon is None else nixon)
    assert len(kennedy) == 6 and len(nixon) == 6
    for cid in kennedy:
        g.apply(CHANCE, f"deal kennedy {cid}")
    for cid in nixon:
        g.apply(CHANCE, f"deal nixon {cid}")
    g.apply(CHANCE, f"draw {initiative}")
    g.apply(CHANCE, f"draw {initiative}")
    g.apply(initiative, f"start {start_player or initiative}")
    assert g.top["step"] == "activity"
    return g


def force(g, *actions):
    """Apply (seat, action) pairs in order, each validated against the legal actions.

    A trigger decision that the script does not answer (the next pair is not the opponent's
    ``trigger`` or ``pass``) is declined: most scenarios play filler cards for CP, and nearly every
    card now has an event the opponent could trigger.
    """
    for seat, action in actions:
        decline_trigger(g, seat, action)
        g.apply(seat, action)
    return g


def decline_trigger(g, seat=None, action=None):
    """Pass a pending trigger decision unless (seat, action) answers it."""
    if g.s["stack"] and g.top["step"] == "trigger":
        opponent = g.top["seat"]
        if not (seat == opponent and action in ("trigger", "pass")):
            g.apply(opponent, "pass")


def draws(g, *colours):
    """Force the next chance draws of cubes: ``draws(g, "kennedy", "nixon")``."""
    for colour in colours:
        assert g.active() == [CHANCE], f"no chance step pending: {g.prompt(None)}"
        g.apply(CHANCE, f"draw {colour}")
    return g


def setup(g, *, support=None, media=None, issues=None, endorsements=None, tokens=None,
          momentum=None, bag=None, hands=None, clear_support=False, **rest):
    """Edit the board: each argument is a dict merged into ``g.s`` (support etc. are signed:
    + Kennedy cubes, - Nixon cubes). ``clear_support`` empties every state first."""
    s = g.s
    if clear_support:
        s["support"] = {st: 0 for st in s["support"]}
    for key, value in (("support", support), ("media", media), ("issues", issues),
                       ("endorsements", endorsements), ("tokens", tokens),
                       ("momentum", momentum), ("bag", bag)):
        if value:
            s[key].update(value)
    if hands:
        for seat, cards in hands.items():
            s["hands"][seat] = sorted(cards)
    for key, value in rest.items():
        s[key] = value
    return g


def step(g) -> str:
    """The name of the decision now pending."""
    return g.top["step"] if g.s["stack"] else "over"


def play_activity_phases_out(g, keep=()):
    """Play every remaining Activity Phase card (never one in ``keep``) for CP as a Campaigning
    action that spends nothing, passing every trigger."""
    while step(g) in ("activity", "campaigning", "positioning", "trigger", "advertising"):
        st = step(g)
        seat = g.active()[0] if g.active() != [CHANCE] else None
        if st == "activity":
            card = [c for c in g.s["hands"][seat] if c not in keep][0]
            legal = g.legal_actions(seat)
            if f"play {card} campaign" in legal:
                g.apply(seat, f"play {card} campaign")
            else:
                g.apply(seat, legal[0])
        elif st == "campaigning":
            g.apply(seat, "done")
        elif st == "trigger":
            g.apply(seat, "pass")
        else:
            raise AssertionError(f"unexpected step {st}")
    return g


def last_activity_phase(g):
    """Jump the Activity Phase counter to the start of the fifth phase (start player to act)."""
    assert step(g) == "activity"
    g.s["phase"] = 5
    g.s["acting"] = 0
    g.top["seat"] = g.s["start_player"]
    return g


def end_turn(g, kennedy_strategy, nixon_strategy, before_strategy=None):
    """From the fifth Activity Phase: both players play a card not kept for strategy for CP and
    spend nothing, no one triggers, then both commit the given Campaign Strategy card(s). Momentum
    Phase decisions must not arise (no media or issue leaders), or the caller must handle them."""
    play_activity_phases_out(g, keep=[*kennedy_strategy, *nixon_strategy])
    assert step(g) == "campaign_strategy", step(g)
    if before_strategy is not None:
        before_strategy(g)
    g.apply("kennedy", "strategy " + " ".join(str(c) for c in sorted(kennedy_strategy)))
    g.apply("nixon", "strategy " + " ".join(str(c) for c in sorted(nixon_strategy)))
    return g


def reach_debates(kennedy_cards, nixon_cards, initiative="kennedy", edition="gmt",
                  persistent_debate=(), issue_track=None, issues=None):
    """Reach Turn 6 (the Debates) with the given five strategy cards for each player, through the
    end of turn 5 in play; force the Debates' initiative check for ``initiative``."""
    k_cards, n_cards = list(kennedy_cards), list(nixon_cards)
    g = start(edition)
    g.s["turn"] = 5
    last_activity_phase(g)
    g.s["strategy"] = {"kennedy": k_cards[:-1], "nixon": n_cards[:-1]}
    g.s["persistent"]["debate"] = list(persistent_debate)
    if issue_track:
        g.s["issue_track"] = list(issue_track)
    hands = {"kennedy": [36, k_cards[-1]], "nixon": [30, n_cards[-1]]}
    for seat, cards in hands.items():
        for c in cards:
            for pile in ("deck", "discard", "removed"):
                if c in g.s[pile]:
                    g.s[pile].remove(c)
        g.s["hands"][seat] = sorted(cards)
    end_turn(g, [k_cards[-1]], [n_cards[-1]])
    if issues:
        g.s["issues"].update(issues)
    assert g.s["turn"] == 6 and g.active() == [CHANCE], g.prompt(None)
    draws(g, initiative, initiative)
    return g


def _take(g, seat, cards):
    for c in cards:
        for pile in ("deck", "discard", "removed"):
            if c in g.s[pile]:
                g.s[pile].remove(c)
    g.s["hands"][seat] = sorted(cards)


def reach_election_day(kennedy_cards, nixon_cards, edition="gmt", before_strategy=None,
                       election_day_events=()):
    """Reach Turn 9 (Election Day) through the end of turn 8 in play, with the given four
    Campaign Strategy cards each (two set aside on turn 7, two committed now); returns the state
    at Election Day's initiative check (bonus cubes already deposited)."""
    k_cards, n_cards = list(kennedy_cards), list(nixon_cards)
    assert len(k_cards) == 4 and len(n_cards) == 4
    g = start(edition)
    g.s["turn"] = 8
    last_activity_phase(g)
    g.s["strategy"] = {"kennedy": k_cards[:2], "nixon": n_cards[:2]}
    g.s["persistent"]["election_day"] = list(election_day_events)
    for c in election_day_events:
        for pile in ("deck", "discard"):
            if c in g.s[pile]:
                g.s[pile].remove(c)
    _take(g, "kennedy", [36, *k_cards[2:]])
    _take(g, "nixon", [30, *n_cards[2:]])
    end_turn(g, k_cards[2:], n_cards[2:], before_strategy=before_strategy)
    assert g.s["turn"] == 9 and g.active() == [CHANCE], g.prompt(None)
    return g

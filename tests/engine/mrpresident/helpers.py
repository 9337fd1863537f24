"""Shared moves for the Mr. President scenario tests: a game, state cards turned up, a round of
plays, and positions set up by editing the state where that is the clearest way to a rule."""
import pytest

from engine.core import CHANCE, IllegalAction, new_game
from engine.games.mrpresident.data import CARD_VALUES, STATES
from engine.games.mrpresident.rounds import cards_this_round


def game(edition="chalkboard", players=2, seed=1, **options):
    """A new game of Mr. President at its first turn-up."""
    return new_game("mrpresident", seed=seed,
                    options={"edition": edition, "players": players, **options})


def step(g):
    """The name of the step waiting for a decision (None when the game is over)."""
    return g.top["step"] if g.s["stack"] else None


def turn(g, *codes):
    """Turn up the named state cards, in order."""
    for code in codes:
        assert g.active() == [CHANCE], (step(g), g.active())
        g.apply(CHANCE, f"turn {code}")


def lot(g, *seats):
    assert g.active() == [CHANCE] and step(g) == "lot", step(g)
    g.apply(CHANCE, "lot " + " ".join(seats))


def act(g, plays: dict):
    """Every seat named acts (each must be active now), in the order given."""
    for seat, action in plays.items():
        assert seat in g.active(), (seat, step(g), g.active())
        g.apply(seat, action)


def play_round(g, codes, plays: dict):
    """Turn up ``codes`` and lay the cards of ``plays`` ({seat: "play 13", ...})."""
    turn(g, *codes)
    act(g, plays)


def tally(g, contest="national"):
    return dict(g.s["contests"][contest]["tally"])


def won(g, contest="national"):
    return {k: list(v) for k, v in g.s["contests"][contest]["won"].items()}


def notes(g, since=0):
    return [n[1] for n in g.s["notes"][since:]]


def mark(g):
    """The number of notes so far (to read only what comes after)."""
    return len(g.s["notes"])


def ev(*codes):
    return sum(STATES[c]["ev"] for c in codes)


def chart(code, players, column):
    return STATES[code]["popular"][players][column]


def value(*cards):
    return sum(CARD_VALUES[c] for c in cards)


def refused(g, seat, action):
    """Apply an action that must be refused; return the error."""
    with pytest.raises(IllegalAction) as info:
        g.apply(seat, action)
    return info.value


def position(g, *, round=None, deck=None, hands=None, discards=None, tally=None, refills=None,
             doubles=None, contest="national"):
    """Set up a position at a round's first turn-up: the round number (the one about to be
    played), the deck, hands, discards, the scoreboard. Edits the raw state."""
    s = g.s
    assert step(g) == "turn_up" and not s["table"], step(g)
    if round is not None:
        s["round"] = round
    if deck is not None:
        s["deck"] = sorted(deck)
    for key, given in (("hands", hands), ("discards", discards), ("refills", refills),
                       ("doubles", doubles)):
        if given:
            for seat, v in given.items():
                s[key][seat] = sorted(v) if isinstance(v, list) else v
    if tally:
        s["contests"][contest]["tally"].update(tally)
    g.top["left"] = min(cards_this_round(g), len(s["deck"]))


def lay_all(g, plays: dict):
    """Every seat named lays its cards when its turn comes (leaders first): for set-ups."""
    left = dict(plays)
    while left:
        ready = [x for x in left if x in g.active()]
        assert ready, (step(g), g.active(), left)
        for seat in ready:
            g.apply(seat, left.pop(seat))


def no_upset(g):
    """Everybody offered an upset declines it."""
    assert step(g) == "upset", step(g)
    for seat in list(g.active()):
        g.apply(seat, "upset none")


def dial(players=2, **options):
    """A dial (2nd) edition game: by default its standard, the long game by popular vote."""
    return game("dial", players=players, **options)

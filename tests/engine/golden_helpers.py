"""Helpers for the rulebook's golden playthroughs: forced draws and scripted actions."""
from engine.core import CHANCE, new_game
from engine.games.tmotp.turn import run_queue


def act(g, seat, *actions):
    """Apply ``actions`` for ``seat`` (validated), asserting each is legal."""
    for a in actions:
        assert seat in g.active(), f"{seat} is not active; waiting for {g.active()}: {g.prompt(None)}"
        g.apply(seat, a)


def draws(g, *colours):
    """Force the next cubes drawn from the bag: 'k' for a blue (Kennedy) cube, 'n' for red (Nixon)."""
    for c in colours:
        assert g.active() == [CHANCE], f"no draw pending: {g.prompt(None)}"
        g.apply(CHANCE, "draw kennedy" if c == "k" else "draw nixon")


def deal_hands(g, kennedy, nixon):
    """Force the deal of the given hands (Kennedy's cards are dealt first, then Nixon's)."""
    for seat, cards in (("kennedy", kennedy), ("nixon", nixon)):
        for c in cards:
            g.apply(CHANCE, f"deal {seat} {c}")


def game(edition="gmt", **options):
    return new_game("tmotp", seed="golden", options={"edition": edition, **options})


def jump_to_next_turn(g, turn_done: int):
    """Abandon the opening and resume the sequence of play after turn ``turn_done`` (for positions
    the rulebook describes mid-game; the test then sets the board by hand)."""
    g.s["stack"] = []
    g.s["turn"] = turn_done
    g.s["hands"] = {"kennedy": [], "nixon": []}
    g.s["queue"] = ["next_turn"]


def resume(g):
    run_queue(g)


def support(g, code):
    """Return ('kennedy'|'nixon'|None, cubes) in a state."""
    v = g.s["support"][code]
    return ("kennedy" if v > 0 else "nixon" if v < 0 else None), abs(v)

"""Shared set-ups for the card event tests: a hand, the event played or triggered."""
from tests.engine.scenarios.helpers import force, setup, start, step


def other(seat):
    return "nixon" if seat == "kennedy" else "kennedy"


def first(seat, *cards, fill, edition="gmt", **options):
    """Start a game where ``seat`` holds ``cards`` (topped up from ``fill``, cards the test never
    plays) and plays first; the other seat holds only its ``fill`` cards."""
    hands = {}
    for x in ("kennedy", "nixon"):
        mine = list(cards) if x == seat else []
        hands[x] = mine + [c for c in fill[x] if c not in mine][:6 - len(mine)]
    return start(edition, kennedy=hands["kennedy"], nixon=hands["nixon"], initiative=seat,
                 start_player=seat, **options)


def event(seat, cid, edition="gmt", *, fill, **board):
    """``seat`` plays card ``cid`` as an event from the position ``board`` (setup arguments)."""
    g = first(seat, cid, fill=fill, edition=edition)
    setup(g, **board)
    force(g, (seat, f"play {cid} event"))
    return g


def triggered(seat, cid, edition="gmt", *, fill, **board):
    """``seat`` plays card ``cid`` for CP (a Campaigning action spending nothing) and his opponent
    spends a momentum marker to trigger its event."""
    g = first(seat, cid, fill=fill, edition=edition)
    setup(g, **board)
    force(g, (seat, f"play {cid} campaign"), (seat, "done"))
    assert step(g) == "trigger" and g.active() == [other(seat)]
    force(g, (other(seat), "trigger"))
    return g


def next_turn_is(g, seat):
    """The event is over: ``seat`` is to play a card in the Activity Phase."""
    assert step(g) == "activity" and g.active() == [seat], g.prompt(None)


def support_states(g, seat):
    return sorted({a.split()[1] for a in g.legal_actions(seat) if a.startswith("support")})

"""Effects that last to the end of the turn (cards kept "in front of the affected player").

``s["effects"]`` lists the card ids in force this turn; each hook below asks what they change.
"""
NIXONS_KNEE, PUERTO_RICAN_BISHOPS, NIXONS_PLEDGE = 2, 44, 76


def active(g, cid: int) -> bool:
    return cid in g.s["effects"]


def momentum_banned(g, seat: str) -> bool:
    """Whether ``seat`` may not spend momentum markers this turn."""
    return seat == "kennedy" and active(g, PUERTO_RICAN_BISHOPS)


def campaign_momentum_cost(g, seat: str) -> int:
    """Momentum a player must pay to play a card for a Campaigning action (Nixon's Knee)."""
    return 1 if seat == "nixon" and active(g, NIXONS_KNEE) else 0


def event_momentum_cost(g, seat: str) -> int:
    """Momentum a player must pay to play a card as an event."""
    return 0


def preempt_cost(g, seat: str) -> int:
    """Momentum needed to preempt an event (Preempting Events): two markers."""
    return 2


def on_card_played(g, seat: str, mode: str) -> None:
    """Nixon's Pledge: Kennedy takes a momentum marker each time Nixon plays a card for anything
    but a Campaigning action (played as an event, to Advertise or Position, or his candidate card)."""
    if seat == "nixon" and mode != "campaign" and active(g, NIXONS_PLEDGE):
        g.s["momentum"]["kennedy"] += 1
        g.note("Nixon's Pledge: Kennedy takes a momentum marker.")


def cp_value(g, seat: str, cid, mode: str) -> int:
    """Return the Campaign Points a card is worth when ``seat`` plays it for ``mode``."""
    from .data import CARDS
    return 5 if cid == "candidate" else CARDS[cid]["cp"]


def free_travel(g, seat: str) -> bool:
    return False


def campaign_barred(g, seat: str, state: str) -> bool:
    """Whether an effect bars ``seat`` from spending CP to Campaign in ``state`` this turn."""
    return False


def support_check_needed(g, seat: str, state: str) -> bool:
    """Whether adding state support in ``state`` needs a support check, effects included."""
    from .board import needs_support_check
    return needs_support_check(g.s, seat, state)


def end_of_turn(g) -> None:
    """Turn-long effects end: their cards leave play."""
    g.s["effects"] = []

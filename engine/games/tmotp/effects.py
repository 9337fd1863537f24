"""Effects that last to the end of the turn (cards kept "in front of the affected player").

``s["effects"]`` lists the card ids in force this turn; each hook below asks what they change.
Effects that bind a seat known only when the event resolves (Advance Men: "the player"; Old South:
the Civil Rights leader) record it in ``s["effect_seats"]`` (card id as a string -> seat).
All of them end with the turn (``end_of_turn``), before the Debates and Election Day.
"""
from .board import leads, needs_support_check, own
from .data import CARDS, STATES
from .messages import msg

NIXONS_KNEE, PUERTO_RICAN_BISHOPS, NIXONS_PLEDGE = 2, 44, 76
CITIZENS_FOR_NIXON_LODGE, OLD_SOUTH, NIXON_EGGED, KEN_AIR = 4, 19, 20, 26
JOHNSON_JEERED, PROFILES_IN_COURAGE, BOBBY_KENNEDY, HOSTILE_PRESS_CORPS = 30, 31, 54, 55
JOE_KENNEDY, SUMMER_SESSION, EISENHOWERS_SILENCE, ADVANCE_MEN = 65, 69, 74, 79
PEACE_CORPS, JACKIE_KENNEDY, STEVENSON_LOYALISTS, STATURE_GAP = 81, 85, 87, 88

# (card, seat, modes, change): "each card <seat> plays [for <mode>] counts as <change> CP".
CP_CHANGES = (
    (CITIZENS_FOR_NIXON_LODGE, "nixon", ("campaign", "advertise", "position"), +1),
    (BOBBY_KENNEDY, "kennedy", ("campaign", "advertise", "position"), +1),
    (KEN_AIR, "kennedy", ("campaign",), +1),
    (SUMMER_SESSION, "kennedy", ("campaign", "advertise", "position"), -2),
    (STATURE_GAP, "kennedy", ("position",), -2),
)

# (card, seat or None for the recorded seat, regions barred): "barred from using CP to Campaign".
REGION_BARS = (
    (OLD_SOUTH, None, ("south",)),
    (NIXON_EGGED, "nixon", ("midwest",)),
    (JOHNSON_JEERED, "kennedy", ("south",)),
    (STEVENSON_LOYALISTS, "kennedy", ("west", "midwest")),
)


def active(g, cid: int) -> bool:
    return cid in g.s["effects"]


def effect_seat(g, cid: int):
    """The seat a turn-long effect recorded when it came into force (None if not in force)."""
    return g.s["effect_seats"].get(str(cid)) if active(g, cid) else None


def start_effect(g, cid: int, seat: str | None = None) -> None:
    """Put card ``cid``'s turn-long effect in force, bound to ``seat`` when it names none."""
    g.s["effects"].append(cid)
    if seat is not None:
        g.s["effect_seats"][str(cid)] = seat


def momentum_banned(g, seat: str) -> bool:
    """Whether ``seat`` may not spend momentum markers this turn (Puerto Rican Bishops, Joe
    Kennedy)."""
    return (seat == "kennedy" and active(g, PUERTO_RICAN_BISHOPS)
            or seat == "nixon" and active(g, JOE_KENNEDY))


def campaign_momentum_cost(g, seat: str) -> int:
    """Momentum a player must pay to play a card for a Campaigning action (Nixon's Knee)."""
    return 1 if seat == "nixon" and active(g, NIXONS_KNEE) else 0


def event_momentum_cost(g, seat: str) -> int:
    """Momentum a player must pay to play a card as an event (Jackie Kennedy: Nixon pays 1)."""
    return 1 if seat == "nixon" and active(g, JACKIE_KENNEDY) else 0


def preempt_cost(g, seat: str) -> int:
    """Momentum needed to preempt an event (Preempting Events): two markers, none for Kennedy
    under Kennedy's Peace Corps."""
    return 0 if seat == "kennedy" and active(g, PEACE_CORPS) else 2


def on_card_played(g, seat: str, mode: str) -> None:
    """Nixon's Pledge: Kennedy takes a momentum marker each time Nixon plays a card for anything
    but a Campaigning action (played as an event, to Advertise or Position, or his candidate card)."""
    if seat == "nixon" and mode != "campaign" and active(g, NIXONS_PLEDGE):
        g.s["momentum"]["kennedy"] += 1
        g.note("{card}: {seat} takes a momentum marker.", card=NIXONS_PLEDGE, seat="kennedy")


def cp_value(g, seat: str, cid, mode: str) -> int:
    """Return the Campaign Points a card is worth when ``seat`` plays it for ``mode``.

    The candidate card counts as a printed 5. The changes in force are added together, then the
    total is kept between 1 and 5 ("never above 5 CP", "never below 1 CP").
    """
    printed = 5 if cid == "candidate" else CARDS[cid]["cp"]
    changes = [n for card, who, modes, n in CP_CHANGES
               if who == seat and mode in modes and active(g, card)]
    if not changes:
        return printed
    return max(1, min(5, printed + sum(changes)))


def free_travel(g, seat: str) -> bool:
    """Whether ``seat`` pays no travel costs this turn (Ken-Air for Kennedy; Advance Men for the
    player who resolved it)."""
    return (seat == "kennedy" and active(g, KEN_AIR)) or effect_seat(g, ADVANCE_MEN) == seat


def campaign_bar(g, seat: str, state: str):
    """The card barring ``seat`` from spending CP to Campaign in ``state`` this turn, or None."""
    region = STATES[state]["region"]
    for card, who, regions in REGION_BARS:
        if active(g, card) and region in regions and (who or effect_seat(g, card)) == seat:
            return card
    if seat == "nixon" and active(g, EISENHOWERS_SILENCE):
        if leads(g.s, "kennedy", state):        # judged at the moment of each campaign action
            return EISENHOWERS_SILENCE
    return None


def campaign_barred(g, seat: str, state: str) -> bool:
    """Whether an effect bars ``seat`` from spending CP to Campaign in ``state`` this turn."""
    return campaign_bar(g, seat, state) is not None


def campaign_bar_reason(g, seat: str, state: str) -> str | None:
    """Why ``seat`` may not campaign in ``state`` this turn, in the game's words (or None)."""
    card = campaign_bar(g, seat, state)
    if card is None:
        return None
    if card == EISENHOWERS_SILENCE:
        return msg("{card}: {seat} may not spend CP to Campaign in {state}, where {seat_leader} "
                   "leads.", card=card, seat="nixon", state=state, seat_leader="kennedy")
    return msg("{card}: you are barred from Campaigning in {state} this turn.",
               card=card, state=state)


def support_check_needed(g, seat: str, state: str) -> bool:
    """Whether adding state support in ``state`` by Campaigning needs a support check, effects
    included: Advance Men waives the checks for the player who resolved it; Hostile Press Corps
    makes Nixon check everywhere as if Kennedy carried the state (media in the region still
    exempts, as it would in a state Kennedy carries)."""
    if effect_seat(g, ADVANCE_MEN) == seat:
        return False
    if seat == "nixon" and active(g, HOSTILE_PRESS_CORPS):
        return own(g.s["media"][STATES[state]["region"]], seat) == 0
    return needs_support_check(g.s, seat, state)


def may_redraw(g, seat: str) -> bool:
    """Profiles in Courage: Kennedy may draw again for a failed support check."""
    return seat == "kennedy" and active(g, PROFILES_IN_COURAGE)


def end_of_turn(g) -> None:
    """Turn-long effects end: their cards leave play."""
    g.s["effects"] = []
    g.s["effect_seats"] = {}

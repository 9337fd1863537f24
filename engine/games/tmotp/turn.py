"""The normal sequence of play: Initiative Phase, five Activity Phases, and the end of a turn.

A turn's remaining stages are a queue in the state (``s["queue"]``); each stage either finishes at
once or pushes decision frames whose continuation is ``run_queue``.
"""
from .bag import deal, initiative_check
from .data import CARDS, SEATS, VP_CARDS, other
from .flow import Step, step, then
from .messages import msg

MODES = ("campaign", "advertise", "position")


def run_queue(g, frame=None) -> None:
    """Run the turn's stages in order until one waits for a decision."""
    from .stages import STAGES
    while g.s["queue"]:
        before = len(g.s["stack"])
        name = g.s["queue"].pop(0)
        STAGES[name](g)
        if len(g.s["stack"]) > before or not g.s["stack"] and g.s["result"]:
            return


then(run_queue)


def start_turn(g) -> None:
    """Advance the turn marker and queue the turn's sequence of play."""
    s = g.s
    s["turn"] += 1
    s["phase"] = 0
    if s["turn"] == 6:
        s["queue"] = ["debates"]
    elif s["turn"] == 9:
        s["queue"] = ["election_day"]
    else:
        s["round"] = "initiative"
        s["queue"] = ["new_cards", "initiative", "activity", "momentum_phase", "campaign_strategy",
                      "next_turn"]
    g.note("Turn {turn} begins.", turn=s["turn"])
    run_queue(g)


def new_cards(g) -> None:
    """Deal 6 cards each on turns 1-5 and 7 on turns 7-8 (Initiative Phase, New Cards)."""
    n = 6 if g.s["turn"] <= 5 else 7
    seats = [x for x in SEATS for _ in range(max(0, n - len(g.s["hands"][x])))]
    deal(g, seats, then="run_queue")


def initiative(g) -> None:
    initiative_check(g, then="choose_start")


@then
def choose_start(g, frame) -> None:
    g.call("choose_start_player", then="run_queue", seat=g.s["initiative"])


@step
class ChooseStartPlayer(Step):
    name = "choose_start_player"

    def actions(self, g, f, seat):
        return [f"start {x}" for x in SEATS]

    def do(self, g, f, seat, action):
        g.s["start_player"] = action.split()[1]
        g.note("{seat} chooses {seat_start} to play first this turn.", seat=seat,
               seat_start=g.s["start_player"])
        g.end()

    def prompt(self, g, f, seat):
        return msg("You have the initiative: choose who plays first in each Activity Phase this "
                   "turn.")


# --- Activity Phases -------------------------------------------------------------------------

def activity(g) -> None:
    """Five Activity Phases: each phase both play one card, the start player first."""
    g.s["round"] = "activity"
    g.s["phase"] = 1
    g.s["acting"] = 0
    g.call("activity", then="run_queue", seat=g.s["start_player"])


def next_play(g, frame=None) -> None:
    """Hand the play to the next player, or end the Activity Phases after the fifth."""
    s = g.s
    s["acting"] += 1
    if s["acting"] == 2:
        s["acting"] = 0
        s["phase"] += 1
    f = g.top
    if s["phase"] > 5:
        g.end()
        return
    f["seat"] = s["start_player"] if s["acting"] == 0 else other(s["start_player"])
    f.pop("vp_card", None)


then(next_play)


def can_spend_momentum(g, seat: str, n: int) -> bool:
    from .effects import momentum_banned
    return n <= 0 or g.s["momentum"][seat] >= n and not momentum_banned(g, seat)


def play_actions(g, seat: str, cards: list, allow_vp: bool) -> list:
    """Return the legal ways for ``seat`` to play a card now (A, B, C and the VP optional rule)."""
    from .effects import campaign_momentum_cost, event_momentum_cost
    from .events import event_playable
    out = []
    camp_cost = campaign_momentum_cost(g, seat)
    ev_cost = event_momentum_cost(g, seat)
    for c in cards:
        if event_playable(g, c) and (ev_cost == 0 or can_spend_momentum(g, seat, ev_cost)):
            out.append(f"play {c} event")
        preempt_cost = preempt_price(g, seat)
        triggerable = event_playable(g, c)
        for mode in MODES:
            cost = camp_cost if mode == "campaign" else 0
            if cost == 0 or can_spend_momentum(g, seat, cost):
                out.append(f"play {c} {mode}")
                if triggerable and can_spend_momentum(g, seat, cost + preempt_cost):
                    out.append(f"play {c} {mode} preempt")
    if not g.s["exhausted"][seat] and allow_vp:
        for mode in MODES:
            cost = camp_cost if mode == "campaign" else 0
            if cost == 0 or can_spend_momentum(g, seat, cost):
                out.append(f"play candidate {mode}")
    if allow_vp and g.s["vp_available"][seat]:
        out += [f"vp {c}" for c in cards if CARDS[c]["icon"] == seat]
    return out or ["pass"]


def keeping_strategy_cards(g, seat: str, plays: list) -> list:
    """The ``plays`` that keep as many allowed Campaign Strategy cards for the end of the turn as
    the best of them (``strategy.strategy_cards_kept``): a play, or the Vice President card
    option's discard, may not throw away a card the player needs and could have kept."""
    from .strategy import strategy_cards_kept
    hand, ready = g.s["hands"][seat], not g.s["exhausted"][seat]
    kept = {}
    for play in plays:
        words = play.split()
        which = words[1] if len(words) > 1 else None
        if which not in kept:
            if which is None:                   # pass: nothing leaves the hand
                kept[which] = strategy_cards_kept(g, seat, hand, ready)
            elif which == "candidate":
                kept[which] = strategy_cards_kept(g, seat, hand, False)
            else:
                rest = list(hand)
                rest.remove(int(which))
                kept[which] = strategy_cards_kept(g, seat, rest, ready)
    best = max(kept.values())
    return [play for play in plays if kept[play.split()[1] if " " in play else None] == best]


def preempt_price(g, seat: str) -> int:
    from .effects import preempt_cost
    return preempt_cost(g, seat)


@step
class Activity(Step):
    name = "activity"

    def actions(self, g, f, seat):
        if "vp_card" in f:
            return play_actions(g, seat, [f["vp_card"]], allow_vp=False)
        return keeping_strategy_cards(g, seat, play_actions(g, seat, g.s["hands"][seat],
                                                             allow_vp=True))

    def do(self, g, f, seat, action):
        words = action.split()
        if words[0] == "pass":
            g.note("{seat} has no card to play and passes.", seat=seat)
            next_play(g)
            return
        if words[0] == "vp":
            discard = int(words[1])
            g.s["hands"][seat].remove(discard)
            g.s["discard"].append(discard)
            g.s["vp_available"][seat] = False
            f["vp_card"] = VP_CARDS[seat]
            g.note("{seat} discards {card} to play his Vice President card, {card_vp}.",
                   seat=seat, card=discard, card_vp=VP_CARDS[seat])
            return
        play_card(g, seat, words[1], words[2], len(words) == 4)

    def prompt(self, g, f, seat):
        return msg("Turn {turn}, Activity Phase {phase}: play a card as an event, for campaign "
                   "points, or your candidate card.", turn=g.s["turn"], phase=g.s["phase"])


def play_card(g, seat: str, which: str, mode: str, preempt: bool) -> None:
    """Play a card (A: as an event, B: for CP, C: the candidate card); rest cubes always go to
    the player who played it."""
    from .campaign_points import start_cp_action
    from .effects import campaign_momentum_cost, event_momentum_cost, on_card_played
    from .events import run_event
    s = g.s
    f = g.top
    if which == "candidate":
        cid, rest = "candidate", 0
    else:
        cid = int(which)
        if f.get("vp_card") == cid:
            f.pop("vp_card")
        else:
            s["hands"][seat].remove(cid)
        rest = CARDS[cid]["rest"]
    s["rest"][seat] += rest
    on_card_played(g, seat, mode)
    if mode == "event":
        s["momentum"][seat] -= event_momentum_cost(g, seat)
        g.note("{seat} plays {card} as an event.", seat=seat, card=cid)
        run_event(g, cid, by=seat, then="next_play")
        return
    cost = campaign_momentum_cost(g, seat) if mode == "campaign" else 0
    if preempt:
        cost += preempt_price(g, seat)
    s["momentum"][seat] -= cost
    _note_cp_play(g, seat, cid, mode, preempt)
    start_cp_action(g, seat, cid, mode, preempt)


def _note_cp_play(g, seat: str, cid, mode: str, preempt: bool) -> None:
    """The note of a card played for CP: which card (or the candidate card), the action in the
    rulebook's words (Campaigning, Advertising, Positioning: "Campaign Points (CP) Actions") and
    whether it preempts the card's event."""
    if cid == "candidate":      # the candidate card has no event to preempt
        if mode == "campaign":
            g.note("{seat} plays his candidate card for Campaigning.", seat=seat)
        elif mode == "advertise":
            g.note("{seat} plays his candidate card for Advertising.", seat=seat)
        else:
            g.note("{seat} plays his candidate card for Positioning.", seat=seat)
    elif preempt:
        if mode == "campaign":
            g.note("{seat} plays {card} for Campaigning, preempting its event.",
                   seat=seat, card=cid)
        elif mode == "advertise":
            g.note("{seat} plays {card} for Advertising, preempting its event.",
                   seat=seat, card=cid)
        else:
            g.note("{seat} plays {card} for Positioning, preempting its event.",
                   seat=seat, card=cid)
    elif mode == "campaign":
        g.note("{seat} plays {card} for Campaigning.", seat=seat, card=cid)
    elif mode == "advertise":
        g.note("{seat} plays {card} for Advertising.", seat=seat, card=cid)
    else:
        g.note("{seat} plays {card} for Positioning.", seat=seat, card=cid)


@then
def after_cp_play(g, frame) -> None:
    """After a card played for CP resolves, the opponent may trigger its event (Triggering Events)."""
    from .events import event_playable
    cid, seat = frame["card"], frame["seat"]
    if cid == "candidate":
        g.s["exhausted"][seat] = True
        next_play(g)
        return
    opp = other(seat)
    if not frame["preempt"] and event_playable(g, cid) and can_spend_momentum(g, opp, 1):
        g.call("trigger", then="next_play", seat=opp, card=cid)
        return
    g.s["discard"].append(cid)
    next_play(g)


@step
class Trigger(Step):
    name = "trigger"

    def actions(self, g, f, seat):
        return ["trigger", "pass"]

    def do(self, g, f, seat, action):
        from .events import run_event
        cid = f["card"]
        if action == "pass":
            g.s["discard"].append(cid)
            g.end()
            return
        g.s["momentum"][seat] -= 1
        g.note("{seat} spends a momentum marker to trigger {card}.", seat=seat, card=cid)
        g.s["stack"].pop()                       # the trigger frame; resume at the play's end
        run_event(g, cid, by=seat, then=f.get("then"))

    def prompt(self, g, f, seat):
        return msg("Your opponent played {card} for campaign points: spend a momentum marker to "
                   "trigger its event, or pass.", card=f["card"])

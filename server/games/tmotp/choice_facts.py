"""What a 1960 decision is weighed by, in the reader's words (issue 47, item 6): beside every
state a choice offers, its electoral votes and who leads it with how many support cubes; beside
every issue a choice offers (but Positioning's planner), its leader and cubes; and above the
decision the facts the rulebook names for it: the issue the second-place award is for
(GMT 2nd ed., Momentum Phase, step 3), the Issues Track with each issue's leader at the Issue
Shift (step 2), the issue a Debate award is for, and the Debate cards each side has left
(The Debates: the reader's own by name, the opponent's only as a count, as the rules let a
player know them). Read from the seat's view only: nothing a seat may not see. The decision
forms (forms.py) and the decision mails (mail_choices.py) both show them."""

from __future__ import annotations

from engine.games.tmotp.data import CARDS, STATES
from server.games.tmotp.page_words import Words

# Verbs whose words name the states or issues a choice is about (the rest keep their labels).
ABOUT_PLACES = ("choose", "remove", "recount", "travel", "position")
DEBATES = ("debate_round", "debate_side", "debate_first")


def state_support(st: str, view: dict, words: Words) -> str:
    """Who leads ``st`` and with how many support cubes: "Nixon leads with 2 support cubes"."""
    now = (view.get("states") or {}).get(st) or {}
    leader, n = now.get("leader"), now.get("support") or 0
    if not leader or not n:
        return words._("no support cubes")
    seat = words.t["seats"].get(leader, leader)
    if n == 1:
        return words._("%(seat)s leads with 1 support cube", seat=seat)
    return words._("%(seat)s leads with %(n)s support cubes", seat=seat, n=n)


def state(st: str, view: dict, words: Words) -> str:
    """A state with its facts: "Ohio (OH) · 25 electoral votes · Nixon leads with 2 support
    cubes"."""
    return words._("%(state)s · %(ev)s electoral votes · %(support)s",
                   state=f"{words.state_name(st)} ({st})", ev=STATES[st]["ev"],
                   support=state_support(st, view, words))


def issue_support(issue: str, view: dict, words: Words) -> str:
    """Who leads ``issue`` and with how many issue support cubes: "Kennedy leads, 2 cubes"."""
    now = (view.get("issues") or {}).get(issue) or {}
    leader, n = now.get("leader"), now.get("cubes") or 0
    if not leader or not n:
        return words._("no cubes")
    seat = words.t["seats"].get(leader, leader)
    if n == 1:
        return words._("%(seat)s leads, 1 cube", seat=seat)
    return words._("%(seat)s leads, %(n)s cubes", seat=seat, n=n)


def issue(code: str, view: dict, words: Words) -> str:
    """An issue with its leader and cubes: "Economy (Kennedy leads, 2 cubes)"."""
    return words._("%(name)s (%(support)s)", name=words.t["issues"].get(code, code),
                   support=issue_support(code, view, words))


def label(action: str, asks: dict, view: dict | None, words: Words) -> str:
    """``action`` in words (Words.action), every state or issue it names shown with its facts;
    Positioning's own cubes are the planner's (forms.py), not this."""
    w = action.split()
    step = (asks or {}).get("step", "")
    if view is None or step == "positioning":
        return words.action(action, asks)
    if w[0] == "swap" and len(w) == 3:
        return words._("Swap %(a)s and %(b)s", a=issue(w[1], view, words),
                       b=issue(w[2], view, words))
    if w[0] in ABOUT_PLACES and len(w) == 2 and (w[1] in STATES or w[1] in words.t["issues"]):
        shown = state(w[1], view, words) if w[1] in STATES else issue(w[1], view, words)
        if w[0] == "travel":
            return words._("Travel to %(state)s", state=shown)
        return shown
    return words.action(action, asks)


def decision(view: dict, words: Words) -> list[str]:
    """The facts the rulebook names for the decision asked, each a line (none for most)."""
    step = (view.get("asks") or {}).get("step", "")
    track = view.get("issue_track") or []
    if step == "award_choice" and len(track) > 1 and track[1]:
        return [words._("The second-place issue on the Issues Track: %(issue)s.",
                        issue=issue(track[1], view, words))]
    if step == "issue_shift" and all(track):
        return [words._("The Issues Track now: %(issues)s.", issues=" · ".join(
            f"{i + 1}. {issue(code, view, words)}" for i, code in enumerate(track)))]
    debate = view.get("debate") or {}
    if step == "debate_award":
        won = (view.get("decision") or {}).get("issue")
        totals = (debate.get("totals") or {}).get(won) or {}
        if won and totals:
            seat = view["seat"]
            other = next(x for x in totals if x != seat)
            return [words._("The award is for %(name)s, won %(k)s CP to %(n)s.",
                            name=words.t["issues"].get(won, won), k=totals.get(seat, 0),
                            n=totals.get(other, 0))]
    if step in DEBATES and debate:
        return debate_cards(view, words, named=step != "debate_round")
    return []


def debate_cards(view: dict, words: Words, named: bool = True) -> list[str]:
    """The Debate cards each side has left: the reader's by name, issue and CP (``named``;
    else, when they are the decision's own choices, how many: each card is shown once); the
    opponent's as a count (face down: nobody else sees them)."""
    debate, seat = view["debate"], view["seat"]
    mine = [f"{words.card(c)['name']} ({words.card(c)['issue'] or '–'}, {CARDS[c]['cp']} CP)"
            for c in debate.get("my_cards") or []]
    if mine and not named:
        lines = [words._("You have 1 Debate card left: the choice below.") if len(mine) == 1
                 else words._("You have %(n)s Debate cards left: the choices below.",
                              n=len(mine))]
    else:
        lines = [words._("Your Debate cards left: %(cards)s.", cards="; ".join(mine))
                 if mine else words._("You have no Debate cards left.")]
    for other, n in (debate.get("cards_left") or {}).items():
        if other == seat:
            continue
        name = words.t["seats"].get(other, other)
        lines.append(words._("%(seat)s has 1 Debate card left, face down.", seat=name)
                     if n == 1 else
                     words._("%(seat)s has %(n)s Debate cards left, face down.", seat=name, n=n))
    return lines

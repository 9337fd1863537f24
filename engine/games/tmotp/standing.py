"""1960's standing orders: the four decisions a seat may answer in advance, and how each policy
answers them. The server stores a seat's policies and applies the answer given here
(server/services/standing.py); it knows none of these rules.

- ``trigger``: the opponent played a card for campaign points and the seat may spend a
  momentum marker to trigger its event (GMT 2nd ed. p. 7, "Triggering Events"; Z-Man the same):
  ``never`` (pass), ``always`` (trigger) or ``helps_me``: trigger only a card bearing the seat's
  own candidate icon, alone or beside the opponent's. That is the rulebook's own tip (p. 7):
  "Wait for when your opponent plays a card with your candidate icon on it — the event on that
  card benefits you"; a card with both icons bears the seat's icon too (RULINGS.md, "Server
  rulings"). Players read these in NOTATION.md, "Standing orders".
- ``second_place``: the leader of the second-place issue takes one momentum marker or one
  Endorsement Card (GMT 2nd ed. p. 11, "Step 3 – Momentum Awards & Endorsements"):
  ``momentum`` or ``endorsement``.
- ``debate_side`` (the candidate-icon policy): in the Debates a revealed card showing *both*
  candidate icons may be placed on either side of its issue (GMT 2nd ed. p. 12, "4. Debate!"):
  ``mine`` places it on the seat's own side. It is asked between two simultaneous reveals, so
  each one asked costs a mail to that player and another to both for the next round. No
  ``theirs``: placing such a card on the opponent's side is a deliberate sacrifice (in the
  rulebook's "A Sample Turn", Debates Round 2, Nixon closes an issue early that way), a
  decision of the moment, which ``ask`` leaves to the seat.
- ``strategy_order`` (Z-Man 1st ed. only): on Election Day "Each player may resolve their
  cards in any order desired" (3. Campaign Strategy); the seat is asked which Campaign Strategy
  card to resolve next (election_day.py). ``given`` resolves them in the order they were placed
  (as GMT does); ``when_short`` too while the bag holds a cube for each check the seat's cards
  left stand for, so that all of them are drawn whatever the order (the bag only empties: a
  drawn cube never goes back, and nothing on Election Day adds a draw), and asks the seat once
  the bag may run out during them, when the order decides which states get their checks.

``ask`` (for any) files nothing: the seat is asked. The rule ids (``trigger:never``, ...)
are what the seat's next mail reports the order by; they stay as they are.
"""
from __future__ import annotations

POLICIES = {"trigger": ("never", "always", "helps_me", "ask"),
            "second_place": ("momentum", "endorsement", "ask"),
            "debate_side": ("mine", "ask"),
            "strategy_order": ("when_short", "given", "ask")}

SUGGESTED = {"trigger": "helps_me", "second_place": "ask", "debate_side": "mine",
             "strategy_order": "when_short"}
"""The values offered first when a game is created or joined (a player may change them there
and on the game page):
- ``trigger: helps_me``: the rulebook's own tip (p. 7, see above); ``never`` would waste the
  momentum spent on nothing else the opponent's plays offer, ``always`` would spend it on events
  that help the opponent.
- ``second_place: ask``: a momentum marker (halved at each Momentum Phase, spent on triggers
  and preempts) against an Endorsement Card (kept for Election Day) depends on the turn and the
  board; it comes at most once a turn, so it is worth one question.
- ``debate_side: mine``: a card placed on the seat's own side counts for the seat; the other
  side is the rare sacrifice above.
- ``strategy_order: when_short``: while every check will be drawn the order changes nothing,
  and a question each card would cost up to three mails a player on Election Day; the seat is
  asked when the order matters."""

ASKED = {"trigger": "trigger", "award_choice": "second_place", "debate_side": "debate_side",
         "election_day_strategy_order": "strategy_order"}
"""The rulebook step a seat is asked at -> the kind of standing order that answers it."""


def policy(g, seat) -> str | None:
    """The kind of standing order that answers ``seat``'s decision now, or None. (From the step
    alone: ``g.asks`` would also plan a Campaigning decision, and this is asked at every one.)"""
    if not g.s["stack"] or seat not in g.active():
        return None
    return ASKED.get(g.top["step"])


def answer(asks: dict | None, seat: str, value: str) -> tuple[str, str] | None:
    """The (action, rule id) the policy ``value`` gives for the decision ``asks`` of ``seat``, or
    None (ask the seat)."""
    kind = ASKED.get(asks["step"]) if asks else None
    if kind == "trigger":
        if value == "never":
            return "pass", "trigger:never"
        if value == "always":
            return "trigger", "trigger:always"
        if value == "helps_me":
            helps = asks["icon"] in (seat, "both")
            return ("trigger" if helps else "pass"), "trigger:helps_me"
    if kind == "second_place" and value in ("momentum", "endorsement"):
        return value, f"second_place:{value}"
    if kind == "debate_side" and value == "mine":
        return f"side {seat}", "debate_side:mine"
    if kind == "strategy_order" and asks.get("cards"):
        given = f"resolve {asks['cards'][0]}", f"strategy_order:{value}"
        if value == "given" or (value == "when_short" and asks["bag"] >= asks["checks"]):
            return given
    return None

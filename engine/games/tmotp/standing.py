"""1960's standing orders: the two decisions a seat may answer in advance, and how each policy
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

``ask`` (for either) files nothing: the seat is asked. The rule ids (``trigger:never``, ...)
are what the seat's next mail reports the order by; they stay as they are.
"""
from __future__ import annotations

POLICIES = {"trigger": ("never", "always", "helps_me", "ask"),
            "second_place": ("momentum", "endorsement", "ask")}

ASKED = {"trigger": "trigger", "award_choice": "second_place"}
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
    return None

"""1960's standing orders in the reader's words (the presenter's ``standing_orders``): the
decision each policy answers, each value and what it does, and the value a new game offers first
(engine/games/tmotp/standing.py: POLICIES, and SUGGESTED with the reasons). The game page's
section and the lobby's forms lay them out (templates/web/_standing_choices.html)."""

from __future__ import annotations

from engine.games.tmotp.standing import POLICIES, SUGGESTED
from server.catalogue import N_
from server.i18n import gettext

# kind -> (the decision, a line on when it is asked, {value: (label, what it does)}), the
# values in the order a reader weighs them (the suggested first, "ask" last).
WORDS = {
    "trigger": (
        N_("Your opponent's events"),
        N_("Your opponent plays a card for campaign points and you have a momentum marker to "
           "spend on triggering its event."),
        {"helps_me": (N_("Only the events that help me"),
                      N_("Trigger a card showing your candidate (or both candidates); pass on "
                         "the others.")),
         "always": (N_("Always"), N_("Spend a momentum marker on every event you can "
                                     "trigger.")),
         "never": (N_("Never"), N_("Keep your momentum markers.")),
         "ask": (N_("Ask me each time"), None)}),
    "second_place": (
        N_("The second-place issue's award"),
        N_("You lead the second-place issue in the Momentum Phase: take a momentum marker or "
           "an endorsement card."),
        {"momentum": (N_("A momentum marker"), None),
         "endorsement": (N_("An endorsement card"), None),
         "ask": (N_("Ask me each time"), N_("Momentum or an endorsement depends on the turn "
                                            "and the board."))}),
    "debate_side": (
        N_("Debate cards showing both candidates"),
        N_("In the Debates, a card you reveal that shows both candidates may go to either side "
           "of its issue."),
        {"mine": (N_("On my side"), N_("The card counts for you.")),
         "ask": (N_("Ask me each time"), N_("To place it on your opponent's side now and "
                                            "then, closing an issue early."))}),
    "strategy_order": (
        N_("The order of your Campaign Strategy cards on Election Day (Z-Man edition)"),
        N_("On Election Day you resolve your Campaign Strategy cards one at a time, three "
           "support checks in each card's state, and the bag is not refilled."),
        {"when_short": (N_("In the order I placed them, unless the bag may run out"),
                        N_("While the bag holds a cube for every check your cards left need, "
                           "the order changes nothing; when it may run out, you are asked.")),
         "given": (N_("Always in the order I placed them"), None),
         "ask": (N_("Ask me each time"), None)}),
}


def standing_orders(loc: str) -> list[dict]:
    """The presenter's ``standing_orders``: each declared policy in ``loc``'s words."""
    def say(text: str | None) -> str | None:
        return gettext(text, loc) if text else None

    out = []
    for kind, declared in POLICIES.items():
        label, line, values = WORDS.get(kind, (kind, None, {}))
        ordered = [v for v in values if v in declared] + [v for v in declared if v not in values]
        out.append({"kind": kind, "label": say(label), "help": say(line),
                    "suggested": SUGGESTED.get(kind, "ask"),
                    "options": [{"value": v, "label": say(values[v][0]) if v in values else v,
                                "help": say(values[v][1]) if v in values else None}
                               for v in ordered]})
    return out

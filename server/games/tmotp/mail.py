"""What 1960's mails show beyond the shared templates (the Mail section of
server/games/presenter.py): the summary (summary.py; templates/games/tmotp/email/summary.*), the
choices of a decision (mail_choices.py), the rules of its standing orders in words, and the
standing orders a reply may write. Its sentences in the shared mails are
templates/games/tmotp/email/texts.*."""

from __future__ import annotations

from server.catalogue import N_
from server.games.tmotp import summary
from server.games.tmotp.mail_choices import card_facts, mail_choices
from server.games.tmotp.page_words import Words

# The rule a standing order followed when it answered for the seat (AutoOrder.rule), in words.
RULE_TEXTS = {
    "trigger:never":
        N_("your standing order: never trigger the event of a card your opponent plays"),
    "trigger:always": N_("your standing order: always trigger the event when you can"),
    "trigger:helps_me": N_("your standing order: trigger only events that help you"),
    "second_place:momentum":
        N_("your standing order: take a Momentum marker for the second-place Issue"),
    "second_place:endorsement":
        N_("your standing order: take an Endorsement card for the second-place Issue"),
    "debate_side:mine":
        N_("your standing order: place a Debate card showing both candidates on your side"),
    "strategy_order:given":
        N_("your standing order: resolve your Campaign Strategy cards on Election Day in the "
           "order you placed them"),
    "strategy_order:when_short":
        N_("your standing order: resolve your Campaign Strategy cards on Election Day in the "
           "order you placed them while the bag holds a cube for every check"),
}

# What a reply's refused standing order is shown instead: the event trigger, the second-place
# Issue's reward, a deadline default.
STANDING_EXAMPLES = ["standing trigger helps_me", "standing second_place momentum",
                     "standing default play 12 campaign", "standing trigger ask"]


class Mail:
    def summary(self, view: dict, seat: str | None, notes_seen: int, loc: str) -> dict:
        return summary.summary(view, seat, notes_seen, loc)

    def mail_choices(self, view: dict, loc: str) -> dict:
        return mail_choices(view, loc)

    def order_words(self, action: str, loc: str) -> str:
        return Words(loc).order(action)

    def hand_names(self, view: dict, loc: str) -> list[str]:
        words = Words(loc)
        return [f"{card['name']} · {card_facts(card, words)}" for card in
                (words.card(c) for c in (view.get("hands") or {}).get(view.get("seat"), []))]

    def rule_texts(self) -> dict[str, str]:
        return RULE_TEXTS

    def standing_examples(self) -> list[str]:
        return list(STANDING_EXAMPLES)

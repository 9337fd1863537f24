"""What Mr. President's mails show beyond the shared templates (the Mail section of
server/games/presenter.py): the summary (summary.py; templates/games/mrpresident/email/
summary.*), the variant, the choices a decision mail lists, and the standing orders a reply may
write. Its sentences in the shared mails are templates/games/mrpresident/email/texts.*.

The choices: every order but the two-card plays (the one-card plays, and the answers
``second``, ``upset``, ``stop`` with their ``none``), in the cards' order: at most 14, each with
its signed link. The two-card plays (up to 156 in the dial edition, where the order of the two
cards matters) are one line of notation with an example from the seat's own hand (the texts'
``pairs``): a list that long is unreadable on a phone, and the reply writes the two numbers
anyway.
"""

from __future__ import annotations

from engine.games.mrpresident.state import check_options
from server.games.mrpresident import summary

# What a reply's refused standing order is shown instead: Mr. President asks nothing that a
# trigger or second-place standing order answers, only deadline defaults.
STANDING_EXAMPLES = ["standing default play 1", "standing default second none",
                     "standing default ask"]


class Mail:
    def summary(self, view: dict, seat: str | None, notes_seen: int, loc: str) -> dict:
        return summary.summary(view, seat, notes_seen, loc)

    def variant(self, options: dict | None, loc: str) -> str | None:
        return summary.variant(check_options(dict(options or {})), loc)

    def choices(self, legal: list[str]) -> dict:
        pairs = [a for a in legal if a.startswith("play ") and len(a.split()) == 3]
        others = sorted((a for a in legal if a not in pairs), key=_card_order)
        return {"listed": others, "more": 0, "pairs": _pairs(pairs)}

    def standing_examples(self) -> list[str]:
        return list(STANDING_EXAMPLES)


def _card_order(action: str) -> tuple:
    """"play 2" before "play 10"; "second none" before "second 1"."""
    verb, *args = action.split()
    return (verb, len(args), [-1 if a == "none" else int(a) if a.isdigit() else 0 for a in args])


def _pairs(pairs: list[str]) -> dict | None:
    """{"example": a two-card play from the hand (lowest and highest card, if legal), "ordered":
    whether the order of the two cards matters}, or None when there are none."""
    if not pairs:
        return None
    found = set(pairs)
    cards = sorted({int(c) for a in pairs for c in a.split()[1:]})
    example = f"play {cards[0]} {cards[-1]}"
    ordered = any(f"play {b} {a}" in found for a, b in (p.split()[1:] for p in pairs))
    return {"example": example if example in found else pairs[0], "ordered": ordered}

"""Which of a decision's legal orders a mail lists, by game; the rest are on the game page, or
explained by their notation.

- 1960: the first ``MAX_LISTED`` (a Campaigning allocation can have hundreds).
- Mr. President: every order but the two-card plays (the one-card plays, and the answers
  ``second``, ``upset``, ``stop`` with their ``none``), in the cards' order: at most 14, each with
  its signed link. The two-card plays (up to 156 in the dial edition, where the order of the two
  cards matters) are one line of notation with an example from the seat's own hand: a list that
  long is unreadable on a phone, and the reply writes the two numbers anyway.
"""

from __future__ import annotations

MAX_LISTED = 20


def _card_order(action: str) -> tuple:
    """"play 2" before "play 10"; "second none" before "second 1"."""
    verb, *args = action.split()
    return (verb, len(args), [-1 if a == "none" else int(a) if a.isdigit() else 0 for a in args])


def listed(legal: list[str], game: str) -> dict:
    """{"listed": the orders a mail lists, "more": how many others are on the game page,
    "pairs": None or {"example": a two-card play, "ordered": whether the order of the two
    cards matters}}."""
    legal = list(legal)
    if game != "mrpresident":
        return {"listed": legal[:MAX_LISTED], "more": max(0, len(legal) - MAX_LISTED),
                "pairs": None}
    pairs = [a for a in legal if a.startswith("play ") and len(a.split()) == 3]
    others = sorted((a for a in legal if a not in pairs), key=_card_order)
    return {"listed": others, "more": 0, "pairs": _pairs(pairs)}


def _pairs(pairs: list[str]) -> dict | None:
    if not pairs:
        return None
    found = set(pairs)
    cards = sorted({int(c) for a in pairs for c in a.split()[1:]})
    example = f"play {cards[0]} {cards[-1]}"
    ordered = any(f"play {b} {a}" in found for a, b in (p.split()[1:] for p in pairs))
    return {"example": example if example in found else pairs[0], "ordered": ordered}

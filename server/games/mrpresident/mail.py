"""What Mr. President's mails show beyond the shared templates (the Mail section of
server/games/presenter.py): the summary (summary.py; templates/games/mrpresident/email/
summary.*), the variant, the choices a decision mail lists, and the standing orders a reply may
write. Its sentences in the shared mails are templates/games/mrpresident/email/texts.*.

The choices: every order but the two-card plays (the one-card plays, and the answers
``second``, ``upset``, ``stop`` with their ``none``), in the cards' order, each named by its
card's name and points (at most 14, each with its signed link). The two-card plays (up to 156 in
the dial edition, where the order of the two cards matters) are one line of notation with an
example from the seat's own hand (the texts' ``pairs``) under the cards they may be made of: a
list that long is unreadable on a phone, and the reply writes the two numbers anyway.
"""

from __future__ import annotations

from engine.games.mrpresident.data import CARD_VALUES
from engine.games.mrpresident.state import check_options
from server.catalogue import N_
from server.games.mrpresident import summary
from server.i18n import gettext

# What a reply's refused standing order is shown instead: Mr. President asks nothing that a
# trigger or second-place standing order answers, only deadline defaults.
STANDING_EXAMPLES = ["standing default play 1", "standing default second none",
                     "standing default ask"]


class Mail:
    def summary(self, view: dict, seat: str | None, notes_seen: int, loc: str) -> dict:
        return summary.summary(view, seat, notes_seen, loc)

    def variant(self, options: dict | None, loc: str) -> str | None:
        return summary.variant(check_options(dict(options or {})), loc)

    def mail_choices(self, view: dict, loc: str) -> dict:
        legal = list(view["legal_actions"])
        pairs = [a for a in legal if a.startswith("play ") and len(a.split()) == 3]
        others = sorted((a for a in legal if a not in pairs), key=_card_order)
        laid = ((view.get("plays") or {}).get(view.get("seat")) or {}).get("cards", [])
        groups: dict[str, dict] = {}
        for action in others:
            verb = action.split()[0]
            group = groups.setdefault(verb, {
                "heading": gettext(HEADINGS[verb], loc) if verb in HEADINGS else None,
                "facts": None, "note": None, "options": [], "ranges": [], "pick": None,
                "text": None})
            group["options"].append({"action": action, "label": _label(action, laid, loc)})
        found = _pairs(pairs)
        if found:
            found["cards"] = [_card(int(c), loc) for c in
                              sorted({int(c) for a in pairs for c in a.split()[1:]})]
        return {"groups": list(groups.values()), "suffixes": [], "pairs": found}

    def order_words(self, action: str, loc: str) -> str:
        return order_words(action, loc)

    def hand_names(self, view: dict, loc: str) -> list[str]:
        return [_card(c, loc) for c in sorted((view.get("hands") or {}).get(view.get("seat"), []))]

    def standing_examples(self) -> list[str]:
        return list(STANDING_EXAMPLES)


# The heading of a kind of order (the decision form's legends).
HEADINGS = {"play": N_("Lay a card"), "second": N_("A second card, in answer to a two-card play"),
            "upset": N_("An upset attempt: one more card"),
            "stop": N_("Stop the upset: one more card")}
NONE = {"second": N_("No second card"), "upset": N_("No upset attempt"),
        "stop": N_("Let the upset attempt stand")}


def _card(card_id: int, loc: str) -> str:
    """A campaign card by its name, number and points: "Train Tours (7) · 4 points"."""
    return gettext("%(name)s · %(points)s points", loc) % {
        "name": summary.campaign_name(card_id, loc), "points": CARD_VALUES[card_id]}


def _label(action: str, laid: list[int], loc: str) -> str:
    verb, word = action.split()[0], action.split()[1]
    if word == "none":
        return gettext(NONE.get(verb, N_("None")), loc)
    if verb == "play":
        return _card(int(word), loc)
    return gettext("%(card)s: your cards would total %(n)s points", loc) % {
        "card": _card(int(word), loc),
        "n": sum(CARD_VALUES[int(c)] for c in [*laid, int(word)])}


def order_words(action: str, loc: str) -> str:
    """An order in words, as the choice a mail lists names it ("Billboards (2) · 20 points",
    "No second card"); a two-card play names both, first the one turned up."""
    verb, *rest = action.split() or [""]
    if not rest or any(not (w.isdigit() and int(w) in CARD_VALUES) and w != "none"
                       for w in rest):
        return action
    if verb == "play" and len(rest) == 2:
        return gettext("%(first)s, then %(second)s face down", loc) % {
            "first": _card(int(rest[0]), loc), "second": _card(int(rest[1]), loc)}
    if verb in ("play", *NONE) and len(rest) == 1:
        return _label(action, [], loc) if verb == "play" or rest == ["none"] \
            else _card(int(rest[0]), loc)
    return action


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

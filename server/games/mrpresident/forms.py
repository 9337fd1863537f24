"""Mr. President's decision form (kind ``campaign``; the presenter's ``form`` and ``compose``,
laid out by templates/games/mrpresident/web/form.html inside the shared
templates/web/_decision_form.html): the seat's legal actions (the engine's, the only validator)
as campaign cards to pick, and the order line a submitted form stands for.

- laying cards (steps ``lead`` and ``play``): one card of the hand (radio ``action``, "play N")
  and, where the engine allows two, an optional second card (radio ``second_card``). The dial
  edition turns the first card up first and keeps the second face down; the chalkboard edition
  allows two cards once a game (once again in the Nominee version's national election);
- the dial edition's answers (``answer``, ``upset``, ``stop``): one more card or none (radio
  ``action``: "second 9", "upset none", ...).
The notation field of every form stays for anything typed by hand.
"""

from __future__ import annotations

import server.games.mrpresident.page_words as words
from server.parsing import whole
from server.web.decision_form import Order, Refused
from server.web.words import _

KIND = "campaign"
HELP_URL = "/help/mrpresident#notation"
LAYING = ("lead", "play")


def build(decision: dict, view: dict, loc: str) -> dict:
    legal = decision["legal_actions"]
    step = (view.get("asks") or {}).get("step", "")
    dial = view["options"]["edition"] == "dial"
    seat = view["seat"]
    laid = ((view.get("plays") or {}).get(seat) or {}).get("cards", [])
    form = {"kind": KIND, "step_name": step, "legal": legal, "groups": [], "first": [],
            "second": [], "ordered": dial, "notation_url": HELP_URL}
    singles = sorted(int(a.split()[1]) for a in legal
                     if a.split()[0] == "play" and len(a.split()) == 2)
    pairs = [a.split()[1:] for a in legal if a.split()[0] == "play" and len(a.split()) == 3]
    if singles or pairs:
        form["first"] = [{**words.card(c, loc), "value": f"play {c}"} for c in singles]
        form["second"] = words.cards(sorted({int(c) for pair in pairs for c in pair}), loc)
    rest = sorted((a for a in legal if a.split()[0] != "play"), key=_answer_order)
    if rest:
        form["groups"] = _groups(rest, laid, loc)
    return form


def _groups(actions: list[str], laid: list[int], loc: str) -> list[dict]:
    """One more card or none, a group per verb: the card's name, points and the total the
    seat's cards of the round would come to."""
    groups: dict[str, dict] = {}
    for a in actions:
        verb, word = a.split()[0], a.split()[1]
        group = groups.setdefault(verb, {"legend": _legend(verb), "options": []})
        if word == "none":
            label = {"second": _("No second card"), "upset": _("No upset attempt"),
                     "stop": _("Let the upset attempt stand")}.get(verb, _("None"))
        else:
            card = words.card(int(word), loc)
            label = _("%(card)s: your cards would total %(n)s points",
                      card=card["label"], n=words.points([*laid, int(word)]))
        group["options"].append({"value": a, "label": label})
    return list(groups.values())


def _legend(verb: str) -> str:
    return {"second": _("A second card, in answer to a two-card play"),
            "upset": _("An upset attempt: one more card"),
            "stop": _("Stop the upset: one more card")}.get(verb, verb)


def compose(data, form: dict) -> Order:
    """The order of a submitted form: "play N", "play N M" (the first chosen first: the dial
    edition turns it up first; the engine takes the chalkboard's two in any order), or the
    chosen answer. The engine judges the line (two cards must be two different cards, ...).
    Raises Refused saying why a form stands for no order."""
    action = (data.get("action") or "").strip()
    second = (data.get("second_card") or "").strip()
    if not action:
        if second:
            raise Refused(_("Choose your first card too: the second goes with it."),
                          field="action")
        return Order([])
    if not second or not action.startswith("play ") or len(action.split()) != 2:
        return Order([action], fields=[("action", "")])
    return Order([f"{action} {second}"], fields=[("action", "")])


def _answer_order(action: str) -> tuple:
    """None first, then the cards by number."""
    word = action.split()[1]
    return (word != "none", _number(word))


def _number(word: str) -> int:
    return whole(word, 0)

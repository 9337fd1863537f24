"""1960's actions and their objects in the reader's words, as the pages name them: the cards,
states, regions and issues of a decision form (forms.py), the game page's hand and the replay's
hands (board.py). The names are the game's own (words.py, summary.py), as the mails and the log
name them."""

from __future__ import annotations

from engine.games.tmotp.data import CARDS, STATES
import server.games.tmotp.summary as summary_tmotp
from server.parsing import digits
from server.web.words import _


class Words:
    """Actions and their objects in the reader's words."""

    def __init__(self, loc: str):
        self.loc = loc
        self.t = summary_tmotp.terms(loc)

    def card(self, cid: int) -> dict:
        card = CARDS[cid]
        return {"id": cid, "name": summary_tmotp.card_name(cid, self.loc), "cp": card["cp"],
                "icon": self.icon(card["icon"]),
                "issue": self.t["issues"].get(card.get("issue") or "", ""),
                "state": card.get("state") or "", "effect": card.get("effect") or ""}

    def icon(self, icon: str | None) -> str:
        if icon == "both":
            return _("both candidates")
        return self.t["seats"].get(icon or "", "")

    def state(self, st: str, view: dict) -> dict:
        now = (view.get("states") or {}).get(st) or {}
        leader = self.t["seats"].get(now.get("leader") or "", "")
        return {"code": st, "name": STATES[st]["name"], "ev": STATES[st]["ev"],
                "support": f"{leader} {now.get('support')}" if leader else "–"}

    def region(self, region: str) -> str:
        return self.t["regions"].get(region, region)

    def mode(self, mode: str) -> str:
        return {"event": _("Event"), "campaign": _("Campaigning"),
                "advertise": _("Advertising"), "position": _("Positioning")}[mode]

    def verb(self, verb: str) -> str:
        return {"play": _("Your candidate card"), "pass": _("Pass"), "done": _("Stop"),
                "trigger": _("Trigger"), "travel": _("Travel"), "media": _("Media support"),
                "choose": _("Choose"), "swap": _("Issue shift"), "momentum": _("Award"),
                "endorsement": _("Award"), "endorse": _("Major Endorsement"),
                "strategy": _("Campaign Strategy"), "debate": _("Debate card"),
                "side": _("Side"), "first": _("Who places first"),
                "resolve": _("Election Day event"), "recount": _("Recount"),
                "remove": _("Remove"), "take": _("Take a card"), "position": _("Issue support"),
                "order": _("Issues Track"), "start": _("Who plays first"),
                "discard": _("Discard")}.get(verb, verb)

    def thing(self, word: str) -> str:
        """A word of an action: a state, region, issue, candidate, card, or a plain word."""
        if word in STATES:
            return f"{STATES[word]['name']} ({word})"
        for kind in ("regions", "issues", "seats"):
            if word in self.t[kind]:
                return self.t[kind][word]
        if digits(word) and int(word) in CARDS:
            return summary_tmotp.card_name(int(word), self.loc)
        return {"yes": _("Yes"), "no": _("No"), "none": _("None"), "accept": _("Keep the draw"),
                "redraw": _("Draw again"), "campaign": _("Campaigning"),
                "advertise": _("Advertising"), "position": _("Positioning"),
                "candidate": _("your candidate card")}.get(word, word)

    def action(self, action: str, asks: dict) -> str:
        w = action.split()
        verb, rest = w[0], w[1:]
        if verb == "play" and rest[:1] == ["candidate"]:
            return _("Your candidate card for %(mode)s", mode=self.mode(rest[1]))
        if verb == "pass":
            return _("Pass")
        if verb == "done":
            return _("Stop here")
        if verb == "trigger":
            return _("Trigger the event: spend 1 momentum marker to resolve %(card)s as yours",
                     card=summary_tmotp.card_name(asks["card"], self.loc)) \
                if asks.get("card") else _("Trigger the event")
        if verb == "swap":
            return _("Swap %(a)s and %(b)s", a=self.thing(rest[0]), b=self.thing(rest[1]))
        if verb == "momentum":
            return _("Take a momentum marker")
        if verb == "endorsement":
            return _("Take an endorsement")
        if verb == "order":
            return " › ".join(self.thing(x) for x in rest)
        if verb == "travel":
            return _("Travel to %(state)s", state=self.thing(rest[0]))
        return " ".join(self.thing(x) for x in rest) or action

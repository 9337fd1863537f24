"""1960's actions and their objects in the reader's words: the cards, states, regions and
issues of a decision form (forms.py), the game page's hand and the replay's hands (board.py), and
the choices of a decision mail (mail_choices.py). The names are the game's own (words.py,
summary.py), as the mails and the log name them. No request is needed: the locale is given."""

from __future__ import annotations

from engine.games.tmotp.data import CARDS, STATES
import server.games.tmotp.summary as summary_tmotp
from server.games.tmotp import cards
from server.parsing import digits
from server.i18n import gettext


class Words:
    """Actions and their objects in the reader's words."""

    def __init__(self, loc: str):
        self.loc = loc
        self.t = summary_tmotp.terms(loc)

    def _(self, message: str, **args) -> str:
        """``message`` in the reader's words (the mails' and pages' catalogue), filled in."""
        text = gettext(message, self.loc)
        return text % args if args else text

    def card(self, cid: int) -> dict:
        card = CARDS[cid]
        return {"id": cid, "name": summary_tmotp.card_name(cid, self.loc), "cp": card["cp"],
                "icon": self.icon(card["icon"]),
                "issue": self.t["issues"].get(card.get("issue") or "", ""),
                "state": card.get("state") or "", "effect": cards.event(cid, self.loc)}

    def icon(self, icon: str | None) -> str:
        if icon == "both":
            return self._("both candidates")
        return self.t["seats"].get(icon or "", "")

    def state_name(self, st: str) -> str:
        """A state's name in the reader's words ("New York", "ニューヨーク州", "Nueva York")."""
        return self.t["states"].get(st, STATES[st]["name"] if st in STATES else st)

    def state(self, st: str, view: dict) -> dict:
        now = (view.get("states") or {}).get(st) or {}
        leader = self.t["seats"].get(now.get("leader") or "", "")
        return {"code": st, "name": self.state_name(st), "ev": STATES[st]["ev"],
                "support": f"{leader} {now.get('support')}" if leader else "–"}

    def region(self, region: str) -> str:
        return self.t["regions"].get(region, region)

    def mode(self, mode: str) -> str:
        return {"event": self._("Event"), "campaign": self._("Campaigning"),
                "advertise": self._("Advertising"), "position": self._("Positioning")}[mode]

    def verb(self, verb: str, step: str = "") -> str:
        """What the orders of ``verb`` do, as a heading; ``step`` tells apart a verb two steps
        share (``resolve``: the next Election Day event, or on Election Day in Z-Man the next
        Campaign Strategy card, engine/games/tmotp/election_day.py)."""
        if verb == "resolve" and step == "election_day_strategy_order":
            return self._("Campaign Strategy card to resolve next (three support checks in its "
                          "state)")
        return {"play": self._("Your candidate card"), "pass": self._("Pass"), "done": self._("Stop"),
                "trigger": self._("Trigger"), "travel": self._("Travel"), "media": self._("Media support"),
                "choose": self._("Choose"), "swap": self._("Issue shift"), "momentum": self._("Award"),
                "endorsement": self._("Award"), "endorse": self._("Major Endorsement"),
                "strategy": self._("Campaign Strategy"), "debate": self._("Debate card"),
                "side": self._("Side"), "first": self._("Who places first"),
                "resolve": self._("Election Day event"), "recount": self._("Recount"),
                "remove": self._("Remove"), "take": self._("Take a card"), "position": self._("Issue support"),
                "order": self._("Issues Track"), "start": self._("Who plays first"),
                "discard": self._("Discard")}.get(verb, verb)

    def thing(self, word: str) -> str:
        """A word of an action: a state, region, issue, candidate, card, or a plain word."""
        if word in STATES:
            return f"{self.state_name(word)} ({word})"
        for kind in ("regions", "issues", "seats"):
            if word in self.t[kind]:
                return self.t[kind][word]
        if digits(word) and int(word) in CARDS:
            return summary_tmotp.card_name(int(word), self.loc)
        return {"yes": self._("Yes"), "no": self._("No"), "none": self._("None"), "accept": self._("Keep the draw"),
                "redraw": self._("Draw again"), "campaign": self._("Campaigning"),
                "advertise": self._("Advertising"), "position": self._("Positioning"),
                "candidate": self._("your candidate card")}.get(word, word)

    def action(self, action: str, asks: dict) -> str:
        w = action.split()
        verb, rest = w[0], w[1:]
        if verb == "play" and rest[:1] == ["candidate"]:
            return self._("Your candidate card for %(mode)s", mode=self.mode(rest[1]))
        if verb == "pass":
            return self._("Pass")
        if verb == "done":
            return self._("Stop here")
        if verb == "trigger":
            return self._("Trigger the event: spend 1 momentum marker to resolve %(card)s as yours",
                     card=summary_tmotp.card_name(asks["card"], self.loc)) \
                if asks.get("card") else self._("Trigger the event")
        if verb == "swap":
            return self._("Swap %(a)s and %(b)s", a=self.thing(rest[0]), b=self.thing(rest[1]))
        if verb == "momentum":
            return self._("Take a momentum marker")
        if verb == "endorsement":
            return self._("Take an endorsement")
        if verb == "order":
            return " › ".join(self.thing(x) for x in rest)
        if verb == "travel":
            return self._("Travel to %(state)s", state=self.thing(rest[0]))
        return " ".join(self.thing(x) for x in rest) or action

    def order(self, action: str) -> str:
        """An order as the reader's choice, in words, whenever it was or will be given (a
        deadline's default, a standing order's answer): "Pass", "Advertising with Suburban
        Voters (63) (3 CP)", "Campaigning: 2 CP in New York (NY)". Nothing is asked of the
        view: the words come from the order alone."""
        w = action.split()
        if not w:
            return action
        verb, rest = w[0], w[1:]
        preempt = rest[-1:] == ["preempt"]
        rest = rest[:-1] if preempt else rest
        if verb == "play" and len(rest) == 2 and rest[1] in ("event", "campaign", "advertise",
                                                            "position"):
            if rest[0] == "candidate":
                said = self._("Your candidate card for %(mode)s", mode=self.mode(rest[1]))
            elif digits(rest[0]) and int(rest[0]) in CARDS:
                card = self.card(int(rest[0]))
                said = (self._("Event: %(card)s", card=card["name"]) if rest[1] == "event"
                        else self._("%(mode)s with %(card)s (%(n)s CP)",
                                    mode=self.mode(rest[1]), card=card["name"], n=card["cp"]))
            else:
                return action
            return self._("%(order)s, preempting its event", order=said) if preempt else said
        if verb == "vp" and rest and digits(rest[0]) and int(rest[0]) in CARDS:
            return self._("Discard %(card)s to play your Vice President card",
                          card=self.card(int(rest[0]))["name"])
        if verb in ("campaign", "support") and len(rest) == 2 and rest[0] in STATES \
                and digits(rest[1]):
            if verb == "campaign":
                return self._("Campaigning: %(n)s CP in %(state)s", n=rest[1],
                              state=self.thing(rest[0]))
            return self._("State support in %(state)s: %(n)s", n=rest[1],
                          state=self.thing(rest[0]))
        if verb in ("pass", "done", "trigger", "swap", "momentum", "endorsement", "order",
                    "travel") or verb == "play":
            return self.action(action, {})
        things = ", ".join(self.thing(x) for x in rest)
        heading = self.verb(verb)
        return f"{heading}: {things}" if things else heading

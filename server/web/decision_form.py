"""The decision form of a game of 1960: the seat's legal actions (the engine's, the only
validator) laid out by what the rulebook asks, in words, and the order lines a submitted form
stands for.

Kinds of form:
- ``activity``: the hand as a table, a card a row, the ways to play it in its row (event,
  Campaigning, Advertising, Positioning; preempt as a box), then the candidate card, VP, pass;
- ``campaigning``: a planner, a state a row with its travel cost from the candidate's state,
  whether its CP need support checks (B1), and a number box; the plan is played whole or not
  at all, in the order of least travel;
- ``placement``: events and the debate award placing state support, a number box per state;
- ``positioning``: a number box per issue, with B3's costs;
- ``cards``: boxes to tick when an action names several cards (Campaign Strategy on turns 7-8,
  discards for new cards);
- ``choices``: everything else, one choice in words, grouped by what it does.
Every form keeps the notation field for anything typed by hand.
"""

from __future__ import annotations

from itertools import permutations

from engine.games.tmotp.data import CARDS, STATES, ZONE_DISTANCE
from server.mail import summary_tmotp
from server.mail.terms import terms
from server.web.words import _

MODES = ("event", "campaign", "advertise", "position")
PLACING = {"place_support": "support", "debate_award": "support"}
EXHAUSTIVE = 7  # states in a Campaigning plan ordered by trying every order (beyond: nearest)


def build(decision: dict, view: dict, loc: str) -> dict:
    """The form for ``decision`` (games.decision_for), from ``view`` (the seat's)."""
    legal = decision["legal_actions"]
    asks = view.get("asks") or {}
    step = asks.get("step", "")
    words = Words(loc)
    form = {"kind": "choices", "step_name": step, "groups": [], "rows": [],
            "legal": legal}
    if step == "activity":
        _activity(form, legal, view, words)
    elif step == "campaigning" and asks.get("plan"):
        _campaigning(form, legal, asks["plan"], view, words)
    elif step in PLACING:
        _placement(form, legal, view, words)
    elif step == "positioning":
        _positioning(form, legal, view, words)
    elif any(len(_numbers(a)) > 1 for a in legal):
        _cards(form, legal, words)
    else:
        form["groups"] = _groups(legal, words, asks)
    return form


# --- the kinds -------------------------------------------------------------------------------

def _activity(form, legal, view, words) -> None:
    form["kind"] = "activity"
    legal_set = set(legal)
    seat = view["seat"]
    rows = []
    # The hand, then any card the step offers from elsewhere (a card taken to be played).
    played = [int(a.split()[1]) for a in legal if a.split()[0] in ("play", "vp")
              and a.split()[1].isdigit()]
    for cid in dict.fromkeys([*view["hands"].get(seat, []), *played]):
        modes = [m for m in MODES if f"play {cid} {m}" in legal_set]
        vp = f"vp {cid}" in legal_set
        if modes or vp:
            rows.append({**words.card(cid), "modes": [
                {"value": f"play {cid} {m}", "label": words.mode(m)} for m in modes]
                + ([{"value": f"vp {cid}", "label": _("Discard for your VP card")}] if vp else [])})
    form["rows"] = rows
    form["preempt"] = any(a.endswith(" preempt") for a in legal)
    other = [a for a in legal if not a.endswith(" preempt")
             and not (a.split()[0] in ("play", "vp") and a.split()[1].isdigit())]
    form["groups"] = _groups(other, words, {})


def _campaigning(form, legal, plan, view, words) -> None:
    form["kind"] = "campaigning"
    most = _most(legal, "campaign")
    token = plan["token"]
    rows = []
    for st, n in most.items():
        info = STATES[st]
        rows.append({**words.state(st, view), "max": n,
                     "travel": 0 if plan["free_travel"] else _travel(token, st),
                     "checks": st in plan["support_checks"], "zone": info["zone"],
                     "region": words.region(info["region"])})
    rows.sort(key=lambda r: (r["travel"], r["region"], r["name"]))
    form.update(rows=rows, cp=plan["cp"], token=words.state(token, view),
                free_travel=plan["free_travel"], distances=ZONE_DISTANCE,
                token_zone=STATES[token]["zone"],
                travel=[{"value": a, **words.state(a.split()[1], view)}
                        for a in legal if a.startswith("travel ")],
                stop="done" in legal)


def _placement(form, legal, view, words) -> None:
    form["kind"] = "placement"
    most = _most(legal, "support")
    form["rows"] = sorted(({**words.state(st, view), "max": n,
                            "region": words.region(STATES[st]["region"])}
                           for st, n in most.items()), key=lambda r: (r["region"], r["name"]))
    form["left"] = (view.get("decision") or {}).get("left")
    form["stop"] = "done" in legal
    form["groups"] = _groups([a for a in legal if a.split()[0] not in ("support", "done")],
                             words, {})


def _positioning(form, legal, view, words) -> None:
    form["kind"] = "positioning"
    frame = view.get("decision") or {}
    bought = frame.get("bought") or {}
    names = terms(words.loc)["issues"]
    form["rows"] = [{"code": a.split()[1], "name": names.get(a.split()[1], a.split()[1]),
                     "first": 1 if not bought.get(a.split()[1]) else 2}
                    for a in legal if a.startswith("position ")]
    form["cp"] = frame.get("cp")
    form["stop"] = "done" in legal


def _cards(form, legal, words) -> None:
    form["kind"] = "cards"
    form["verb"] = legal[0].split()[0] if legal[0] != "done" else legal[-1].split()[0]
    ids = sorted({n for a in legal for n in _numbers(a)})
    form["cards"] = [words.card(cid) for cid in ids]
    form["sizes"] = sorted({len(_numbers(a)) for a in legal if _numbers(a)})
    form["groups"] = _groups([a for a in legal if not _numbers(a)], words, {})


def _groups(actions, words, asks) -> list[dict]:
    """The actions as radio choices in words, a group per verb, in the engine's order."""
    groups: dict[str, dict] = {}
    for a in actions:
        verb = a.split()[0]
        group = groups.setdefault(verb, {"legend": words.verb(verb), "options": []})
        group["options"].append({"value": a, "label": words.action(a, asks)})
    return list(groups.values())


# --- turning a submitted form into order lines ----------------------------------------------

class Refused(ValueError):
    """A plan that cannot be played as a whole; nothing is sent to the game."""


def compose(data, form: dict) -> tuple[list[str], bool]:
    """(order lines, whether they are a plan to play whole or not at all) from the posted
    ``data`` (a MultiDict) and the ``form`` it was made from. Raises Refused."""
    kind = form["kind"]
    lines: list[str] = []
    atomic = False
    if kind in ("campaigning", "placement", "positioning"):
        chosen = _chosen(data, "n.", {r["code"]: r.get("max") for r in form["rows"]})
        left = None  # what the plan leaves to spend or place (None: not known here)
        if chosen:
            atomic = True
            lines, left = {"campaigning": _campaign_plan, "placement": _placement_plan,
                           "positioning": _positioning_plan}[kind](chosen, form)
        elif kind == "campaigning" and data.get("travel"):
            lines = [data["travel"]]
        # "Then stop" ends the action; a plan that spends everything ends it by itself.
        if form.get("stop") and data.get("stop") and left != 0:
            lines.append("done")
    elif kind == "cards" and data.getlist("card"):
        cards = sorted(int(c) for c in data.getlist("card") if c.isdigit())
        lines = [" ".join([form["verb"], *map(str, cards)])]
    action = (data.get("action") or "").strip()
    if action and not lines:
        if data.get("preempt") and action.startswith("play "):
            action += " preempt"
        lines = [action]
    typed = [line.strip() for line in (data.get("lines") or "").splitlines() if line.strip()]
    return lines + typed, atomic


def _chosen(data, prefix: str, most: dict) -> list[tuple[str, int]]:
    out = []
    for code, top in most.items():
        raw = (data.get(prefix + code) or "").strip()
        if not raw or raw == "0":
            continue
        if not raw.isdigit() or (top is not None and int(raw) > top):
            raise Refused(_("%(place)s: write a whole number from 0 to %(n)s.",
                            place=code, n=top))
        out.append((code, int(raw)))
    return out


def _campaign_plan(chosen, form) -> tuple[list[str], int]:
    order = _least_travel(form["token_zone"], chosen, form["free_travel"])
    travel = 0 if form["free_travel"] else _path(form["token_zone"], [s for s, _n in order])
    cost = travel + sum(n for _s, n in order)
    if cost > form["cp"]:
        raise Refused(_("This plan needs %(cost)s CP (%(travel)s of them to travel) and you "
                        "have %(cp)s: take some off.", cost=cost, travel=travel, cp=form["cp"]))
    return [f"campaign {st} {n}" for st, n in order], form["cp"] - cost


def _placement_plan(chosen, form) -> tuple[list[str], int | None]:
    total = sum(n for _s, n in chosen)
    if form.get("left") is not None and total > form["left"]:
        raise Refused(_("You may place %(left)s support cubes and chose %(n)s: take some off.",
                        left=form["left"], n=total))
    left = form["left"] - total if form.get("left") is not None else None
    return [f"support {st} {n}" for st, n in chosen], left


def _positioning_plan(chosen, form) -> tuple[list[str], int | None]:
    first = {r["code"]: r["first"] for r in form["rows"]}
    cost = sum(first[issue] + 2 * (n - 1) for issue, n in chosen)
    if form.get("cp") is not None and cost > form["cp"]:
        raise Refused(_("These issue support cubes cost %(cost)s CP and you have %(cp)s: take "
                        "some off.", cost=cost, cp=form["cp"]))
    left = form["cp"] - cost if form.get("cp") is not None else None
    bought = dict(chosen)
    if left is not None and all((2 if bought.get(r["code"]) else r["first"]) > left
                                for r in form["rows"]):
        left = 0  # no further cube fits: Positioning ends by itself (B3)
    return [f"position {issue}" for issue, n in chosen for _i in range(n)], left


def _least_travel(zone: str, chosen, free: bool):
    """The plan's states in the order that crosses the fewest boundaries from ``zone``."""
    if free or len(chosen) < 2:
        return list(chosen)
    if len(chosen) <= EXHAUSTIVE:
        return list(min(permutations(chosen), key=lambda p: _path(zone, [s for s, _n in p])))
    left, out = list(chosen), []
    while left:
        nxt = min(left, key=lambda c: ZONE_DISTANCE[zone][STATES[c[0]]["zone"]])
        left.remove(nxt)
        out.append(nxt)
        zone = STATES[nxt[0]]["zone"]
    return out


def _path(zone: str, states: list[str]) -> int:
    cost = 0
    for st in states:
        cost += ZONE_DISTANCE[zone][STATES[st]["zone"]]
        zone = STATES[st]["zone"]
    return cost


def _travel(from_state: str, to_state: str) -> int:
    return ZONE_DISTANCE[STATES[from_state]["zone"]][STATES[to_state]["zone"]]


def _most(legal, verb: str) -> dict[str, int]:
    """The most CP or cubes each state may take: ``{state: n}`` from ``verb ST n`` actions."""
    most: dict[str, int] = {}
    for a in legal:
        w = a.split()
        if w[0] == verb and len(w) == 3:
            most[w[1]] = max(most.get(w[1], 0), int(w[2]))
    return most


def _numbers(action: str) -> list[int]:
    return [int(w) for w in action.split()[1:] if w.isdigit()]


class Words:
    """Actions and their objects in the reader's words."""

    def __init__(self, loc: str):
        self.loc = loc
        self.t = terms(loc)

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
        if word.isdigit() and int(word) in CARDS:
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

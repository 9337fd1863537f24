"""1960's decision forms (the presenter's ``form`` and ``compose``; laid out by
templates/games/tmotp/web/form.html inside the shared templates/web/_decision_form.html): the
seat's legal actions (the engine's, the only validator) laid out by what the rulebook asks, in
words, and the order lines a submitted form stands for.

Kinds of form:
- ``activity``: the hand as a table, a card a row, the ways to play it in its row (event,
  Campaigning, Advertising, Positioning; preempt as a box), then the candidate card, VP, pass;
- ``campaigning``: a planner, a state a row with its travel cost from the candidate's state,
  whether its CP need support checks (B1), and a number box (the engine's asks()["plan"]); the
  plan is played whole or not at all, in the order of least travel;
- ``placement``: events and the debate award placing state support, a number box per state;
- ``positioning``: a number box per issue, with who leads it and by how many cubes and the
  next cube's price (the engine's, B3);
- ``advertising``: a number box per region, with who leads its media support and by how many
  cubes (B2): every cube of the Advertising in one order (``media R`` a cube);
- ``cards``: boxes to tick when an action names several cards (Campaign Strategy on turns 7-8,
  discards for new cards);
- ``card``: a question about one card (whether to trigger the event of a card the opponent
  played for CP; the side of a Debate card bearing both icons): the card shown whole, then the
  choices;
- ``picks``: one card to choose among the reader's strategy cards (Campaign Strategy on turns
  1-5, a Debate card, in Z-Man the next Campaign Strategy card resolved on Election Day with
  the state its checks go to), each shown whole beside its choice;
- ``choices`` (the shared kind): everything else, one choice in words, grouped by what it does.
The planners of states show the map at their top, its offered states to tap (board.form_map);
the form's script writes the taps into the number boxes, which stay the form's fields.
Wherever a card is decided it is shown as a card (name, CP, candidate icon, issue, state, event:
board.card) with whom its event favours (``favours``). The planners show a running total (CP or
cubes, and travel) by a small script; without it the form posts the same and the engine judges.
Every form keeps the notation field for anything typed by hand (server/web/decision_form.py).
"""

from __future__ import annotations

from itertools import permutations

from engine.games.tmotp.data import (CARDS, REGIONS, STATES, ZONE_DISTANCE, other,
                                      travel_cost)
import server.games.tmotp.board as board
from server.games.tmotp import choice_facts
from server.games.tmotp.page_words import Words
from server.parsing import digits, whole
from server.web.decision_form import Order, Refused
from server.web.words import _

MODES = ("event", "campaign", "advertise", "position")
PLACING = ("place_support", "debate_award")  # events, the Debate award: state support
EXHAUSTIVE = 7  # states in a Campaigning plan ordered by trying every order (beyond: nearest)
PLANNERS = ("campaigning", "placement", "positioning", "advertising")
ABOUT_A_CARD = ("trigger", "debate_side")  # steps asking about one card (the frame's "card")
# steps choosing among the strategy cards (on Election Day in Z-Man, the next one resolved)
PICKING = ("campaign_strategy", "debate_round", "election_day_strategy_order")


def build(decision: dict, view: dict, loc: str) -> dict:
    """The form for ``decision`` (games.decision_for), from ``view`` (the seat's)."""
    legal = decision["legal_actions"]
    asks = view.get("asks") or {}
    step = asks.get("step", "")
    words = Words(loc)
    form = {"kind": "choices", "step_name": step, "groups": [], "rows": [],
            "legal": legal, "facts": choice_facts.decision(view, words)}
    if step == "activity":
        _activity(form, legal, view, words)
    elif step == "campaigning" and asks.get("plan"):
        _campaigning(form, legal, asks["plan"], view, words)
    elif step in PLACING:
        _placement(form, legal, view, words)
    elif step == "positioning":
        _positioning(form, legal, view, words)
    elif step == "advertising" and legal and all(a.startswith("media ") for a in legal):
        _advertising(form, legal, view, words)
    elif step in ABOUT_A_CARD and _card_asked(view, asks) is not None:
        options = [o for g in _groups(legal, words, asks, view) for o in g["options"]]
        form.update(kind="card", card=face(_card_asked(view, asks), view["seat"], loc),
                    groups=[{"legend": _("Trigger its event?") if step == "trigger"
                             else _("Which side of the Debate Board?"), "options": options}])
    elif any(len(_numbers(a)) > 1 for a in legal):
        _cards(form, legal, view, words)
    elif step in PICKING and any(_numbers(a) for a in legal):
        form.update(kind="picks", groups=_groups(legal, words, asks, view))
        for group in form["groups"]:
            for option in group["options"]:
                numbers = _numbers(option["value"])
                option["card"] = face(numbers[0], view["seat"], loc) if numbers else None
                if numbers and step == "debate_round":
                    option["card"]["favours"] = debate_side(CARDS[numbers[0]]["icon"],
                                                            view["seat"], loc)
                elif numbers and step == "election_day_strategy_order":
                    option["card"]["favours"] = checked_state(CARDS[numbers[0]]["state"],
                                                              view, words)
    else:
        form["groups"] = _groups(legal, words, asks, view)
    return form


# --- a card where it is decided ---------------------------------------------------------------

def face(cid: int, seat: str, loc: str) -> dict:
    """A card as a form shows it: the hand's card (board.card) and whom its event favours."""
    return {**board.card(cid, loc), "favours": favours(CARDS[cid]["icon"], seat, loc)}


def favours(icon: str, seat: str, loc: str) -> dict:
    """Whom a card's event favours, for ``seat``: {"side": "you" | "opponent" | "neither",
    "text"}. From its candidate icon, as the rulebook reads it (GMT 2nd ed., "Triggering
    Events", p. 7: "Wait for when your opponent plays a card with your candidate icon on it -
    the event on that card benefits you"; the Debates' "Candidate Icons": a card showing both
    may go to either side). A card with both icons favours neither in particular."""
    if icon == seat:
        return {"side": "you",
                "text": _("Its event favours you: the card bears your candidate's icon only.")}
    if icon == "both":
        return {"side": "neither",
                "text": _("Its event favours neither side in particular: the card bears both "
                          "candidates' icons.")}
    name = Words(loc).t["seats"].get(other(seat), other(seat))
    return {"side": "opponent",
            "text": _("Its event favours %(name)s: the card bears only %(name)s's icon.",
                      name=name)}


def debate_side(icon: str, seat: str, loc: str) -> dict:
    """Where a Debate card goes, for ``seat`` (GMT 2nd ed., The Debates, "Candidate Icons": the
    side of the candidate whose icon it shows; with both icons, the side its player chooses),
    in the shape of ``favours``."""
    if icon == seat:
        return {"side": "you", "text": _("It goes to your side of the Debate Board.")}
    if icon == "both":
        return {"side": "neither",
                "text": _("It shows both candidates' icons: you choose its side.")}
    name = Words(loc).t["seats"].get(other(seat), other(seat))
    return {"side": "opponent",
            "text": _("It goes to %(name)s's side of the Debate Board.", name=name)}


def checked_state(st: str, view: dict, words: Words) -> dict:
    """The state an Election Day Campaign Strategy card's three support checks go to (Election
    Day, 3. Campaign Strategy: its event plays no part), in the shape of ``favours``."""
    state = words.state(st, view)
    return {"side": "neither",
            "text": _("Three support checks in %(state)s (%(ev)s electoral votes, now "
                      "%(support)s).", state=f"{state['name']} ({st})", ev=state["ev"],
                      support=state["support"])}


def _card_asked(view: dict, asks: dict) -> int | None:
    """The card a question is about: the trigger's (asks), a Debate side's (the frame's)."""
    cid = asks.get("card") or (view.get("decision") or {}).get("card")
    return int(cid) if cid is not None and int(cid) in CARDS else None


# --- the kinds -------------------------------------------------------------------------------

def _activity(form, legal, view, words) -> None:
    form["kind"] = "activity"
    legal_set = set(legal)
    seat = view["seat"]
    rows = []
    # The hand, then any card the step offers from elsewhere (a card taken to be played).
    played = [int(a.split()[1]) for a in legal if a.split()[0] in ("play", "vp")
              and a.split()[1].isdigit()]
    hand = view["hands"].get(seat, [])
    # After the Vice President card's discard only that card is played, from outside the hand.
    vp_frame = bool(played) and not any(c in hand for c in played) and \
        not any(a.startswith("play candidate") for a in legal)
    for cid in dict.fromkeys([*hand, *played]):
        modes = [m for m in MODES if f"play {cid} {m}" in legal_set]
        vp = f"vp {cid}" in legal_set
        if modes or vp:
            rows.append({**face(cid, seat, words.loc), "modes": [
                {"value": f"play {cid} {m}", "label": words.mode(m)} for m in modes]
                + ([{"value": f"vp {cid}", "label": _("Discard for your VP card")}] if vp else [])})
        elif cid in hand and not vp_frame:
            # A card of the hand with no way to play it now: the rules keep it for the
            # Campaign Strategy Phase (engine/games/tmotp/RULINGS.md); it is shown, and why.
            rows.append({**face(cid, seat, words.loc), "modes": [],
                         "kept": _("Keep it: you need it as your Campaign Strategy card.")})
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
        rows.append({**words.state(st, view), "max": n, "zone": info["zone"],
                     "travel": 0 if plan["free_travel"] else travel_cost(token, st),
                     "checks": st in plan["support_checks"],
                     "region": words.region(info["region"])})
    rows.sort(key=lambda r: (r["travel"], r["region"], r["name"]))
    _tap_map(form, rows, view, words,
             _("%(state)s, %(ev)s EV, support now %(support)s; CP planned here: %(n)s"))
    form.update(rows=rows, token=words.state(token, view), free_travel=plan["free_travel"],
                cp=plan["cp"], zone=STATES[token]["zone"], zones=ZONE_DISTANCE,
                travel=[{"value": a, **words.state(a.split()[1], view)}
                        for a in legal if a.startswith("travel ")],
                stop="done" in legal)


def _placement(form, legal, view, words) -> None:
    form["kind"] = "placement"
    most = _most(legal, "support")
    form["rows"] = sorted(({**words.state(st, view), "max": n,
                            "region": words.region(STATES[st]["region"])}
                           for st, n in most.items()), key=lambda r: (r["region"], r["name"]))
    _tap_map(form, form["rows"], view, words,
             _("%(state)s, %(ev)s EV, support now %(support)s; cubes placed here: %(n)s"))
    form["stop"] = "done" in legal
    form["left"] = (view.get("decision") or {}).get("left")
    form["groups"] = _groups([a for a in legal if a.split()[0] not in ("support", "done")],
                             words, {})


def _positioning(form, legal, view, words) -> None:
    form["kind"] = "positioning"
    prices = (view.get("asks") or {}).get("prices") or {}
    names = words.t["issues"]
    issues = view.get("issues") or {}
    form["rows"] = [{"code": issue, "name": names.get(issue, issue), "price": prices.get(issue),
                     **_lead(issues.get(issue) or {}, words)}
                    for issue in (a.split()[1] for a in legal if a.startswith("position "))]
    form["stop"] = "done" in legal
    form["cp"] = (view.get("decision") or {}).get("cp")
    form["board"] = True  # the rows show each issue's leader and cubes (focus.py)


def _advertising(form, legal, view, words) -> None:
    """B2: the cubes still to place in the regions' advertising boxes, every region a row with
    its media support now; the cubes go in one order, whole or not at all."""
    form["kind"] = "advertising"
    left = (view.get("decision") or {}).get("left") or 1
    media = view.get("media") or {}
    form["rows"] = [{"code": region, "name": _capital(words.region(region)), "max": left,
                     **_lead(media.get(region) or {}, words)}
                    for region in REGIONS if f"media {region}" in legal]
    form.update(left=left, stop=False, board=True)  # the rows show media support (focus.py)


def _lead(now: dict, words) -> dict:
    """Who leads a region's media support or an issue, and by how many cubes, as the choices
    say it (choice_facts.issue_support)."""
    leader = words.t["seats"].get(now.get("leader") or "", "")
    cubes = int(now.get("cubes") or 0)
    if not leader or not cubes:
        lead = words._("no cubes")
    elif cubes == 1:
        lead = words._("%(seat)s leads, 1 cube", seat=leader)
    else:
        lead = words._("%(seat)s leads, %(n)s cubes", seat=leader, n=cubes)
    return {"leader": leader if cubes else "", "cubes": cubes, "lead": lead}


def _capital(name: str) -> str:
    """'the West' as a row's label: 'The West'."""
    return name[:1].upper() + name[1:]


def _tap_map(form, rows, view, words, label: str) -> None:
    """The map at a planner's top, its offered states to tap; each row's spoken name, with
    ``{n}`` where the form's script writes the count planned there."""
    for r in rows:
        r["label"] = label % {"state": f"{r['name']} ({r['code']})", "ev": r["ev"],
                              "support": r["support"], "n": "{n}"}
    form["map"] = board.form_map(view, view["seat"], words.loc,
                                 {r["code"]: r["label"].replace("{n}", "0") for r in rows})
    form["board"] = True  # the board part the decision needs is the form's (focus.py)


def _cards(form, legal, view, words) -> None:
    form["kind"] = "cards"
    form["verb"] = legal[0].split()[0] if legal[0] != "done" else legal[-1].split()[0]
    ids = sorted({n for a in legal for n in _numbers(a)})
    form["cards"] = [face(cid, view["seat"], words.loc) for cid in ids]
    form["sizes"] = sorted({len(_numbers(a)) for a in legal if _numbers(a)})
    form["groups"] = _groups([a for a in legal if not _numbers(a)], words, {})


def _groups(actions, words, asks, view=None) -> list[dict]:
    """The actions as radio choices in words, a group per verb, in the engine's order; with
    the ``view``, a state or issue offered is shown with its facts (choice_facts.label)."""
    groups: dict[str, dict] = {}
    for a in actions:
        verb = a.split()[0]
        group = groups.setdefault(verb, {"legend": words.verb(verb, asks.get("step", "")),
                                         "options": []})
        group["options"].append({"value": a, "label": choice_facts.label(a, asks, view, words)})
    return list(groups.values())


# --- turning a submitted form into an order ---------------------------------------------------

def compose(data, form: dict) -> Order:
    """The order the posted ``data`` (a MultiDict) stands for on a form of ``build``: a plan
    of the planners' number boxes, the ticked cards, or the chosen card preempted (the shared
    compose adds a chosen action and the notation's lines when this gives none). Raises
    Refused. The engine judges the lines; a plan's CP, costs and cubes are the engine's to
    count."""
    kind, order = form["kind"], Order([])
    if kind in PLANNERS:
        names = {r["code"]: r["name"] for r in form["rows"]}
        chosen = _chosen(data, {r["code"]: r.get("max") for r in form["rows"]}, names)
        if kind == "campaigning":
            chosen = _least_travel(form["token"]["code"], chosen, form["free_travel"])
            order.lines = [f"campaign {st} {n}" for st, n in chosen]
            order.fields = [(f"n.{st}", _("%(place)s, %(n)s CP", place=names[st], n=n))
                            for st, n in chosen]
        elif kind == "placement":
            order.lines = [f"support {st} {n}" for st, n in chosen]
            order.fields = [(f"n.{st}", _("%(place)s, %(n)s cubes", place=names[st], n=n))
                            for st, n in chosen]
        else:
            verb = "media" if kind == "advertising" else "position"
            order.lines = [f"{verb} {code}" for code, n in chosen for _i in range(n)]
            order.fields = [(f"n.{issue}", _("%(place)s, cube %(i)s of %(n)s",
                                             place=names[issue], i=i + 1, n=n))
                            for issue, n in chosen for i in range(n)]
        order.atomic = bool(chosen)
        if kind == "campaigning" and not chosen and data.get("travel"):
            order.lines, order.fields = [data["travel"]], [("travel", "")]
        if form.get("stop") and data.get("stop"):
            if order.lines:
                order.stop = form["step_name"]
            else:
                order.lines, order.fields = ["done"], [("stop", "")]
    elif kind == "cards" and data.getlist("card"):
        cards = sorted(int(c) for c in data.getlist("card") if whole(c) is not None)
        order.lines = [" ".join([form["verb"], *map(str, cards)])]
        order.fields = [("card", "")]
    action = (data.get("action") or "").strip()
    if action and not order.lines and data.get("preempt") and action.startswith("play "):
        order.lines, order.fields = [action + " preempt"], [("action", "")]
    return order


def _chosen(data, most: dict, names: dict) -> list[tuple[str, int]]:
    """The boxes filled in: (state or issue, number), each within what the step allows (the
    form's own bounds, as its boxes say them; the engine judges the plan)."""
    out = []
    for code, top in most.items():
        raw = (data.get("n." + code) or "").strip()
        if not raw or raw == "0":
            continue
        if whole(raw) is None or (top is not None and int(raw) > top):
            if top is None:
                raise Refused(_("%(place)s: write a whole number, 0 or more.",
                                place=names.get(code, code)), field="n." + code)
            raise Refused(_("%(place)s: write a whole number from 0 to %(n)s.",
                            place=names.get(code, code), n=top), field="n." + code)
        out.append((code, int(raw)))
    return out


def _least_travel(start: str, chosen, free: bool):
    """The plan's states in the order that costs least travel from ``start`` (the engine's
    travel_cost; every order for a few states, nearest first beyond)."""
    if free or len(chosen) < 2:
        return list(chosen)
    if len(chosen) <= EXHAUSTIVE:
        return list(min(permutations(chosen), key=lambda p: _path(start, p)))
    left, out = list(chosen), []
    while left:
        nxt = min(left, key=lambda c: travel_cost(start, c[0]))
        left.remove(nxt)
        out.append(nxt)
        start = nxt[0]
    return out


def _path(start: str, plan) -> int:
    cost = 0
    for st, _n in plan:
        cost, start = cost + travel_cost(start, st), st
    return cost


def _most(legal, verb: str) -> dict[str, int]:
    """The most CP or cubes each state may take: ``{state: n}`` from ``verb ST n`` actions."""
    most: dict[str, int] = {}
    for a in legal:
        w = a.split()
        if w[0] == verb and len(w) == 3:
            most[w[1]] = max(most.get(w[1], 0), int(w[2]))
    return most


def _numbers(action: str) -> list[int]:
    return [int(w) for w in action.split()[1:] if digits(w)]

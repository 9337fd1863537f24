"""1960's decision mails list every legal order, named in the reader's words (the presenter's
``mail_choices``; server/games/presenter.py gives the shape).

- Activity Phase: every card in hand once, a group each (its name, CP, candidate icon, Issue and
  state), with an order per way to play it (event, Campaigning, Advertising, Positioning; the
  Vice President card's discard); then the candidate card and the rest. ``preempt`` is a word any
  play for CP may end with (``suffixes``), not twice the links.
- Orders that place a number in a state (Campaigning ``campaign NY 3``, events and the Debate
  award ``support NY 2``): a range per state ("New York (NY, 45): up to 3"), planned on the game
  page's form or written in a reply; a list of every number in every state would run to hundreds.
- Orders naming several cards at once (discards for new cards, Campaign Strategy on turns 7-8):
  the cards to pick from, and how many.
- Everything else: an order each, in words, grouped by what it does (the page form's words).
"""

from __future__ import annotations

from engine.games.tmotp.data import CANDIDATES, CARDS, STATES
from server.games.tmotp import choice_facts
from server.games.tmotp.page_words import Words
from server.parsing import digits

MODES = ("event", "campaign", "advertise", "position")
RANGED = ("campaign", "support")  # verb STATE n
PREEMPT = " preempt"


def mail_choices(view: dict, loc: str) -> dict:
    legal = list(view["legal_actions"])
    asks = view.get("asks") or {}
    words = Words(loc)
    # The facts the decision is weighed by (choice_facts.decision) lead the choices.
    groups: list[dict] = [_group(note=line) for line in choice_facts.decision(view, words)]
    rest = [a for a in legal if not a.endswith(PREEMPT)]
    if asks.get("step") == "activity":
        rest = _hand(groups, rest, view, words)
    rest = _ranges(groups, rest, view, words)
    rest = _picks(groups, rest, words)
    groups.extend(_by_verb(rest, words, asks, view))
    suffixes = ([{"suffix": PREEMPT.strip(), "label": words._(
        "Add “preempt” to a play for CP to spend 2 momentum markers so that your opponent "
        "cannot trigger its event (example: %(example)s).",
        example=next(a for a in legal if a.endswith(PREEMPT)))}]
        if any(a.endswith(PREEMPT) for a in legal) else [])
    return {"groups": groups, "suffixes": suffixes, "pairs": None}


def _group(heading=None, facts=None, note=None, options=(), ranges=(), pick=None,
           text=None) -> dict:
    return {"heading": heading, "facts": facts, "note": note, "options": list(options),
            "ranges": list(ranges), "pick": pick, "text": text}


def card_facts(card: dict, words: Words) -> str:
    """A card's facts in one line: "2 CP · Nixon · Economy · OH"."""
    parts = [words._("%(n)s CP", n=card["cp"]), card["icon"], card["issue"], card["state"]]
    return " · ".join(p for p in parts if p)


def _hand(groups: list, legal: list[str], view: dict, words: Words) -> list[str]:
    """The Activity Phase's cards, a group each; returns the orders left to list."""
    seat = view["seat"]
    found = set(legal)
    hand = list((view.get("hands") or {}).get(seat, []))
    played = [int(a.split()[1]) for a in legal if a.split()[0] in ("play", "vp")
              and a.split()[1].isdigit()]
    vp_frame = bool(played) and not any(c in hand for c in played) and \
        not any(a.startswith("play candidate") for a in legal)
    listed: set[str] = set()
    for cid in dict.fromkeys([*hand, *played]):
        card = words.card(cid)
        options = []
        for mode in MODES:
            action = f"play {cid} {mode}"
            if action in found:
                options.append({"action": action, "label": _play(mode, card, words)})
        if f"vp {cid}" in found:
            options.append({"action": f"vp {cid}", "label": words._(
                "Discard %(card)s to play your Vice President card", card=card["name"])})
        note = None
        if not options:
            if vp_frame or cid not in hand:
                continue
            # engine/games/tmotp/RULINGS.md: a card that cannot be played now is kept for the
            # Campaign Strategy Phase.
            note = words._("Keep it: you need it as your Campaign Strategy card.")
        listed.update(o["action"] for o in options)
        groups.append(_group(card["name"], card_facts(card, words), note, options,
                             text=card["effect"] or None))
    candidate = [f"play candidate {m}" for m in MODES if f"play candidate {m}" in found]
    if candidate:
        cp = CANDIDATES[seat]["cp"]
        groups.append(_group(words._("Your candidate card"), words._("%(n)s CP", n=cp), None, [
            {"action": a, "label": words._("%(mode)s with your candidate card (%(n)s CP)",
                                           mode=words.mode(a.split()[2]), n=cp)}
            for a in candidate]))
        listed.update(candidate)
    return [a for a in legal if a not in listed]


def _play(mode: str, card: dict, words: Words) -> str:
    if mode == "event":
        return words._("Event: %(card)s", card=card["name"])
    return words._("%(mode)s with %(card)s (%(n)s CP)", mode=words.mode(mode), card=card["name"],
                   n=card["cp"])


def _ranges(groups: list, legal: list[str], view: dict, words: Words) -> list[str]:
    """``verb STATE n`` orders as a range per state, a group per verb."""
    most: dict[str, dict[str, int]] = {}
    for a in legal:
        w = a.split()
        if w[0] in RANGED and len(w) == 3 and w[1] in STATES and digits(w[2]):
            most.setdefault(w[0], {})
            most[w[0]][w[1]] = max(most[w[0]].get(w[1], 0), int(w[2]))
    taken = set()
    for verb, states in most.items():
        rows = []
        for st in sorted(states, key=lambda s: (STATES[s]["region"], STATES[s]["name"])):
            n = states[st]
            taken.update(f"{verb} {st} {k}" for k in range(1, n + 1))
            state = words.state(st, view)
            rows.append({"verb": verb, "object": st, "most": n, "example": f"{verb} {st} {n}",
                         "label": words._("%(state)s, %(ev)s electoral votes, now %(support)s: "
                                          "up to %(n)s", state=f"{state['name']} ({st})",
                                          ev=state["ev"], support=state["support"], n=n)})
        heading = (words._("Campaigning: CP in a state") if verb == "campaign"
                   else words._("Support cubes in a state"))
        note = words._("Plan it on the game page's form, or reply with a line a state, as "
                       "%(example)s.", example=rows[0]["example"])
        groups.append(_group(heading, None, note, ranges=rows))
    return [a for a in legal if a not in taken]


def _picks(groups: list, legal: list[str], words: Words) -> list[str]:
    """Orders naming several cards at once, as the cards to pick from and how many."""
    many = [a for a in legal if len(_numbers(a)) > 1]
    if not many:
        return legal
    verb = many[0].split()[0]
    same = [a for a in legal if a.split()[0] == verb and _numbers(a)]
    ids = sorted({n for a in same for n in _numbers(a)})
    sizes = sorted({len(_numbers(a)) for a in same})
    cards = [{"id": cid, "label": f"{c['name']} · {card_facts(c, words)}"}
             for cid, c in ((cid, words.card(cid)) for cid in ids if cid in CARDS)]
    example = max(same, key=len)
    pick = {"verb": verb, "cards": cards, "sizes": sizes, "example": example,
            "label": words._("Reply with “%(verb)s” and the numbers of %(least)s to %(most)s "
                             "of these cards, lowest first, as %(example)s.", verb=verb,
                             least=sizes[0], most=sizes[-1], example=example)}
    groups.append(_group(words.verb(verb), None, None, pick=pick))
    return [a for a in legal if a not in set(same)]


def _by_verb(legal: list[str], words: Words, asks: dict, view: dict | None = None) -> list[dict]:
    groups: dict[str, dict] = {}
    decided = words.card(asks["card"]) if asks.get("card") in CARDS else None
    for a in legal:
        verb = a.split()[0]
        if decided is not None:  # the card whose event is decided on (a trigger): shown once
            group = groups.setdefault("card", _group(
                decided["name"], card_facts(decided, words), text=decided["effect"] or None))
        else:
            group = groups.setdefault(verb, _group(words.verb(verb, asks.get("step", ""))))
        group["options"].append({"action": a, "label": _label(a, words, asks, view)})
    for group in groups.values():  # "Pass" over its one order "Pass" says it twice
        if [o["label"] for o in group["options"]] == [group["heading"]]:
            group["heading"] = None
    return list(groups.values())


def _label(action: str, words: Words, asks: dict, view: dict | None = None) -> str:
    """An order in words; a card it names with its facts, a state or issue with its own
    (choice_facts.label)."""
    w = action.split()
    numbers = [n for n in _numbers(action) if n in CARDS]
    if len(numbers) == 1 and w[0] in ("debate", "strategy", "take", "resolve", "discard",
                                      "choose"):
        card = words.card(numbers[0])
        return f"{card['name']} ({card_facts(card, words)})"
    return choice_facts.label(action, asks, view, words)


def _numbers(action: str) -> list[int]:
    return [int(w) for w in action.split()[1:] if digits(w)]

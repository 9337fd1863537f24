"""What a seat may see: ``view(state, seat)``; ``seat=None`` is the spectators' view.

Hidden: the other candidates' hands and discards (counts), the campaign cards laid face down and
not yet turned up (their number is seen: a leader's cards in the chalkboard edition, the second
of two cards in the dial edition), who has committed in a sealed step (only how many: "2 of 3
have committed"), the log entries of the round being played until it is over, and upset attempts
taken back unseen. Public: the electoral cards on the table, the deck's size, the scoreboard,
the tied votes carried over, each round's revealed cards and result.
"""
from engine.core.messages import data
from engine.core.protocol import CHANCE

from .data import STATES
from .rounds import cards_this_round


def _table(s) -> list:
    n = s["options"]["players"]
    return [{"state": c, "name": STATES[c]["name"], "ev": STATES[c]["ev"],
             "band": STATES[c]["band"], "popular": STATES[c]["popular"][n]} for c in s["table"]]


def _plays(s, seat) -> dict:
    out = {}
    for x, p in s["plays"].items():
        shown = p["cards"] if x == seat else p["cards"][:p["shown"]]
        out[x] = {"shown": list(p["cards"][:p["shown"]]), "face_down": len(p["cards"]) - p["shown"],
                  "cards": list(shown)}
    return out


def _log(s, log, seat) -> list:
    hidden_from = s["hidden_from"]
    withdrawn = set(s["withdrawn"])
    out = []
    for i, (who, action) in enumerate(log):
        if who not in (seat, CHANCE) and ((hidden_from is not None and i >= hidden_from)
                                           or i in withdrawn):
            out.append([None, "(sealed)"])
        else:
            out.append([who, action])
    return out


def view(g, seat) -> dict:
    s = g.s
    log, notes = g.history()
    top = s["stack"][-1] if s["stack"] else None
    step = g.STEPS[top["step"]] if top else None
    commits = top.get("commits", {}) if top else {}
    deciding = [] if step is None or step.chance else list(step.seats(g, top))
    mine = seat in s["seats"]
    prompt = g.prompt(seat)
    short = s["options"]["version"] == "short"
    return {
        "game": s["game"], "options": dict(s["options"]), "seat": seat, "seats": list(s["seats"]),
        "stage": s["stage"], "election": s["election"], "past": list(s["past"]),
        "parties": s["parties"], "nominees": s["nominees"], "conventions": s["conventions"],
        "round": s["round"], "rounds": 12 if short else None,
        "cards_this_round": cards_this_round(g) if s["stack"] else 0,
        "prompt": prompt, "prompt_message": data(prompt), "asks": g.asks(seat),
        "legal_actions": g.legal_actions(seat) if seat in g.active() else [],
        # who is deciding this step, and how many of them have committed (never which)
        "active": [CHANCE] if step is not None and step.chance else deciding,
        "committed": len(commits), "deciding": len(deciding),
        "my_commitment": commits.get(seat),
        "table": _table(s), "deck_count": len(s["deck"]),
        "contests": {name: {k: c[k] for k in ("sides", "tally", "ev", "won", "pots", "leaders",
                                              "decided")}
                     for name, c in s["contests"].items()},
        "hand_sizes": {x: len(s["hands"][x]) for x in s["seats"]},
        "discard_counts": {x: len(s["discards"][x]) for x in s["seats"]},
        "refills": dict(s["refills"]), "doubles": dict(s["doubles"]),
        "hands": {seat: sorted(s["hands"][seat])} if mine else {},
        "discards": {seat: sorted(s["discards"][seat])} if mine else {},
        "plays": _plays(s, seat),
        "placing": s["placing"] and {k: s["placing"][k] for k in ("order", "close", "totals")},
        "history": list(s["history"]),
        "result": s["result"],
        "log": _log(s, log, seat),
        "notes": [note[1] for note in notes],
        "note_messages": [note[2:] for note in notes],
    }

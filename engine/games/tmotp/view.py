"""What a seat may see: ``view(state, seat)``; ``seat=None`` is the spectators' view.

Hidden: the opponent's hand (a count; when an event shows it, Opposition Research, the seat it
is shown to sees a snapshot in ``shown_hands`` to the end of the turn), the order and contents of
the decks (counts), face-down Campaign Strategy cards (counts), debate cards and Campaign Strategy
choices committed but not yet revealed, and the cards dealt to the opponent in the log.
Public: the board, the bag, momentum, the discard pile and cards removed or in play, and on
Election Day both players' Campaign Strategy cards from step 3 on ("Both players retrieve the four
cards ... and reveal them", GMT 2nd ed. and Z-Man 1st ed., Election Day, 3. Campaign Strategy):
``election_strategy``, each player's cards not yet resolved.
"""
import json

from engine.core.messages import data
from engine.core.protocol import CHANCE

from .board import carries, leader
from .data import SEATS
from .debates import AWARDS, award_won, side_cp


def _redact(seat, entry, sealed: bool):
    """Return a log entry as ``seat`` may see it; ``sealed`` marks a commitment not yet revealed."""
    who, action = entry
    words = action.split()
    if who == CHANCE and words[0] == "deal" and words[1] != seat:
        return [who, f"deal {words[1]}"]
    if who != seat and words[0] == "strategy":
        return [who, "strategy (face down)"]
    if who != seat and sealed:
        return [who, f"{words[0]} (sealed)"]
    return [who, action]


def view(g, seat) -> dict:
    s = g.s
    log, notes = g.history()
    top = s["stack"][-1] if s["stack"] else None
    commits = (top or {}).get("commits", {})
    hands = {seat: list(s["hands"][seat])} if seat in SEATS else {}
    prompt = g.prompt(seat)
    out = {
        "game": s["game"], "options": dict(s["options"]), "seat": seat,
        "turn": s["turn"], "phase": s["phase"], "round": s["round"],
        "active": g.active(), "prompt": prompt,
        "prompt_message": data(prompt), "asks": g.asks(seat),
        "legal_actions": g.legal_actions(seat) if seat in g.active() else [],
        "initiative": s["initiative"], "start_player": s["start_player"],
        "states": {st: {"support": abs(v), "leader": leader(v),
                        "carried": bool(v) and carries(s, leader(v), st)}
                   for st, v in s["support"].items()},
        "media": {r: {"cubes": abs(v), "leader": leader(v)} for r, v in s["media"].items()},
        "endorsements": {r: {"markers": abs(v), "leader": leader(v)} for r, v in s["endorsements"].items()},
        "issue_track": list(s["issue_track"]),
        "issues": {i: {"cubes": abs(v), "leader": leader(v)} for i, v in s["issues"].items()},
        "tokens": dict(s["tokens"]), "momentum": dict(s["momentum"]), "bag": dict(s["bag"]),
        "rest": dict(s["rest"]), "exhausted": dict(s["exhausted"]),
        "vp_available": dict(s["vp_available"]),
        "hand_sizes": {x: len(s["hands"][x]) for x in SEATS},
        "hands": hands,
        "shown_hands": shown_hands(s, seat),
        "strategy_counts": {x: len(s["strategy"][x]) for x in SEATS},
        "strategy": {seat: list(s["strategy"][seat])} if seat in SEATS else {},
        "election_strategy": {x: list(c) for x, c in
                              ((s.get("election") or {}).get("strategy") or {}).items()},
        "deck_count": len(s["deck"]), "discard": list(s["discard"]), "removed": list(s["removed"]),
        "endorsement_deck_count": len(s["endorsement_deck"]),
        "persistent": {k: list(v) for k, v in s["persistent"].items()},
        "effects": list(s["effects"]),
        "effect_seats": dict(s["effect_seats"]),     # who a "the player" effect binds
        "committed": sorted(commits),
        "my_commitment": commits.get(seat),
        "debate": _debate_view(s, seat),
        "result": s["result"],
        "log": [_redact(seat, e, i >= len(log) - len(commits)) for i, e in enumerate(log)],
        "notes": [note[1] for note in notes],
        # [template, args] (messages.py); a note of a state saved before messages (only its
        # English text) is its own template.
        "note_messages": [note[2:] or [note[1], {}] for note in notes],
    }
    out["public"] = public_state(s, seat)
    if top and top.get("step") in ("place_support", "remove_support", "campaigning", "positioning",
                                    "advertising", "debate_award"):
        out["decision"] = {k: v for k, v in top.items() if k not in ("then", "commits")}
    return out


def public_state(s, seat) -> dict:
    """The state as ``seat`` may see it, in the state's own shape (for the bots' worlds,
    determinize.py): every public field as it is - the stack of steps, the turn's queue, the
    Election Day checks - and the hidden cards taken out: the other hands, face-down strategy
    and debate cards and the deck are empty lists (their counts are in the view), other seats'
    sealed commitments are left out, a hand shown by an event only to the seat it was shown
    to. No seed (secret until the game ends), log or notes (the view has its own)."""
    out = {k: v for k, v in s.items() if k not in ("seed", "log", "notes", "log_from",
                                                    "notes_from")}
    out = json.loads(json.dumps(out))
    for x in SEATS:
        if x != seat:
            out["hands"][x] = []
            out["strategy"][x] = []
            if out["debate"]:
                out["debate"]["cards"][x] = []
    out["deck"] = []
    out["endorsement_deck"] = sorted(out["endorsement_deck"])
    out["shown_hands"] = [r for r in out.get("shown_hands", []) if r["to"] == seat]
    for f in out["stack"]:
        if "commits" in f:
            f["commits"] = {x: a for x, a in f["commits"].items() if x == seat}
    return out


def shown_hands(s, seat) -> dict:
    """The hands shown to ``seat`` this turn, as they were when shown (Opposition Research:
    Kennedy shows his whole hand to Nixon): ``{shown seat: cards}``. A snapshot, not the hand as it
    is now; it lasts to the end of the turn and nobody else (no spectator) sees it."""
    out = {}
    for r in s.get("shown_hands", []):
        if r["to"] == seat and r["turn"] == s["turn"]:
            out[r["seat"]] = list(r["cards"])
    return out


def _debate_view(s, seat):
    d = s["debate"]
    if d is None:
        return None
    return {
        "tiles": d["tiles"], "awarded": d["awarded"],
        # Each side's CP on each issue (Harvard Brain Trust's +1 counted), the cubes each won
        # issue placed, and the next issue won's: the Debate Board as the rules read it.
        "totals": {i: {x: side_cp(s, i, x) for x in SEATS} for i in d["tiles"]},
        "awards": {i: award_won(s, i) for i in d["tiles"]},
        "next_award": AWARDS[d["awarded"]] if d["awarded"] < len(AWARDS) else None,
        "cards_left": {x: len(d["cards"][x]) for x in SEATS},
        "my_cards": list(d["cards"][seat]) if seat in SEATS else [],
        "revealed": dict(d["revealed"]),
    }


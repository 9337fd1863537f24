"""Setting Up The Game (GMT manual): the opening position, then the first turn's deal."""
from engine.core.errors import OptionsError

from .data import CARDS, CANDIDATES, ENDORSEMENTS, ISSUES, REGIONS, SEATS, STATES, VP_CARDS, sign
from .state import GAME_ID, TmotpState, check_options


def deck_for(options: dict) -> list:
    """Return the campaign deck of the chosen edition, less the VP cards under the optional rule."""
    cards = [c for c in CARDS.values() if options["edition"] == "gmt" or c["edition"] == "both_editions"]
    ids = [c["id"] for c in cards]
    if options["vp_cards"]:
        ids = [i for i in ids if i not in VP_CARDS.values()]
    return sorted(ids)


def opening(seed, options: dict) -> dict:
    """Return the state dict of the position before the first card is dealt."""
    cubes = 12 if options["edition"] == "gmt" else 10
    support = {code: 0 for code in sorted(STATES)}
    for code, st in STATES.items():
        for seat, n in st["start"].items():
            support[code] += sign(seat) * n
    return {
        "game": GAME_ID, "seed": seed, "options": options,
        "turn": 0, "phase": 0, "round": "setup",
        "support": support,
        "media": {r: 0 for r in REGIONS},
        "endorsements": {r: 0 for r in REGIONS},
        "issues": {i: 0 for i in ISSUES},
        "issue_track": ["defense", "economy", "civil_rights"],    # first place first
        "tokens": {s: CANDIDATES[s]["home_state"] for s in SEATS},
        "momentum": {s: 2 for s in SEATS},
        "bag": {s: cubes for s in SEATS},
        "rest": {s: 0 for s in SEATS},
        "exhausted": {s: False for s in SEATS},
        "hands": {s: [] for s in SEATS},
        "strategy": {s: [] for s in SEATS},
        "vp_available": {s: options["vp_cards"] for s in SEATS},
        "deck": deck_for(options), "discard": [], "removed": [],
        "endorsement_deck": sorted(ENDORSEMENTS), "endorsement_discard": [],
        "persistent": {"debate": [], "election_day": [], "prevention": []},
        "effects": [], "effect_seats": {}, "shown_hands": [],
        "initiative": None, "start_player": None, "no_reseed": False,
        "debate": None, "election": None, "result": None,
        "stack": [], "log": [], "notes": [],
    }


def new(*, seed, players=None, options=None) -> TmotpState:
    """Return a new game of 1960 at its first chance step (the deal of turn 1)."""
    if players not in (None, list(SEATS), tuple(SEATS)):
        raise OptionsError("1960 has two seats: kennedy and nixon.")
    g = TmotpState(opening(seed, check_options(dict(options or {}))))
    from .turn import start_turn
    start_turn(g)
    return g

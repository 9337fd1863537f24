"""Nothing hidden leaks through the API: random games of both editions, every response to a seat
(and a spectator's) checked against the raw state in the database.

A reader must never receive: the other seat's hand (only its size, unless the engine's view
says it was shown), the cards dealt to the other seat, face-down Campaign Strategy cards or
unrevealed Debate cards of the other seat, the other seat's sealed order, or the seed before
the end.
"""

from __future__ import annotations

import json
import random

import pytest
from engine.core import CHANCE

from tests.server.api.helpers import other

SEATS = ("kennedy", "nixon")


class Secrets:
    """What one reader may not know, read from the database at one moment."""

    def __init__(self, store, gid: int, reader: str | None):
        game = store.game(gid)
        self.reader = reader
        self.state = store.state(gid)
        s = self.state.s
        self.pending = store.pending_orders(gid)
        others = [x for x in SEATS if x != reader]
        mine = set(self.state.legal_actions(reader)) if reader in self.state.active() else set()
        mine |= {a for seat, actions in self.pending.items() if seat == reader for a in actions}
        texts = set()
        for who, action in s["log"]:
            words = action.split()
            if who == CHANCE and words[0] == "deal" and words[1] in others:
                texts.add(action)  # a card dealt to another seat
            if who in others and words[0] == "strategy" and action != "strategy none":
                texts.add(action)  # face-down Campaign Strategy cards
        for seat in others:
            texts |= set(self.pending.get(seat, []))  # sealed orders
            if s["debate"] is not None:
                texts |= {f"debate {c}" for c in s["debate"]["cards"][seat]}  # not revealed yet
        over = game.status == "finished"  # then the whole record is public
        self.texts = set() if over else texts - mine
        self.seed = None if over else game.seed
        self.raw = json.dumps(game.state)

    def leaks(self, text: str) -> list[str]:
        """The secrets found in a response body (JSON strings, so quoted)."""
        found = [t for t in self.texts if json.dumps(t) in text]
        if self.seed and self.seed in text:
            found.append("the seed")
        return found

    def check(self, response) -> int:
        """Assert the response leaks nothing; return how many secrets it was checked for."""
        assert response.status_code < 500, response.get_data(as_text=True)
        text = response.get_data(as_text=True)
        assert not self.leaks(text), (self.reader, self.leaks(text), text[:2000])
        for view in _views(response.get_json()):
            self._check_view(view)
        return len(self.texts) + bool(self.seed)

    def _check_view(self, view: dict) -> None:
        s, reader = self.state.s, self.reader
        allowed = {reader} if reader in SEATS else set()
        assert set(view["hands"]) <= allowed
        assert set(view["strategy"]) <= allowed
        if reader in SEATS:
            assert view["hands"][reader] == s["hands"][reader]
        assert view["hand_sizes"] == {x: len(s["hands"][x]) for x in SEATS}
        # Another seat's hand only where the engine itself shows it (Opposition Research).
        assert view["shown_hands"] == self.state.view(reader)["shown_hands"]
        assert set(view["shown_hands"]) <= set(SEATS) - allowed
        if view["debate"] is not None:
            assert view["debate"]["my_cards"] == (list(s["debate"]["cards"][reader])
                                                  if reader in SEATS else [])


def _views(body) -> list[dict]:
    """Every engine view inside a response body."""
    found = []
    if isinstance(body, dict):
        if "hands" in body and "hand_sizes" in body:
            found.append(body)
        for value in body.values():
            found += _views(value)
    elif isinstance(body, list):
        for value in body:
            found += _views(value)
    return found


# Both editions, with and without the optional rules (about 15-25 s a game).
CASES = [
    ("hidden-gmt-options", {"edition": "gmt", "vp_cards": True, "restricted_positioning": True},
     21),
    ("hidden-zman", {"edition": "zman"}, 22),
    ("hidden-gmt", {"edition": "gmt"}, 23),
    ("hidden-zman-options", {"edition": "zman", "vp_cards": True}, 24),
    ("hidden-gmt-2", {"edition": "gmt", "restricted_positioning": True}, 25),
    ("hidden-zman-2", {"edition": "zman", "restricted_positioning": True}, 26),
]


# Whole games through the API, 15-45 s each: the full suite only (the fast tier keeps the
# engine's leak tests, tests/engine/test_leak.py, and the API's own).
@pytest.mark.slow
@pytest.mark.parametrize("seed, options, policy", CASES, ids=[c[0] for c in CASES])
def test_no_response_leaks_what_its_reader_may_not_know(client, store, seed, options, policy):
    players = {"kennedy": client.signup("ann@example.org"),
               "nixon": client.signup("bob@example.org")}
    watcher = client.signup("eve@example.org")
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed=seed,
                                 public=True, options=options)
    assert client.post(f"/games/{gid}/spectate", watcher).status_code == 200
    rng = random.Random(policy)
    checked = {"texts": 0, "sealed": 0, "views": 0, "responses": 0}

    def look(reader, player, every_path=False):
        paths = [f"/games/{gid}", f"/games/{gid}/log"] + (["/games"] if every_path else [])
        secrets = Secrets(store, gid, reader)
        for path in paths:
            r = client.get(path, player)
            checked["texts"] += secrets.check(r)
            checked["views"] += len(_views(r.get_json()))
            checked["responses"] += 1

    finished, control = False, None
    for turn in range(4000):
        progressed = False
        for seat in SEATS:
            player = players[seat]
            secrets = Secrets(store, gid, seat)
            r = client.get(f"/games/{gid}/decision", player)
            checked["texts"] += secrets.check(r)
            decision = r.get_json()
            if not decision["active"]:
                continue
            if secrets.pending.get(other(seat)):
                checked["sealed"] += 1
            action = rng.choice(decision["legal_actions"])
            r = client.post(f"/games/{gid}/orders", player,
                            json={"step": decision["step"], "action": action})
            assert r.status_code in (200, 202), r.get_json()
            # A sealed answer is made before the step resolves; an applied one after the order.
            checked["texts"] += (secrets if r.status_code == 202
                                 else Secrets(store, gid, seat)).check(r)
            checked["responses"] += 2
            progressed = True
            if turn == 30:
                control = secrets
        if turn % 12 == 0 or not progressed:
            for seat in SEATS:
                look(seat, players[seat], every_path=not progressed)
            look(None, watcher)
        if not progressed and store.game(gid).status == "active":
            client.show_held_move(gid, players.values())  # a move held from the next seat
            continue
        if not progressed:
            finished = store.game(gid).status == "finished"
            break
    assert finished
    # The check was not vacuous: it looked for secrets, sealed orders and views on the way...
    assert checked["texts"] > 1000 and checked["sealed"] > 0 and checked["views"] > 20
    # ...and it would have caught the raw state.
    assert control.leaks(control.raw)
    # Once the game is over, the seed and the whole log are public.
    log = client.get(f"/games/{gid}/log", players["kennedy"]).get_json()
    assert log["seed"] == seed and log["complete"]

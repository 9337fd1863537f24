"""Helpers for the API tests: players with tokens, a game set up through the API, random play."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from engine.core import from_dict
from sqlalchemy import update
from sqlmodel import Session, func, select

from server.models import Game, LogEntry, Order, OutboxMessage
from server.services import games as svc

API = "/api/v1"
PROBLEM = "application/problem+json"


@dataclass
class Player:
    id: int
    email: str
    token: str

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}


class Client:
    """Flask's test client with the API prefix and a player's token."""

    def __init__(self, test_client):
        self.tc = test_client

    def get(self, path, player: Player | None = None, **kwargs):
        return self.tc.get(API + path, headers=self._headers(player, kwargs), **kwargs)

    def delete(self, path, player: Player | None = None, **kwargs):
        return self.tc.delete(API + path, headers=self._headers(player, kwargs), **kwargs)

    def post(self, path, player: Player | None = None, json=None, **kwargs):
        return self.tc.post(API + path, headers=self._headers(player, kwargs), json=json,
                            **kwargs)

    @staticmethod
    def _headers(player, kwargs) -> dict:
        headers = dict(kwargs.pop("headers", None) or {})
        if player is not None:
            headers.update(player.auth)
        return headers

    def show_held_move(self, gid: int, players) -> None:
        """Every player asks to see a move another may still take back (it is shown to nobody
        but its mover until then: services/held_view.py), as a player who does not wait for
        the hold does; seen, it is final."""
        for player in players:
            r = self.post(f"/games/{gid}/show-move", player)
            assert r.status_code == 200, r.get_json()

    def signup(self, email: str, name: str = "", proven: bool = True) -> Player:
        """A player with an API token, as the sign-up gives one: POST /users mails a link to
        the address, whose page (the address proven) makes the token. The mail's round trip
        is tested in tests/security/test_proven_addresses.py; here the account and its token
        are made as that page makes them (``proven=False``: an address nobody has proven)."""
        from server.services import users
        app = self.tc.application
        with app.app_context(), Session(app.extensions["whistlestop.db"]) as session:
            user = users.create_user(session, email, name or email.split("@")[0])
            if proven:
                users.prove_address(session, user)
                session.commit()
            token = users.issue_token(session, user.id)
            return Player(user.id, user.email, token)

    def open_game(self, creator: Player, seats: dict, public: bool = False,
                  options: dict | None = None, game_type: str = "tmotp",
                  start_by_hand: bool = False) -> dict:
        r = self.post("/games", creator, json={"game_type": game_type, "seats": seats,
                                               "options": options or {}, "public": public,
                                               "start_by_hand": start_by_hand})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def two_player_game(self, store: Store, a: Player, b: Player, *, seed: str | None = None,
                        public: bool = False, options: dict | None = None) -> int:
        """a (kennedy) opens, b (nixon) joins by email, a starts; with ``seed`` fixed first."""
        gid = self.open_game(a, {"kennedy": a.email, "nixon": b.email}, public,
                             options)["game"]["id"]
        if seed is not None:
            store.set_seed(gid, seed)
        assert self.post(f"/games/{gid}/join", b, json={}).status_code == 200
        r = self.post(f"/games/{gid}/start", a)
        assert r.status_code == 200, r.get_json()
        return gid


class Store:
    """Direct reads and set-ups on the app's database; every call is its own short transaction,
    so the test never holds SQLite's write lock while the app works."""

    def __init__(self, engine):
        self.engine = engine

    def session(self) -> Session:
        return Session(self.engine)

    def set_seed(self, gid: int, seed: str) -> None:
        """Fix an open game's seed (before it starts) so that a test is reproducible."""
        with self.session() as s:
            s.execute(update(Game).where(Game.id == gid, Game.status == "open")
                      .values(seed=seed, seed_hash=hashlib.sha256(seed.encode()).hexdigest()))
            s.commit()

    def game(self, gid: int) -> Game:
        """The game row (detached)."""
        with self.session() as s:
            game = s.get(Game, gid)
            s.expunge(game)
            return game

    def state(self, gid: int):
        """The game's engine state with its whole history (log and notes from their rows)."""
        with self.session() as s:
            return svc.whole_state(s, s.get(Game, gid))

    def pending_orders(self, gid: int) -> dict[str, list[str]]:
        """{seat: actions} of the sealed orders of the game's current step."""
        with self.session() as s:
            step = s.get(Game, gid).step
            return {o.seat: list(o.actions) for o in s.exec(select(Order).where(
                Order.game_id == gid, Order.step == step, Order.status == "pending")).all()}

    def count(self, model, gid: int | None = None) -> int:
        with self.session() as s:
            q = select(func.count()).select_from(model)
            if gid is not None:
                q = q.where(model.game_id == gid)
            return s.exec(q).one()

    def snapshot(self, gid: int):
        """Everything an order could change (the idempotency table aside)."""
        with self.session() as s:
            g = s.get(Game, gid)
            orders = sorted((o.step, o.seat, tuple(o.actions), o.status) for o in s.exec(
                select(Order).where(Order.game_id == gid)).all())
            logs = s.exec(select(func.count()).select_from(LogEntry)
                          .where(LogEntry.game_id == gid)).one()
            outbox = s.exec(select(func.count()).select_from(OutboxMessage)).one()
            return (g.step, g.status, json.dumps(g.state, sort_keys=True), logs, orders, outbox)

    def rebuild(self, gid: int) -> bool:
        with self.session() as s:
            return svc.rebuild(s, gid)

    def advance_until(self, gid: int, predicate, seed: int = 1, limit: int = 3000):
        """Play random decisions through the service until ``predicate(state)``; return it."""
        rng = random.Random(seed)
        for _ in range(limit):
            state = self.state(gid)
            if predicate(state):
                return state
            with self.session() as s:
                _play_one(s, gid, rng)
        raise AssertionError("the game never reached the position")


def _play_one(session: Session, gid: int, rng: random.Random) -> None:
    """Take one decision with random legal actions through the service."""
    game = session.get(Game, gid)
    state, step = from_dict(game.state), game.step
    active = state.active()
    assert active, "the game is over"
    if len(active) == 1:
        svc.submit_order(session, gid, active[0], step,
                         [rng.choice(state.legal_actions(active[0]))], by_player=False)
        return
    sealed = {o.seat for o in session.exec(select(Order).where(
        Order.game_id == gid, Order.step == step, Order.status == "pending")).all()}
    for seat in active:
        if seat not in sealed:
            svc.submit_order(session, gid, seat, step, [rng.choice(state.legal_actions(seat))],
                             by_player=False)
    assert svc.resolve_step(session, gid, step)


def real_simultaneous(state) -> bool:
    """A simultaneous step where both seats have a real choice."""
    active = state.active()
    return len(active) > 1 and all(len(state.legal_actions(s)) > 1 for s in active)


def sequential_choice(state) -> bool:
    """One seat must choose among several actions."""
    active = state.active()
    return len(active) == 1 and len(state.legal_actions(active[0])) > 1


def other(seat: str) -> str:
    return "nixon" if seat == "kennedy" else "kennedy"


def is_problem(response, status: int) -> dict:
    """Assert a problem+json answer with this status; return its body."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["status"] == status
    assert body["title"] and body["detail"] and body["type"]
    assert "Traceback" not in response.get_data(as_text=True)
    return body

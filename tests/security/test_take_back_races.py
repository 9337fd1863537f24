"""Issue 45, M3: "seen" and "taken back" are serialized, on SQLite and on PostgreSQL. A held
move shown to the next player (``POST /api/v1/games/{id}/show-move``, the game page's
"Show the move" and its view beacon, ``POST /games/{id}/seen``) is final: its mover can no
longer take it back. The attack: show the move and take it back at the same moment. The next
player must never be shown a move that is then taken back, no answer is a 5xx, and every
answer is read in one snapshot (the state fits the log).

Two tests: one interleaving made to happen (the take back paused inside its transaction, after
it found the move unseen, until the show either finished or waits for it), and many
simultaneous tries."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text, update

from server import db
from server.models import Game, User
from server.services import retract as retract_service
from tests.server.api.conftest import both_databases, running_app  # noqa: F401
from tests.server.api.helpers import Client, other
from tests.server.api.test_retract import _retractable_action, at_retractable
from tests.web.pages_helpers import Reader, csrf

WAIT = 60  # seconds: a bound on waiting for a condition, never a pause


@pytest.fixture
def app(tmp_path, both_databases):
    """These tests run on SQLite and on PostgreSQL."""
    with running_app(tmp_path, both_databases) as app:
        yield app


def _holds(store, players, seconds: int) -> None:
    with store.session() as s:
        s.execute(update(User).where(User.id.in_([p.id for p in players.values()]))
                  .values(retract_hold_seconds=seconds))
        s.commit()


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}"
        time.sleep(0.005)


def _move(client, store, players, gid, seat, action) -> int:
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"], r.get_json()
    return r.get_json()["step"]


def _show(channel: str, client, readers, players, gid: int, seat: str, step: int):
    """The next player shows the held move (``step``: the step it led to); (status, whether
    the answer showed them the move)."""
    them = other(seat)
    if channel == "api":
        r = client.post(f"/games/{gid}/show-move", players[them])
        body = r.get_json(silent=True) or {}
        return r.status_code, body.get("step") == step and body.get("held_until") is None
    browser, page = readers[them]
    r = browser.client.post(f"/games/{gid}/seen", data={"csrf_token": csrf(page),
                                                        "step": step, "show": "1"})
    if r.status_code != 303:
        return r.status_code, False
    page = browser.get(f"/games/{gid}")
    shown = page.data.decode()
    return page.status_code, ('id="held"' not in shown
                              and f'data.append("step", "{step}")' in shown)


def _readers(app, mail_server, players) -> dict:
    readers = {}
    for seat, player in players.items():
        browser = Reader(app, mail_server, player.email)
        browser.sign_in()
        readers[seat] = [browser, None]
    return readers


def _page(readers, seat, gid):
    browser = readers[seat][0]
    readers[seat][1] = browser.get(f"/games/{gid}").data.decode()


def _waiting_for_a_lock(engine) -> bool:
    """Whether a PostgreSQL transaction waits for a row lock (the show, for the take back's)."""
    with engine.connect() as connection:
        return connection.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'")).scalar_one() > 0


@pytest.mark.parametrize("channel", ["api", "page"])
def test_a_move_shown_while_its_take_back_is_under_way_is_not_taken_back(
        app, client, store, players, mail_server, monkeypatch, channel):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="m3")
    _holds(store, players, 0)
    _state, seat, action = at_retractable(store, gid)
    _holds(store, players, 900)
    readers = _readers(app, mail_server, players) if channel == "page" else None
    step = _move(client, store, players, gid, seat, action)
    if readers:
        _page(readers, other(seat), gid)
    engine = store.engine
    postgresql = engine.dialect.name == "postgresql"
    shown, taken, begun, started = {}, {}, threading.Event(), []
    showing = threading.Thread(target=lambda: shown.update(
        answer=_show(channel, Client(app.test_client()), readers, players, gid, seat, step)))

    # SQLite: a writer waits for the lock at its BEGIN IMMEDIATE (server/db.py), so the show
    # waits for the take back once it has begun one.
    begin_immediate = db.begin_immediate

    def begin(driver):
        if threading.current_thread() is showing:
            begun.set()
        return begin_immediate(driver)

    monkeypatch.setattr(db, "begin_immediate", begin)
    seen = retract_service._seen

    def paused(session, game, row):
        """The take back has found the move unseen: the next player shows it now."""
        unseen = seen(session, game, row)
        if threading.current_thread() is taking and not started:
            started.append(showing)
            showing.start()
            _wait_for(lambda: not showing.is_alive()
                      or (_waiting_for_a_lock(engine) if postgresql else begun.is_set()),
                      "the show to finish or to wait for the take back")
        return unseen

    monkeypatch.setattr(retract_service, "_seen", paused)
    taking = threading.Thread(target=lambda: taken.update(answer=client.post(
        f"/games/{gid}/retract", players[seat], json={"step": step})))
    taking.start()
    taking.join(WAIT)
    showing.join(WAIT)
    assert not taking.is_alive() and not showing.is_alive()
    status, was_shown = shown["answer"]
    retracted = taken["answer"].status_code == 200
    assert status < 500 and taken["answer"].status_code < 500
    assert not (was_shown and retracted), "shown to the next player, then taken back"
    assert was_shown or retracted
    assert store.rebuild(gid)


TRIES = 60


@pytest.mark.parametrize("channel", ["api", "page"])
def test_simultaneous_shows_and_take_backs_never_both_succeed(app, client, store, players,
                                                              mail_server, channel):
    readers = _readers(app, mail_server, players) if channel == "page" else None
    gid, outcomes = None, {"shown": 0, "taken back": 0}
    for attempt in range(TRIES):
        _holds(store, players, 0)
        state = store.state(gid) if gid is not None else None
        if state is None or not state.active():
            gid = client.two_player_game(store, players["kennedy"], players["nixon"],
                                         seed=f"m3-race-{attempt}")
            state = None
        active = state.active() if state is not None else []
        if len(active) == 1 and _retractable_action(state, active[0]) is not None:
            seat, action = active[0], _retractable_action(state, active[0])
        else:
            _state, seat, action = at_retractable(store, gid)
        _holds(store, players, 900)
        step = _move(client, store, players, gid, seat, action)
        if readers:
            _page(readers, other(seat), gid)
        answers, barrier = {}, threading.Barrier(2)

        def show():
            barrier.wait(WAIT)
            answers["show"] = _show(channel, Client(app.test_client()), readers, players, gid,
                                    seat, step)

        def take_back():
            barrier.wait(WAIT)
            r = Client(app.test_client()).post(f"/games/{gid}/retract", players[seat],
                                               json={"step": step})
            answers["retract"] = r.status_code, r.get_json(silent=True) or {}

        threads = [threading.Thread(target=show), threading.Thread(target=take_back)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(WAIT)
        assert not any(t.is_alive() for t in threads)
        (shown_status, shown), (retract_status, retract_body) = answers["show"], \
            answers["retract"]
        assert shown_status < 500 and retract_status < 500, answers
        retracted = retract_status == 200
        if not retracted:
            assert retract_status == 409 and retract_body.get("code") == "seen", answers
        assert shown != retracted, (attempt, answers)  # exactly one of the two, never both
        outcomes["shown" if shown else "taken back"] += 1
        assert store.rebuild(gid)
        with store.session() as s:
            assert s.get(Game, gid).step == (step if shown else step + 1)
    assert sum(outcomes.values()) == TRIES


@pytest.fixture
def postgresql_app(tmp_path, postgres_url):
    """The app on PostgreSQL only: SQLite's writers hold the database's lock, so there a take
    back cannot commit between two reads of an answer."""
    db.migrate(postgres_url)
    with running_app(tmp_path, postgres_url) as app:
        yield app


def test_an_answer_read_while_a_take_back_commits_is_one_snapshot(postgresql_app, mail_server,
                                                                  monkeypatch):
    """A spectator's "follow" answers the game as it was or as it is, never the state of one
    and the log of the other (a 500: "The history does not fit the state")."""
    from tests.server.api.helpers import Store
    app = postgresql_app
    client, store = Client(app.test_client()), Store(app.extensions["whistlestop.db"])
    players = {"kennedy": client.signup("ann@example.org", "Ann"),
               "nixon": client.signup("bob@example.org", "Bob")}
    eve = client.signup("eve@example.org", "Eve")
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="m3-read",
                                 public=True)
    _holds(store, players, 0)
    _state, seat, action = at_retractable(store, gid)
    _holds(store, players, 900)
    step = _move(client, store, players, gid, seat, action)
    open_hold, taken = retract_service.open_hold, []

    def taken_back_meanwhile(session, game, now=None):
        """The answer has read the game: the mover takes the move back now."""
        if not taken:
            with store.session() as other_session:
                taken.append(retract_service.retract(other_session, gid, seat, step))
        return open_hold(session, game, now)

    monkeypatch.setattr(retract_service, "open_hold", taken_back_meanwhile)
    r = client.post(f"/games/{gid}/spectate", eve)
    assert taken and r.status_code == 200, r.get_data(as_text=True)[:2000]
    assert r.get_json()["step"] == step - 1  # the game as it was when the answer was read
    monkeypatch.undo()
    after = client.get(f"/games/{gid}", eve).get_json()
    assert after["step"] == step + 1 and after["held_until"] is None
    assert store.rebuild(gid)

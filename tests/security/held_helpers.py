"""A move held from the other seat (issue 27: it may still be taken back), set up through the
API for the attacks of issue 45 (H1, M6) and the channel walk: what the other seat must not
learn while the hold is open, and how to reach it on each channel."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import Session, select

from server import db
from server.i18n import game_text
from server.mail import replies, reply_address
from server.mail.recipients import MailSettings
from server.models import Game, Retractable
from server.services import calendar_feed
from server.services import games as svc
from tests.server.api.conftest import both_databases, running_app  # noqa: F401
from tests.server.api.helpers import other
from tests.server.api.test_retract import at_retractable
from tests.task_queue import queued


@pytest.fixture
def db_app(tmp_path, both_databases):  # noqa: F811
    """The app on SQLite, then on PostgreSQL (the hold's row read by the order service)."""
    with running_app(tmp_path, both_databases, live_streams=True) as app:
        yield app


@dataclass
class Held:
    """A move of ``mover`` that ``waiting`` (the next seat) must not learn while it is held."""
    gid: int
    mover: str  # its seat
    waiting: str  # the other seat
    action: str  # the held move
    seen_step: int  # the step the other seat sees (the move's own)
    real_step: int  # the game's step after it
    real_prompt: str  # the other seat's real decision, in English
    real_legal: list[str]  # its legal actions


def hold(client, store, players, gid: int, seed: int = 3) -> Held:
    """Play until a retractable move, make it through the API (held: default 120 s)."""
    _state, seat, action = at_retractable(store, gid)
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"], r.get_json()
    state = store.state(gid)
    waiting = other(seat)
    assert state.active() == [waiting]
    with store.session() as s:
        assert s.exec(select(Retractable).where(Retractable.game_id == gid)).first()
    return Held(gid, seat, waiting, action, step, step + 1,
                game_text.text(state.prompt(waiting), "en", "tmotp"),
                [str(a) for a in state.legal_actions(waiting)])


def secret_words(held: Held) -> list[str]:
    """What only the held move shows the other seat: its real decision's prompt (it names the
    card played) and the move's own notation."""
    return [held.real_prompt, held.action]


def assert_hidden(text: str, held: Held, where: str) -> None:
    for word in secret_words(held):
        assert word not in text, f"{where} shows {word!r}"


def calendar_url(app, user_id: int) -> str:
    with app.app_context(), Session(app.extensions["whistlestop.db"]) as s:
        calendar_feed.renew(s, user_id)
        s.commit()
        url = calendar_feed.url(s, user_id, app.config["SECRET_KEY"], app.config["BASE_URL"])
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


UID = re.compile(r"UID:game-(\d+)-step-(\d+)")


def mail_order(app, player, gid: int, seat: str, body: str) -> str | None:
    """A reply of ``player`` to the seat's reply address without thread headers (a fresh mail:
    read at the step the seat may see), handled as the reply task does."""
    msg = EmailMessage()
    msg["From"] = player.email
    msg["To"] = reply_address.address(app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"],
                                      gid, seat, player.id)
    msg["Subject"] = "my order"
    msg.set_content(f"{body}\n")
    with app.app_context():
        engine = db.get_engine()
        with queued(Path(app.config["VAR_DIR"]) / "replies-queue"), Session(engine) as s:
            inbound = replies.receive(s, bytes(msg), "smtp")
        return replies.handle(engine, inbound, None, MailSettings.from_config(app.config))


def game_step(store, gid: int) -> int:
    with store.session() as s:
        return s.get(Game, gid).step


def log_length(store, gid: int) -> int:
    with store.session() as s:
        return len(svc.log_of(s, gid))

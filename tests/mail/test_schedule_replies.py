"""Pauses and extensions by reply (issue 27, item 4): "extend" asks for more time, "extend
yes" from the other player grants it, and a second ask is refused by a reply saying why;
"pause" / "pause no"; a reply of these lines is never taken for an order."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from server import db
from server.mail import reply_address
from server.models import Extension, Game, GamePause, aware
from tests.mail.test_replies import (answers, app, game, handle, reply,  # noqa: F401
                                     state_of)


def _as_other(app, game, smtp_catcher):
    other = "nixon" if game["seat"] == "kennedy" else "kennedy"
    mails = smtp_catcher.to(game["email"][other])
    return {**game, "seat": other, "mail": mails[-1],
            "address": reply_address.address(app.config["SECRET_KEY"],
                                             app.config["MAIL_DOMAIN"], game["id"], other,
                                             game["user"][other])}


def _deadline(game):
    with Session(db.get_engine()) as s:
        return aware(s.get(Game, game["id"]).deadline_at)


def test_extend_by_reply_granted_by_reply_and_once_only(app, game, smtp_catcher):
    before, played = _deadline(game), state_of(game)
    assert handle(app, reply(game, "extend")) == "order"
    assert state_of(game) == played  # not an order
    other = _as_other(app, game, smtp_catcher)
    assert "asks for more time" in other["mail"].get_body(("plain",)).get_content()
    assert handle(app, reply(other, "Extend yes")) == "order"
    assert _deadline(game) == before + timedelta(hours=72)
    with Session(db.get_engine()) as s:
        assert s.exec(select(Extension.status)).one() == "granted"
    assert handle(app, reply(game, "extend")) == "order"
    # the asker is answered twice: the ask confirmed (issue 46, item 3), then the refusal
    asked, refusal = answers(smtp_catcher, game)
    assert "You have used your one extension in this game." not in asked
    assert "You have used your one extension in this game." in refusal
    assert state_of(game) == played


def test_pause_refused_by_reply(app, game, smtp_catcher):
    assert handle(app, reply(game, "pause")) == "order"
    other = _as_other(app, game, smtp_catcher)
    assert handle(app, reply(other, "pause no")) == "order"
    with Session(db.get_engine()) as s:
        assert s.exec(select(GamePause.status)).one() == "refused"
    told = [m for m in smtp_catcher.to(game["email"][game["seat"]])
            if "refused the pause" in m.get_body(("plain",)).get_content()]
    assert len(told) == 1

"""Issue 48, item 1: mail makes no account. With the club members-only (and, as before, with
it open) a mail from a stranger, to a game's reply address or to the club's, is kept and
never answered to the stranger: no account is made."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from server import db
from server.models import User
from tests.mail.test_replies import app, game, handle, reply  # noqa: F401  (fixtures)

STRANGER = "someone@elsewhere.example"


def emails() -> list[str]:
    with Session(db.get_engine()) as s:
        return sorted(u.email for u in s.exec(select(User)).all())


@pytest.mark.parametrize("open_signup", [False, True])
def test_a_strangers_mail_makes_no_account(app, game, smtp_catcher, open_signup):
    app.config["OPEN_SIGNUP"] = open_signup
    before = emails()
    forged = game["address"].replace(game["address"].split("-")[-1].split("@")[0], "0" * 24)
    for to in (game["address"], forged, "games@whistlestop.localhost"):
        assert handle(app, reply(game, game["legal"][0], to=to, sender=STRANGER)) in (
            "unknown", "foreign", None)
    assert emails() == before and STRANGER not in emails()
    assert smtp_catcher.to(STRANGER) == []    # (the seat's owner may be told: reply_foreign)

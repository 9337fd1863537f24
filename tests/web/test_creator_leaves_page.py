"""The open game's page after its creator deleted their account (issue 27): the player who
joined first is told the game is theirs now and gets the creator's buttons; others read who
holds it."""

from __future__ import annotations

from sqlmodel import Session, select

from server.models import User
from server.services import account_deletion
from tests.web.pages_helpers import db_engine


def test_the_open_game_s_page_tells_who_holds_it_now(app, jack, dick, lyndon):
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp", "opponent": dick.email,
                                                "seat": "kennedy", "edition": "gmt",
                                                "public": "on", "start_by_hand": "on"})
    assert answer.status_code == 303, answer.data[:800]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert dick.post_form(f"/games/{gid}", f"/games/{gid}/join", {}).status_code == 303
    before = dick.get(f"/games/{gid}").get_data(as_text=True)
    assert "deleted their account" not in before and "Make a new invitation code" not in before
    with Session(db_engine(app)) as session:
        user = session.exec(select(User).where(User.email == jack.email)).one()
        account_deletion.delete_account(session, user.id, jack.email, hand_over=True)
    page = dick.get(f"/games/{gid}").get_data(as_text=True)
    assert "the game passed to you" in page and "Make a new invitation code" in page
    other = lyndon.get(f"/games/{gid}").get_data(as_text=True)
    assert "deleted their account; it passed to" in other
    assert "Make a new invitation code" not in other

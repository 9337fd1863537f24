"""The game page's "Take back" (issue 27, item 3): after a retractable move the mover's page
offers it with the time left; pressing it gives the decision back and the held mail is never
sent; once the next player's page has been seen (its own POST beacon), the move is final and
the button is gone; the other player's page never shows the move taken back."""

from __future__ import annotations

from sqlmodel import select

from server.models import OutboxMessage, Retractable
from tests.server.api.test_retract import at_retractable
from tests.web.pages_helpers import new_game

OTHER = {"kennedy": "nixon", "nixon": "kennedy"}


def held_move(store, gid, readers):
    """Play until the page's order of a seat is held; (mover, other, step after the move,
    the action)."""
    for _ in range(20):
        _state, seat, action = at_retractable(store, gid)
        step = store.game(gid).step
        mover = readers[seat]
        answer = mover.post_form(f"/games/{gid}", f"/games/{gid}/order",
                                 {"step": str(step), "lines": action})
        assert answer.status_code == 303, answer.data[:600]
        with store.session() as s:
            row = s.exec(select(Retractable).where(Retractable.game_id == gid,
                                                   Retractable.step == step)).first()
        if row is not None:
            return mover, readers[OTHER[seat]], step + 1, action
    raise AssertionError("no held move")


def test_take_back_on_the_page(app, store, jack, dick, smtp_catcher):
    gid = new_game(jack, dick)
    mover, other, step, action = held_move(store, gid, {"kennedy": jack, "nixon": dick})
    page = mover.get(f"/games/{gid}").data.decode()
    assert 'id="take-back"' in page and "seconds left" in page
    assert 'id="take-back"' not in other.get(f"/games/{gid}").data.decode()
    mails = len(smtp_catcher.to(other.email))
    back = mover.post_form(f"/games/{gid}", f"/games/{gid}/retract", {"step": str(step)})
    assert back.status_code == 303 and back.headers["Location"].endswith("done=retracted")
    page = mover.get(back.headers["Location"]).data.decode()
    assert 'id="retracted"' in page and "Your move" in page
    assert 'id="take-back"' not in page  # taken back: nothing left to take back
    with store.session() as s:
        assert [r for r in s.exec(select(OutboxMessage)).all()
                if r.payload.get("game_id") == gid and r.not_before is not None
                and r.payload.get("step") == step] == []
    assert len(smtp_catcher.to(other.email)) == mails  # the held mail never went
    assert store.rebuild(gid)


def test_final_once_the_next_player_saw_the_page(app, store, jack, dick):
    gid = new_game(jack, dick)
    mover, other, step, _action = held_move(store, gid, {"kennedy": jack, "nixon": dick})
    # The other player's page is shown: its own POST tells the server it was seen.
    seen = other.post_form(f"/games/{gid}", f"/games/{gid}/seen", {"step": str(step)})
    assert seen.status_code == 204
    page = mover.get(f"/games/{gid}").data.decode()
    assert 'id="take-back"' not in page
    refused = mover.post_form(f"/games/{gid}", f"/games/{gid}/retract", {"step": str(step)})
    assert refused.status_code == 409
    assert "already seen it" in refused.data.decode()
    assert store.game(gid).step == step
    # Without the page's token nothing happens.
    assert other.client.post(f"/games/{gid}/retract", data={"step": str(step)}).status_code \
        in (400, 403)


def test_the_hold_is_a_setting_of_the_signed_in_page(app, store, jack):
    page = jack.get("/me/mail").data.decode()
    assert 'id="retract_hold_seconds"' in page and 'value="120"' in page
    saved = jack.post_form("/me/mail", "/me/mail", {"action": "settings", "mail_mode": "every",
                                                    "locale": "en",
                                                    "retract_hold_seconds": "30"})
    assert saved.status_code == 200
    with store.session() as s:
        from server.models import User
        assert s.exec(select(User.retract_hold_seconds)
                      .where(User.email == jack.email)).one() == 30
    refused = jack.post_form("/me/mail", "/me/mail", {"action": "settings",
                                                      "mail_mode": "every", "locale": "en",
                                                      "retract_hold_seconds": "a minute"})
    text = refused.data.decode()
    assert refused.status_code == 400 and "from 0 to 900" in text
    assert 'value="a minute"' in text  # the form kept as typed
    with store.session() as s:
        assert s.exec(select(User.retract_hold_seconds)
                      .where(User.email == jack.email)).one() == 30

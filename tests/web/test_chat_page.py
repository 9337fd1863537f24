"""Table talk on the game page, the lobby and the replay (issue 27, item 1): a line posted by
the page's form is shown escaped with its author, the own line marked; a refusal keeps the text
typed with the reason; a spectator never sees the players' chat while the game runs, nor a
muter the muted; the lobby counts unread lines; the replay shows both chats after the end; and
in Chromium at 390x844 a line is posted and seen, with axe clean."""

from __future__ import annotations

import re

from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session, select

from server.models import ChatMessage, Game, User
from server.services import chat, lobby
from server.services import games as svc
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import ARTIFACTS, LiveServer, browser  # noqa: F401  (fixture)
from tests.web.pages_helpers import Reader, db_engine, new_game
from tests.web.test_browser_game import sign_in
from tests.web.test_page_sweep import VIEWPORTS, problems

SCRIPT = "<script>alert('x')</script>"


def _say(reader, gid, text, channel="players"):
    return reader.post_form(f"/games/{gid}", f"/games/{gid}/chat",
                            {"channel": channel, "body": text})


def _section(page: str) -> str:
    found = re.search(r'<section id="table-talk".*?</section>', page, re.S)
    return found.group(0) if found else ""


def test_a_line_posted_on_the_page_is_shown_escaped(app, jack, dick):
    gid = new_game(jack, dick, public="on", spectator_chat="on")
    answer = _say(jack, gid, f"Hello {SCRIPT}")
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#table-talk")
    mine = _section(jack.get(f"/games/{gid}").data.decode())
    assert "Hello &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in mine and SCRIPT not in mine
    assert "(you)" in mine and 'class="chat-line mine"' in mine
    theirs = _section(dick.get(f"/games/{gid}").data.decode())
    assert "Hello &lt;script&gt;" in theirs and "(you)" not in theirs
    assert 'for="chat-body-players"' in theirs and ">Post message</button>" in theirs
    assert "Report this message of" in theirs and "Mute " in theirs
    # The lobby counts what Dick has not read; a mark-read POST clears it.
    assert "1 unread messages" in dick.get("/").data.decode()
    through = re.search(r'name="through" value="(\d+)"', theirs).group(1)
    dick.post_form(f"/games/{gid}", f"/games/{gid}/chat/read",
                   {"channel": "players", "through": through, "quiet": "1"})
    assert "unread messages" not in dick.get("/").data.decode()


def test_a_refused_line_keeps_the_text_and_says_why(app, jack, dick):
    gid = new_game(jack, dick)
    long = "word " * 900
    answer = _say(jack, gid, long)
    assert answer.status_code == 422
    page = answer.data.decode()
    assert "Your message was not sent" in page and "most is 4000" in page
    assert f">{long}</textarea>" in page  # the text as typed, kept
    assert _say(jack, gid, "   ").status_code == 422
    forged = jack.client.post(f"/games/{gid}/chat", data={"body": "hi", "csrf_token": "x"})
    assert forged.status_code == 400
    with Session(db_engine(app)) as s:
        assert s.exec(select(ChatMessage)).all() == []


def test_spectators_and_muted_authors_never_show(app, jack, dick, smtp_catcher):
    gid = new_game(jack, dick, public="on", spectator_chat="on")
    wendy = Reader(app, smtp_catcher, "wendy@example.org")
    wendy.sign_in()
    assert wendy.post_form(f"/games/{gid}", f"/games/{gid}/follow", {}).status_code in (200, 303)
    _say(jack, gid, "secret: Ohio next")
    assert _say(wendy, gid, "Kennedy looks tired", "spectators").status_code == 303
    assert _say(wendy, gid, "let me in", "players").status_code == 403
    spectator = wendy.get(f"/games/{gid}").data.decode()
    assert "secret: Ohio" not in spectator and "Kennedy looks tired" in _section(spectator)
    assert "Spectators&#39; chat" in spectator
    player = dick.get(f"/games/{gid}").data.decode()
    assert "Kennedy looks tired" not in player and "secret: Ohio" in player
    # Dick mutes Jack: Jack's lines leave Dick's page; unmuting brings them back.
    with Session(db_engine(app)) as s:
        jack_id = s.exec(select(User.id).where(User.email == jack.email)).one()
    dick.post_form(f"/games/{gid}", f"/games/{gid}/chat/mute", {"user_id": str(jack_id)})
    muted = dick.get(f"/games/{gid}").data.decode()
    assert "secret: Ohio" not in muted and "Unmute" in muted
    dick.post_form(f"/games/{gid}", f"/games/{gid}/chat/mute",
                   {"user_id": str(jack_id), "muted": "0"})
    assert "secret: Ohio" in dick.get(f"/games/{gid}").data.decode()
    # The page's poll tells only ids, and only of the reader's own channel.
    newest = wendy.get(f"/games/{gid}/chat/newest").get_json()["newest"]
    assert list(newest) == ["spectators"]


def test_the_replay_shows_both_chats_after_the_end(app, jack, dick, smtp_catcher):
    gid = new_game(jack, dick, public="on", spectator_chat="on")
    wendy = Reader(app, smtp_catcher, "wendy@example.org")
    wendy.sign_in()
    wendy.post_form(f"/games/{gid}", f"/games/{gid}/follow", {})
    assert _say(jack, gid, "good luck").status_code == 303
    assert _say(wendy, gid, "go Nixon", "spectators").status_code == 303
    assert dick.get(f"/games/{gid}/replay").status_code == 404  # no replay in play
    with app.app_context(), Session(db_engine(app)) as s:
        jack_seat = lobby.seat_of(s, gid, s.exec(select(User.id).where(
            User.email == jack.email)).one())
        lobby.resign(s, gid, jack_seat)
    for reader in (dick, wendy):
        page = _section(reader.get(f"/games/{gid}/replay").data.decode())
        assert "Players&#39; table talk" in page and "Spectators&#39; chat" in page
        assert "good luck" in page and "go Nixon" in page
        assert "<textarea" not in page  # kept, not open to posting
    closed = _say(jack, gid, "rematch?")
    assert closed.status_code == 422 and "The game is over" in closed.data.decode()


def test_a_line_is_posted_and_seen_on_a_phone(tmp_path, api_db_url, smtp_catcher,
                                              browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        with LiveServer(app, port):
            context = browser.new_context(viewport=VIEWPORTS["phone"])
            page = context.new_page()
            sign_in(page, base, "jack@example.org", smtp_catcher)
            with app.app_context(), Session(app.extensions["whistlestop.db"]) as s:
                jack = s.exec(select(User).where(User.email == "jack@example.org")).one()
                other = User(email="bob@example.org", display_name="Bob")
                s.add(other)
                s.commit()
                gid = svc.create_game(s, "tmotp", {}, {"kennedy": jack.id, "nixon": other.id},
                                      seed="chat-phone").id
                chat.post(s, s.get(Game, gid), other, "players", "Hi Jack <b>bold</b>?")
                s.commit()
            page.goto(f"{base}/games/{gid}#table-talk")
            page.get_by_label("Your message (up to 4,000 characters)").fill(
                "Hello Bob, good luck!\nSecond line.")
            page.get_by_role("button", name="Post message").click()
            page.wait_for_selector("text=Your message was sent.")
            section = page.locator("#table-talk")
            text = section.inner_text()
            found = problems(page, Axe(), "table talk [phone]")
            sizes = page.evaluate("""() => {
              const s = document.getElementById('table-talk');
              const taps = [...s.querySelectorAll('button')].map(e => e.getBoundingClientRect().height);
              const box = s.getBoundingClientRect();
              return {tap: Math.min(...taps), right: box.right,
                      width: document.documentElement.clientWidth};
            }""")
            (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
            section.screenshot(path=str(ARTIFACTS / "screenshots" / "table-talk-phone.png"))
            context.close()
    assert "Hello Bob, good luck!" in text and "Hi Jack <b>bold</b>?" in text
    assert not found, "\n".join(found)
    assert sizes["tap"] >= 44 and sizes["right"] <= sizes["width"], sizes

"""The newcomer's paths (issue 26, items 6 and 7): an open seat's invitation code shown to the
game's creator once, with a share link another browser uses to take the seat (sign-in first);
the local mail page's links opening at the top level; the header's links; the game page's
opponent, resign with a confirmation, a log grouped by turn without repeated lines, a forced
single choice as information, no decision box after the end; Mr. President's committed count
and colour legend."""

from __future__ import annotations

import html
import re

from sqlmodel import Session

from server.models import Game
from tests.web.browser import browser  # noqa: F401  (fixture)
from tests.web.pages_helpers import Reader, csrf, db_engine, new_game, path_of

CODE = re.compile(r'class="invitation-code" value="([^"]+)"')
SHARE = re.compile(r'class="share-link" value="([^"]+)"')


def text(page) -> str:
    return html.unescape(page.decode() if isinstance(page, bytes) else page)


def test_an_open_seat_shows_its_code_once_and_a_new_code_replaces_it(app, jack, dick,
                                                                     smtp_catcher):
    created = jack.post_form("/", "/games/new", {"game_type": "tmotp", "seat": "kennedy"})
    assert created.status_code == 201, created.data[:800]
    gid = int(created.headers["Location"].rsplit("/", 1)[1])
    page = text(created.data)
    code = CODE.search(page).group(1)
    assert SHARE.search(page).group(1).endswith(f"/games/{gid}/join?code={code}")
    # Shown once: the game's page read again has no code, only the way to make a new one.
    again = text(jack.get(f"/games/{gid}").data)
    assert code not in again and "Make a new invitation code" in again
    # Nobody else may make one.
    stranger = Reader(app, smtp_catcher, "eve@example.org")
    stranger.sign_in()
    token = csrf(stranger.get("/").data)
    refused = stranger.client.post(f"/games/{gid}/code", data={"csrf_token": token,
                                                               "seat": "nixon"})
    assert refused.status_code in (403, 404) and b"invitation-code" not in refused.data
    # A new code: the old one stops working, the new one takes the seat.
    made = jack.post_form(f"/games/{gid}", f"/games/{gid}/code", {"seat": "nixon"})
    new = CODE.search(text(made.data)).group(1)
    assert made.status_code == 200 and new != code
    share = path_of(SHARE.search(text(made.data)).group(1))
    # The share link, signed out: sign in first, and come back to the code.
    signed_out = Reader(app, smtp_catcher, "dick@example.org")
    asked = text(signed_out.get(share).data)
    assert f'name="next" value="/games/{gid}/join?code={new}"' in asked
    # Signed in (a private game: the code alone lets dick see it), the join form holds it.
    shown = text(dick.get(share).data)
    assert f'value="{new}"' in shown
    old = dick.client.post(f"/games/{gid}/join", data={"csrf_token": csrf(shown), "code": code})
    assert old.status_code in (403, 404)
    took = dick.client.post(f"/games/{gid}/join", data={"csrf_token": csrf(shown), "code": new})
    assert took.status_code == 303
    # issue 47: the last seat taken, the game began by itself
    page = text(jack.get(f"/games/{gid}").data)
    assert "Start the game" not in page and "Playing against:" in page


def test_the_local_mail_page_opens_links_at_the_top_level(app, tmp_path):
    from tests.web.test_mailbox import _caught

    folder = tmp_path / "caught"
    app.config["MAIL_CATCHER_DIR"] = str(folder)
    name = _caught(folder, "Your move")
    client = app.test_client()
    framed = client.get(f"/mail/{name}/html")
    body = framed.get_data(as_text=True)
    assert body.startswith('<base target="_top">')
    policy = framed.headers["Content-Security-Policy"]
    assert "allow-top-navigation-by-user-activation" in policy
    assert "allow-scripts" not in policy and "allow-same-origin" not in policy
    assert "script-src 'none'" in policy
    page = client.get(f"/mail/{name}").get_data(as_text=True)
    frame = re.search(r'<iframe[^>]*sandbox="([^"]*)"', page).group(1)
    assert "allow-top-navigation-by-user-activation" in frame and "allow-scripts" not in frame


def test_the_game_page_names_the_opponent_links_help_and_settings_and_resigns(app, jack, dick):
    gid = new_game(jack, dick)
    page = text(jack.get(f"/games/{gid}").data)
    assert re.search(r'Playing against: <span class="nixon">Nixon</span>: “Player \d+”', page)
    assert 'href="/me/mail"' in page and "href=\"/help/notation/tmotp\"" in page and 'href="/"' in page
    assert 'id="decision-h"' in page and "Resign this game" in page
    # The log: turn headings, and a line noted twice in a row is shown once.
    assert re.search(r"<h3>Turn 1</h3>", page)
    # Without the confirmation: a page saying what to do, nothing changed.
    token = csrf(page)
    unconfirmed = jack.client.post(f"/games/{gid}/resign", data={"csrf_token": token})
    assert unconfirmed.status_code == 422 and b"Confirm first" in unconfirmed.data
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).status == "active"
    resigned = jack.client.post(f"/games/{gid}/resign", data={"csrf_token": token,
                                                               "confirm": "yes"})
    assert resigned.status_code == 303
    with Session(db_engine(app)) as s:
        game = s.get(Game, gid)
        assert game.status == "finished" and game.result["winner"] == "nixon"
    over = text(jack.get(f"/games/{gid}").data)
    assert "Game over" in over and "Kennedy resigned." in over
    assert 'id="decision-h"' not in over and "Nothing to decide now" not in over
    assert "Resign this game" not in over
    # A second resignation of the finished game: a page saying why, never a 5xx.
    again = jack.client.post(f"/games/{gid}/resign", data={"csrf_token": token,
                                                            "confirm": "yes"})
    assert again.status_code == 409 and b"Only a game in play" in again.data


def test_the_log_is_grouped_by_turn_without_repeated_lines(app, monkeypatch):
    from engine.core import play_random
    from server.i18n import game_text
    from server.web import board

    state = play_random("tmotp", "log-1")
    messages = state.view(None)["note_messages"]
    texts = game_text.texts(messages, "en", "tmotp")
    with app.test_request_context("/"):
        groups = board._log(messages, "en", "tmotp")
        assert sum(len(g["lines"]) for g in groups) == board.LOG_LINES
        monkeypatch.setattr(board, "LOG_LINES", 10_000)
        whole = board._log(messages, "en", "tmotp")
    headings = [g["heading"] for g in whole]
    assert headings[0] == "Election Day"  # newest first
    assert [h for h in headings if h and h.startswith("Turn")] == \
        [f"Turn {n}" for n in range(9, 0, -1)]
    assert "The Debates" in headings
    # What repeated: one note per cube placed ("Nixon adds issue support in Economy." twice
    # in a row); now one line saying how many times.
    repeats = sum(1 for a, b in zip(texts, texts[1:]) if a == b)
    lines = [line for g in whole for line in g["lines"]]
    assert repeats > 0 and len(lines) == len(texts) - repeats
    assert sum(line["times"] for line in lines) == len(texts)
    for group in whole:
        shown = [line["text"] for line in group["lines"]]
        assert all(a != b for a, b in zip(shown, shown[1:]))


def test_the_done_banner_says_what_was_drawn(app, jack, dick):
    gid = new_game(jack, dick)
    page = text(jack.get(f"/games/{gid}?done=applied&since=0").data)
    banner = re.search(r'<p class="done" role="status">(.*?)</p>', page, re.S).group(1)
    assert "Done: your order was played." in banner
    assert re.search(r"(Kennedy|Nixon) wins the initiative check\.", banner)
    assert "begins" not in banner  # only what chance drew
    plain = text(jack.get(f"/games/{gid}?done=applied").data)
    assert 'id="drawn"' not in plain


def test_a_forced_single_choice_is_information_not_a_choice(app, jack, dick, monkeypatch):
    from server.services import games

    gid = new_game(jack, dick)
    real = games.decision_for

    def one_choice(*args, **kw):
        decision = real(*args, **kw)
        return {**decision, "legal_actions": decision["legal_actions"][:1]}

    monkeypatch.setattr(games, "decision_for", one_choice)
    for reader in (jack, dick):
        page = text(reader.get(f"/games/{gid}").data)
        if 'id="forced"' in page:
            break
    else:
        raise AssertionError("no seat was asked")
    assert "Only one move is possible here:" in page
    assert 'type="radio" name="action"' not in page and "Go on" in page
    assert 'class="decision-form"' not in page


def test_three_candidates_count_of_three_and_the_colour_legend(app, jack, dick, lyndon):
    from tests.web.pages_helpers import new_mrpresident_game

    gid = new_mrpresident_game(jack, [dick, lyndon], edition="chalkboard")
    readers = {"p1": jack, "p2": dick, "p3": lyndon}
    page = text(jack.get(f"/games/{gid}").data)
    assert 'id="band-legend"' in page and "brown: 3 to 5 electoral votes" in page
    assert "red: 21 electoral votes or more" in page
    seen_first = False
    for _round in range(6):  # until a round where somebody laid first
        with Session(db_engine(app)) as s:
            game = s.get(Game, gid)
            state, step = game.state, game.step
        top = state["stack"][-1]
        asked = [x for x in top.get("seats", []) if state["hands"][x]]
        if top["step"] == "play" and state["plays"]:
            waiting = text(readers[asked[0]].get(f"/games/{gid}").data)
            assert "1 of 3 have committed." in waiting, waiting[:3000]
            assert "scored last round and laid first" in waiting
            seen_first = True
            break
        for seat in asked:
            hand = sorted(state["hands"][seat])  # Candidate 1 scores, and leads next round
            card = hand[-1] if seat == "p1" else hand[0]
            answer = readers[seat].post_form(f"/games/{gid}", f"/games/{gid}/order",
                                             {"step": step, "action": f"play {card}"})
            assert answer.status_code == 303, text(answer.data)[:2000]
    assert seen_first


def test_a_second_browser_takes_the_seat_by_the_share_link(tmp_path, api_db_url, smtp_catcher,
                                                           browser):
    """Real Chromium, two contexts: the creator sees the open seat's code and share link; the
    other, signed out, opens the link, signs in, and comes back to a form holding the code.
    The local mail page's link opens the game at the top level, signed in."""
    from tests.server.api.conftest import running_app
    from tests.services import free_port
    from tests.web.browser import LiveServer
    from tests.web.test_browser_game import sign_in
    from tests.web.pages_helpers import SIGN_IN_LINK

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        with LiveServer(app, port):
            jack_ctx, dick_ctx = browser.new_context(), browser.new_context()
            jack, dick = jack_ctx.new_page(), dick_ctx.new_page()
            sign_in(jack, base, "jack@example.org", smtp_catcher)
            jack.goto(base + "/")
            jack.get_by_role("form", name="New game of 1960: The Making of the President") \
                .get_by_role("button", name="Create the game").click()
            code = jack.get_by_label("Invitation code").input_value()
            share = jack.get_by_label("Share link").input_value()
            gid = int(re.search(r"/games/(\d+)", jack.url).group(1))
            assert jack.url == f"{base}/games/{gid}"  # a reload reads the game, posts nothing
            assert share == f"{base}/games/{gid}/join?code={code}"

            dick.goto(share)  # signed out: sign in first, then back to the code
            dick.get_by_label("Your email address").fill("dick@example.org")
            dick.get_by_role("button", name="Send me a sign-in link").click()
            dick.wait_for_selector("text=Check your mail")
            mail = smtp_catcher.wait_for_to("dick@example.org", 1)[-1]
            dick.goto(SIGN_IN_LINK.search(mail.get_body(("plain",)).get_content()).group(1))
            dick.get_by_role("button", name="Sign in").click()
            dick.wait_for_url(share)
            assert dick.get_by_label("Invitation code").input_value() == code
            dick.get_by_role("button", name="Join").click()
            dick.wait_for_url(f"{base}/games/{gid}")
            jack.goto(f"{base}/games/{gid}")    # it began when Dick took the last seat
            jack.wait_for_selector("#decision-h, #players")
            assert "Playing against:" in jack.content()

            # The local mail page: a link in the mail opens on top, where the session works.
            folder = tmp_path / "caught"
            app.config.update(MAIL_CATCHER=True, MAIL_CATCHER_DIR=str(folder))
            from email.message import EmailMessage
            import uuid
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = "games@ws.test", "jack@example.org", "Go"
            msg.set_content(f"{base}/games/{gid}")
            msg.add_alternative(f'<p><a href="{base}/games/{gid}">Open the game</a></p>',
                                subtype="html")
            name = uuid.uuid4().hex
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}.eml").write_bytes(bytes(msg))
            jack.goto(f"{base}/mail/{name}")
            jack.frame_locator("iframe").get_by_role("link", name="Open the game").click()
            jack.wait_for_url(f"{base}/games/{gid}")
            assert "Signed in as jack@example.org" in jack.content()
            jack_ctx.close()
            dick_ctx.close()

"""Issue 47 item 3 on the pages and in the mails: a display name asked at the first sign-in
(optional; a refusal keeps what was typed and says why in the reader's language), changed on
the settings page; until one is chosen, "Player <id>" everywhere, the sign-in mail's greeting
included (never the address's local part); ratings shown on OpenSkill's Elo-like scale (1500 a
newcomer, services/rating_scale.py) and explained on the ladder; the ladder linked from the
header, the result page (each player's change, before and after) and a player's page."""

from __future__ import annotations

import re

from sqlmodel import Session, select

from server.models import Seat, User
from tests.security.test_rating_farming import play
from tests.server.api.helpers import Store
from tests.web.pages_helpers import (Reader, csrf, db_engine, new_game, path_of,
                                     sign_in_link)

GREETING = re.compile(r"^(.*), ", re.M)


def _user(app, email: str) -> User:
    with Session(db_engine(app)) as s:
        return s.exec(select(User).where(User.email == email)).one()


def _ask_link(app, smtp_catcher, email: str, lang: str = "en"):
    """A new browser that asked for a sign-in mail; its link's path and the mail's text."""
    reader = Reader(app, smtp_catcher, email)
    before = len(smtp_catcher.to(email))
    headers = {"Accept-Language": lang}
    page = reader.client.get("/sign-in", headers=headers).get_data(as_text=True)
    answer = reader.client.post("/sign-in", headers=headers, data={
        "csrf_token": csrf(page), "email": email, "next": "/"})
    assert answer.status_code == 200, answer.data[:500]
    mail = smtp_catcher.wait_for_to(email, before + 1)[-1]
    return reader, path_of(sign_in_link(mail)), mail.get_body(("plain",)).get_content()


def test_the_sign_in_mail_never_greets_by_the_address(app, smtp_catcher):
    _reader, _link, text = _ask_link(app, smtp_catcher, "alice@example.org")
    user = _user(app, "alice@example.org")
    assert not text.lstrip().startswith("alice"), text[:200]
    assert text.lstrip().startswith(f"Player {user.id}, "), text[:200]


def test_a_name_is_asked_at_the_first_sign_in(app, smtp_catcher):
    reader, link, _text = _ask_link(app, smtp_catcher, "carol@example.org", "ja")
    page = reader.client.get(link).get_data(as_text=True)
    assert 'name="display_name"' in page and "表示名" in page
    # A refusal: the link is not used up, what was typed is kept, the reason in Japanese.
    refused = reader.client.post(link, data={"csrf_token": csrf(page),
                                             "display_name": "carol.example.org"})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422, body[:500]
    assert 'value="carol.example.org"' in body and "リンク" in body
    assert _user(app, "carol@example.org").display_name == ""
    entered = reader.client.post(link, data={"csrf_token": csrf(body),
                                             "display_name": " Carol  Lewis "})
    assert entered.status_code == 303, entered.data[:500]
    assert _user(app, "carol@example.org").display_name == "Carol Lewis"
    # Signed in with a name: the next sign-in does not ask again.
    _r, link, text = _ask_link(app, smtp_catcher, "carol@example.org")
    assert text.lstrip().startswith("Carol Lewis さん、")     # the account reads Japanese
    assert 'name="display_name"' not in reader.client.get(link).get_data(as_text=True)


def test_no_name_at_the_first_sign_in_is_fine(app, smtp_catcher):
    reader, link, _text = _ask_link(app, smtp_catcher, "dan@example.org")
    page = reader.client.get(link).get_data(as_text=True)
    entered = reader.client.post(link, data={"csrf_token": csrf(page), "display_name": ""})
    assert entered.status_code == 303
    assert _user(app, "dan@example.org").display_name == ""


def test_the_name_is_changed_in_the_settings(app, jack, dick):
    page = jack.get("/me/mail").get_data(as_text=True)
    uid = _user(app, jack.email).id
    assert 'id="display-name"' in page and f"Player {uid}" in page
    done = jack.post_form("/me/mail", "/me/mail", {"action": "name",
                                                   "display_name": "Jack K."})
    assert done.status_code == 200 and "Saved." in done.get_data(as_text=True)
    assert _user(app, jack.email).display_name == "Jack K."
    # A refusal in Spanish keeps what was typed and says why; nothing changed.
    page = jack.get("/me/mail", headers={"Accept-Language": "es"}).get_data(as_text=True)
    with Session(db_engine(app)) as s:      # the page's language is the account's
        user = s.get(User, uid)
        user.locale = "es"
        s.add(user)
        s.commit()
    refused = jack.client.post("/me/mail", data={"csrf_token": csrf(page), "action": "name",
                                                 "display_name": "Jack @ home"})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'value="Jack @ home"' in body
    assert "enlace" in body and "Nothing was changed" not in body
    assert _user(app, jack.email).display_name == "Jack K."
    # Empty: back to the neutral default.
    jack.post_form("/me/mail", "/me/mail", {"action": "name", "display_name": ""})
    assert _user(app, jack.email).display_name == ""
    # The game page and the lobby show the chosen name to the opponent.
    jack.post_form("/me/mail", "/me/mail", {"action": "name", "display_name": "Jack K."})
    gid = new_game(jack, dick)
    assert "Jack K." in dick.game_page(gid)


def test_the_header_links_the_ladder_for_a_signed_in_player(app, jack):
    page = jack.get("/").get_data(as_text=True)
    top = page.split("</nav>", 1)[0]
    assert 'href="/ladder"' in top
    answer = jack.get("/ladder")
    assert answer.status_code in (302, 303) and "/ladder/" in answer.headers["Location"]
    assert 'href="/ladder"' not in app.test_client().get("/").get_data(as_text=True) \
        .split("</nav>", 1)[0]


def test_ratings_a_newcomer_reads_and_the_result_shows_the_change(app, jack, dick):
    gid = new_game(jack, dick, public="on")
    play(Store(db_engine(app)), gid)
    answer = dick.post_form(f"/games/{gid}", f"/games/{gid}/resign", {"confirm": "yes"})
    assert answer.status_code in (200, 303)
    with Session(db_engine(app)) as s:
        ids = {r.seat: r.user_id for r in s.exec(select(Seat).where(Seat.game_id == gid))}
    ladder = jack.get("/ladder/tmotp").get_data(as_text=True)
    numbers = [int(n) for n in re.findall(r'<td class="n rating">(\d+)</td>', ladder)]
    assert numbers and all(n > 1400 for n in numbers), numbers
    assert "-" not in "".join(re.findall(r'<td class="n rating">([^<]*)</td>', ladder))
    assert 'id="scale"' in ladder and "1500" in ladder.split('id="scale"')[1]
    ja = app.test_client().get("/ladder/tmotp", headers={"Accept-Language": "ja"})
    assert "1500" in ja.get_data(as_text=True) and "新しいプレイヤー" in ja.get_data(as_text=True)
    result = jack.get(f"/games/{gid}/result").get_data(as_text=True)
    changes = result.split('id="rating-changes"')[1].split("</section>")[0]
    assert 'href="/ladder/tmotp"' in changes
    assert re.search(r"1500 → 15\d\d", changes) and re.search(r"1500 → 14\d\d", changes)
    assert f'href="/players/{ids["nixon"]}"' in changes
    player = jack.get(f"/players/{ids['nixon']}").get_data(as_text=True)
    assert re.search(r'<td class="n rating">14\d\d</td>', player)
    assert 'href="/ladder/tmotp"' in player


def test_the_help_says_which_characters_and_why(app):
    page = app.test_client().get("/help/names").get_data(as_text=True)
    assert "letters of any script" in page and "pass for somebody else" in page
    es = app.test_client().get("/help/names", headers={"Accept-Language": "es"})
    assert es.status_code == 200 and "letras" in es.get_data(as_text=True)


def test_the_join_page_names_who_opened_the_game_and_who_sits(app, jack, dick):
    jack.post_form("/me/mail", "/me/mail", {"action": "name", "display_name": "Jack K."})
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp", "opponent": dick.email,
                                                "seat": "kennedy", "edition": "gmt"})
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    page = dick.get(f"/games/{gid}").get_data(as_text=True)
    assert "“Jack K.” opened this game" in page
    assert re.search(r'<span class="kennedy">[^<]*</span>: “Jack K.”', page), page
    assert "jack@" not in page.split("<main>")[1]

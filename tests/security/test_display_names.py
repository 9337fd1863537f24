"""Display names (issue 23, items 6 and 9), each test written as the attack:

- a name that carries a link, an address or a domain, turns the text around it (U+202E), breaks
  a line or runs on for 200 characters is refused by the API with the reason, nothing stored;
  Japanese and Spanish names are taken, normalised;
- a chosen name stands in quotation marks wherever a mail puts it into a sentence ("X has taken
  the seat", "X invites you"), so that it cannot read as the server's own words; a name stored
  before the rule that breaks it is not shown to others at all;
- an account that chose no name is never shown to others by the local part of its address: not
  in the invitation to the other player, nor on the public game page, result, replay, lobby, or
  the API's game.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from server.mail import recipients, render
from server.models import OutboxMessage, User
from server.services import lobby, users
from tests.mail.test_delivery import SETTINGS
from tests.server.api.helpers import is_problem
from tests.web.pages_helpers import Reader, new_game
from tests.web.test_replay import finish

LINK = "Click https://evil.example to keep your seat"


def test_a_display_name_carrying_a_link_is_refused_with_the_reason(client, store):
    r = client.post("/users", json={"email": "mallory@example.org", "display_name": LINK})
    body = is_problem(r, 422)
    assert body["type"].endswith("/problems/invalid-request")
    reason = body["errors"]["json"]["display_name"][0]
    assert "may not look like a link" in reason and reason in body["detail"]
    with store.session() as s:
        assert s.exec(select(User)).all() == []


@pytest.mark.parametrize(("name", "reason"), [
    ("evil.com", "may not look like a link"),
    ("x.co", "may not look like a link"),
    ("www. evil", "may not look like a link"),
    ("ann@example.org", "may not look like a link"),
    ("Ann \u202eelif.exe", "U+202E"),               # right-to-left override
    ("Ann\u200bBob", "U+200B"),                     # zero-width space
    ("A" * 200, "at most 40 characters; this one has 200"),
    ("Ann\nSubject: your seat is lost", "no line breaks"),
    ("Ann <b>", "“<” is not one of them"),
    ("Za\u0301\u0302\u0303\u0304\u0305lgo", "at most 3 on one"),
    ("- _ '", "at least one letter or digit"),
])
def test_a_display_name_that_could_phrase_a_mail_is_refused(client, store, name, reason):
    body = is_problem(client.post("/users", json={"email": "mallory@example.org",
                                                  "display_name": name}), 422)
    assert reason in body["errors"]["json"]["display_name"][0], body
    with store.session() as s:
        assert s.exec(select(User)).all() == []


@pytest.mark.parametrize(("given", "stored"), [
    ("山田\u3000太郎", "山田 太郎"),                          # an ideographic space: one space
    ("ジョン・スミス", "ジョン・スミス"),
    ("  Jose\u0301   Mari\u0301a  O'Neil ", "José María O'Neil"),  # NFC, spaces collapsed
    ("J. R. Núñez Jr.", "J. R. Núñez Jr."),
    ("Ana-Lucía d’Alba", "Ana-Lucía d’Alba"),
])
def test_japanese_and_spanish_names_are_taken_normalised(client, store, given, stored):
    r = client.post("/users", json={"email": "ana@example.org", "display_name": given})
    assert r.status_code == 202, r.get_json()
    with store.session() as s:
        assert s.exec(select(User.display_name)).one() == stored


def test_a_sign_up_naming_anothers_address_changes_nothing_of_the_account(client, store):
    """A stranger signs up with the address of an account (whose owner chose no name, or
    one): the owner gets a mail; the account's name and language stay as they were."""
    for chosen in ("", "Ann"):
        email = f"ann{len(chosen)}@example.org"
        with store.session() as s:
            users.create_user(s, email, chosen, "ja")
        r = client.post("/users", json={"email": email, "display_name": "Your seat is lost",
                                        "locale": "es"})
        assert r.status_code == 202
        with store.session() as s:
            user = users.find_user(s, email)
            assert (user.display_name, user.locale) == (chosen, "ja")


def _game(session, host: User, guest_email: str) -> int:
    game, _codes = lobby.open_game(session, host, "tmotp", {},
                                   {"kennedy": host.email, "nixon": guest_email})
    return game.id


def _mails(session, kind: str, payload: dict) -> list[render.Rendered]:
    row = OutboxMessage(kind=kind, payload=payload)
    return [render.render(e.kind, e.context, e.locale)
            for e in recipients.envelopes(session, row, SETTINGS)]


@pytest.mark.parametrize(("locale", "quoted"), [
    ("en", "“Your seat is lost” has taken the seat of Nixon"),
    ("ja", "「Your seat is lost」さんが"),
    ("es", "«Your seat is lost» ha ocupado el puesto de Nixon"),
])
def test_a_joining_players_name_is_quoted_in_the_hosts_mail(store, locale, quoted):
    with store.session() as s:
        host = users.create_user(s, "host@example.org", "Jack", locale)
        guest = users.create_user(s, "guest@example.org", "Your seat is lost")
        gid = _game(s, host, guest.email)
        mail, = _mails(s, "seat_joined", {"game_id": gid, "seat": "nixon", "user_id": guest.id})
    assert quoted in mail.text and quoted in mail.html


@pytest.mark.parametrize(("locale", "quoted"), [
    ("en", "“Secret Service” invites you"), ("ja", "「Secret Service」"),
    ("es", "«Secret Service» te invita")])
def test_the_hosts_name_is_quoted_in_the_invitation(store, locale, quoted):
    with store.session() as s:
        host = users.create_user(s, "host@example.org", "Secret Service")
        users.create_user(s, "guest@example.org", "", locale)
        gid = _game(s, host, "guest@example.org")
        mail, = _mails(s, "invitation", {"game_id": gid, "seat": "nixon",
                                         "email": "guest@example.org"})
    assert quoted in mail.text and quoted in mail.html


def test_a_name_stored_before_the_rule_is_not_shown_to_others(store):
    with store.session() as s:
        host = User(email="host@example.org", display_name=LINK)  # stored before the rule
        s.add(host)
        s.commit()
        gid = _game(s, host, "guest@example.org")
        mail, = _mails(s, "invitation", {"game_id": gid, "seat": "nixon",
                                         "email": "guest@example.org"})
    assert "evil" not in mail.text and "evil" not in mail.html
    assert f"“Player {host.id}” invites you" in mail.text


AGENT = "secret.agent.42@example.org"


def test_an_account_without_a_name_is_not_shown_by_its_address(app, client, smtp_catcher):
    assert client.post("/users", json={"email": AGENT}).status_code == 202
    agent = Reader(app, smtp_catcher, AGENT)
    agent.sign_in()
    dick = Reader(app, smtp_catcher, "dick@example.org")
    dick.sign_in()
    gid = new_game(agent, dick, public="on")
    eve = Reader(app, smtp_catcher, "eve@example.org")
    eve.sign_in()
    anybody = app.test_client()
    pages = ["/", f"/games/{gid}", f"/api/v1/games/{gid}"]
    seen = [r.get(p).get_data(as_text=True) for r in (eve, anybody, dick) for p in pages]
    finish(app, gid)
    pages += [f"/games/{gid}/result", f"/games/{gid}/replay", f"/games/{gid}/replay?at=9"]
    seen += [r.get(p).get_data(as_text=True) for r in (eve, anybody, dick) for p in pages]
    for mail in smtp_catcher.to("dick@example.org"):   # the invitation among them
        seen += [mail.get_body(("plain",)).get_content(), mail.get_body(("html",)).get_content()]
    for page in seen:
        assert "secret.agent" not in page, page[:3000]
    assert len(seen) > 20 and any("Player" in page for page in seen)  # a neutral name instead

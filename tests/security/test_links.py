"""Links that cannot be reused or renewed (issue 23, item 3), each test written as the attack.

- A used decision link, and a used sign-in link, sent again in another encoding that the
  signature still accepts (padding appended): refused as used, nothing changes.
- A decision link that leaked (a forwarded mail) opened after its step is over: it shows what
  happened and the way to the game page, never fresh signed links nor the seat's decision.
- ``next`` after sign-in: tabs, newlines, backslashes, ``//`` and schemes never send the
  browser to another site.
- A failure after the sign-in link is checked leaves the link good for another try.
"""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from server.models import Game, LogEntry, UsedLink, UsedSignIn
from server.services import games as svc
from server.services import links, sign_in
from tests.web.pages_helpers import Reader, csrf, path_of, sign_in_link
from tests.web.test_decision_links import game, link_for, text  # noqa: F401  (a fixture too)

DECIDE = re.compile(r"/games/\d+/decide/[A-Za-z0-9_.\-=]+")


def counts(store):
    with Session(store.engine) as s:
        return (s.exec(select(func.count()).select_from(LogEntry)).one(),
                s.exec(select(func.count()).select_from(UsedLink)).one(),
                s.exec(select(Game.step)).all())


@pytest.mark.parametrize("suffix", ["=", "==", "===="])
def test_a_used_decision_link_with_padding_appended_is_still_used(app, store, game, suffix):
    client = app.test_client()
    url = link_for(app, game)
    assert client.post(url).status_code == 200
    after = counts(store)
    again = client.post(url + suffix)
    assert again.status_code == 409 and "used already" in text(again)
    assert counts(store) == after


def test_the_same_token_in_another_encoding_has_the_same_digest(app, game):
    secret = app.config["SECRET_KEY"]
    with app.app_context(), Session(app.extensions["whistlestop.db"]) as s:
        token = link_for(app, game).rsplit("/", 1)[1]
        one = links.read(s, secret, token, game["id"], 3600)
        other = links.read(s, secret, token + "==", game["id"], 3600)
    assert one.digest == other.digest and one == other


@pytest.mark.parametrize("suffix", ["=", "=="])
def test_a_used_sign_in_link_with_padding_appended_is_still_used(app, smtp_catcher, suffix):
    reader = Reader(app, smtp_catcher, "jack@example.org")
    reader.sign_in()
    link = path_of(sign_in_link(smtp_catcher.to("jack@example.org")[-1]))
    other = app.test_client()
    confirm = other.get(link + suffix)
    assert confirm.status_code == 409, text(confirm)[:300]
    page = other.get("/sign-in")
    r = other.post(link + suffix, data={"csrf_token": csrf(page.data)})
    assert r.status_code == 409
    assert "Sign out" not in text(other.get("/"))
    with Session(app.extensions["whistlestop.db"]) as s:
        assert s.exec(select(func.count()).select_from(UsedSignIn)).one() == 1


def test_a_leaked_link_of_an_old_step_gives_no_fresh_links(app, store, game):
    url = link_for(app, game, action=game["legal"][-1])
    with app.app_context(), Session(store.engine) as s:    # the step is played meanwhile
        svc.submit_order(s, game["id"], game["seat"], game["step"], [game["legal"][0]])
    stranger = app.test_client()
    for method in (stranger.get, stranger.post):
        r = method(url)
        page = text(r)
        assert r.status_code == 200
        assert not DECIDE.findall(page.replace(url, "")), "fresh signed links on an old step"
        assert 'method="post"' not in page and 'id="prompt"' not in page
        assert 'id="over"' in page and f'href="http://127.0.0.1:5000/games/{game["id"]}"' in page
        assert "What happened since" in page


def test_a_used_link_gives_no_fresh_links_either(app, store, game):
    client = app.test_client()
    url = link_for(app, game)
    assert client.post(url).status_code == 200
    r = client.get(url)
    assert r.status_code == 409 and not DECIDE.findall(text(r).replace(url, ""))


@pytest.mark.parametrize("evil", [
    "//evil.example/", "/\\evil.example", "\\\\evil.example", "/\t/evil.example",
    "/\n/evil.example", "/\r\n/evil.example", " //evil.example", "https://evil.example/",
    "javascript:alert(1)", "/%09/x\t", "/\x00/evil.example", "/\u2028/evil.example",
    "/\x7f/evil", "", None, "/" + "a" * 400])
def test_next_after_sign_in_stays_on_this_site(evil):
    assert sign_in.safe_next(evil) == "/"


@pytest.mark.parametrize("good", ["/", "/games/12", "/games/12/replay?at=3", "/me/mail"])
def test_next_keeps_a_page_of_this_site(good):
    assert sign_in.safe_next(good) == good


def test_the_sign_in_form_cannot_send_the_browser_away(app, smtp_catcher):
    client = app.test_client()
    form = client.get("/sign-in")
    client.post("/sign-in", data={"csrf_token": csrf(form.data), "email": "jack@example.org",
                                  "next": "/\t/evil.example"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to("jack@example.org", 1)[-1]))
    confirm = client.get(link)
    entered = client.post(link, data={"csrf_token": csrf(confirm.data)})
    assert entered.status_code == 303 and entered.headers["Location"] == "/"


def test_a_failure_after_the_link_is_checked_leaves_it_usable(app, smtp_catcher, monkeypatch):
    reader = Reader(app, smtp_catcher, "jack@example.org")
    form = reader.client.get("/sign-in")
    reader.client.post("/sign-in", data={"csrf_token": csrf(form.data),
                                         "email": "jack@example.org", "next": "/"})
    link = path_of(sign_in_link(smtp_catcher.wait_for_to("jack@example.org", 1)[-1]))
    from server.web import accounts

    def broken(*args, **kwargs):
        raise RuntimeError("the session store is down")

    monkeypatch.setattr(accounts, "login_user", broken)
    confirm = reader.client.get(link)
    try:                                 # the failure reaches the client, or the test
        failed = reader.client.post(link, data={"csrf_token": csrf(confirm.data)})
        assert failed.status_code == 500
    except RuntimeError:
        pass
    monkeypatch.undo()
    confirm = reader.client.get(link)
    assert confirm.status_code == 200
    entered = reader.client.post(link, data={"csrf_token": csrf(confirm.data)})
    assert entered.status_code == 303

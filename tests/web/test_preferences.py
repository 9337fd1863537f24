"""Mail preferences by the signed link of a mail's footer, and by the signed-in session: GET
shows them and never changes anything; POST changes them, and a refused change (an unknown
value, a webhook URL not taken) answers 400 naming what is allowed and changes nothing; RFC 8058
one-click unsubscribe (never to no mail at all); a token this server did not make opens
nothing. (What a link may not do
is tests/security/test_mail_settings_link.py.)"""

from __future__ import annotations

import html

import pytest
from sqlmodel import Session, select

from server.models import User, Webhook, WebhookSent
from server.services import links
from server.services import preferences as prefs
from tests.web.pages_helpers import Reader, csrf


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def url_for(app, user_id: int, mail: int = 1) -> str:
    """The settings link of mail (outbox row) ``mail``: the newest, as no mail was sent."""
    return links.preferences_url(app.config["SECRET_KEY"], "", user_id, mail)


def snapshot(store) -> tuple:
    """Everything the page could change."""
    with Session(store.engine) as s:
        return (tuple(s.exec(select(User.id, User.mail_mode, User.locale).order_by(User.id))),
                tuple(s.exec(select(Webhook.id, Webhook.user_id, Webhook.url, Webhook.flavor)
                             .order_by(Webhook.id))))


def user(store, user_id: int) -> User:
    with Session(store.engine) as s:
        return s.get(User, user_id)


def hooks_of(store, user_id: int) -> list[Webhook]:
    with Session(store.engine) as s:
        return list(s.exec(select(Webhook).where(Webhook.user_id == user_id)).all())


@pytest.fixture
def ann(players):
    return players["kennedy"]


class SignedIn:
    """Ann's browser, signed in: posts to /me/mail with the page's CSRF token."""

    def __init__(self, reader):
        self.reader = reader

    def post(self, data: dict):
        return self.reader.post_form("/me/mail", "/me/mail", data)

    def get(self):
        return self.reader.get("/me/mail")


@pytest.fixture
def signed_in(app, smtp_catcher, ann):
    reader = Reader(app, smtp_catcher, ann.email)
    reader.sign_in()
    return SignedIn(reader)


def test_get_shows_the_settings_and_changes_nothing(app, store, ann):
    client = app.test_client()
    before = snapshot(store)
    for query in ("", "?mail_mode=none", "?List-Unsubscribe=One-Click"):  # scanners, previews
        r = client.get(url_for(app, ann.id) + query)
        assert r.status_code == 200
        page = text(r)
        assert ann.email in page
        for mode in prefs.MAIL_MODES:
            assert f'value="{mode}"' in page
        assert 'value="every" checked' in page
        assert "One mail a day" in page and "No mail about games" in page
        assert "Language of the mail: English" in page and 'name="locale"' not in page
        assert 'id="webhooks-sign-in"' in page  # webhooks only when signed in
        assert r.headers["Cache-Control"] == "no-store"
        assert r.headers["Referrer-Policy"] == "no-referrer"
    assert snapshot(store) == before


def test_the_link_chooses_less_mail(app, store, ann):
    r = app.test_client().post(url_for(app, ann.id), data={
        "action": "settings", "mail_mode": "digest", "locale": "en"})
    assert r.status_code == 200, text(r)
    assert 'id="notice"' in text(r)
    stored = user(store, ann.id)
    assert (stored.mail_mode, stored.locale) == ("digest", "en")
    assert 'value="digest" checked' in text(app.test_client().get(url_for(app, ann.id)))


def test_signed_in_the_mail_mode_and_language_change(store, ann, signed_in):
    r = signed_in.post({"action": "settings", "mail_mode": "digest", "locale": "ja"})
    assert r.status_code == 200, text(r)
    assert 'id="notice"' in text(r)
    stored = user(store, ann.id)
    assert (stored.mail_mode, stored.locale) == ("digest", "ja")
    r = signed_in.post({"action": "settings", "mail_mode": "every", "locale": "en"})
    assert r.status_code == 200, text(r)
    assert (user(store, ann.id).mail_mode, user(store, ann.id).locale) == ("every", "en")
    assert 'value="every" checked' in text(signed_in.get())


@pytest.mark.parametrize("form, words", [
    ({"mail_mode": "weekly", "locale": "en"}, "the settings are every, digest, none"),
    ({"mail_mode": "digest", "locale": "fr"}, "the languages are en, ja, es"),
    ({"mail_mode": "", "locale": "ja"}, "the settings are every, digest, none"),
])
def test_an_unknown_value_is_refused_and_changes_nothing(store, ann, signed_in, form, words):
    before = snapshot(store)
    r = signed_in.post({"action": "settings", **form})
    assert r.status_code == 400
    page = text(r)
    assert words in page and "Nothing was changed." in page
    # The page keeps what was typed, where it is a choice the page offers; else what is stored.
    shown = form["mail_mode"] if form["mail_mode"] in prefs.MAIL_MODES else "every"
    assert f'value="{shown}" checked' in page
    assert snapshot(store) == before


def test_an_unknown_action_is_refused(app, store, ann):
    before = snapshot(store)
    for form in ({}, {"action": "delete_account"}):
        r = app.test_client().post(url_for(app, ann.id), data=form)
        assert r.status_code == 400
        assert "settings, name, unsubscribe, add_webhook, remove_webhook, turn_on_webhook" in text(r)
    assert snapshot(store) == before


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded",
                                          "multipart/form-data"])
def test_one_click_unsubscribe(app, store, ann, players, content_type):
    # A mail of no known kind counts as one a game needs: the digest, never no mail at all
    # (issue 25, item 5; the rules by the mail's kind: tests/web/test_unsubscribe_rules.py).
    r = app.test_client().post(url_for(app, ann.id), data={"List-Unsubscribe": "One-Click"},
                               content_type=content_type)
    assert r.status_code == 200
    assert 'data-changed="digest"' in text(r) and "one mail a day" in text(r)
    assert user(store, ann.id).mail_mode == "digest"
    assert user(store, players["nixon"].id).mail_mode == "every"  # only the link's user


@pytest.mark.parametrize("token", ["1.0123456789abcdef0123456789abcdef", "1", "x.y", "",
                                   "99999.abc", "1" * 40])
def test_a_token_not_made_by_this_server_opens_nothing(app, store, ann, token):
    before = snapshot(store)
    client = app.test_client()
    for r in (client.get(f"/me/mail/{token}"),
              client.post(f"/me/mail/{token}", data={"List-Unsubscribe": "One-Click"}),
              client.post(f"/me/mail/{token}", data={"action": "settings",
                                                     "mail_mode": "none"})):
        if token == "":  # /me/mail/ is no page at all
            assert r.status_code in (404, 405)
            continue
        assert r.status_code == 404
        assert "not made by this server" in text(r)
    assert snapshot(store) == before


def test_a_token_made_with_another_secret_or_for_a_missing_user(app, store, ann):
    client = app.test_client()
    other = links.preferences_token("another-secret", ann.id, 1)
    assert client.get(f"/me/mail/{other}").status_code == 404
    missing = links.preferences_token(app.config["SECRET_KEY"], 4242, 1)
    assert client.post(f"/me/mail/{missing}", data={"List-Unsubscribe": "One-Click"}
                       ).status_code == 404


def test_without_a_token_the_page_says_where_the_link_is(app):
    r = app.test_client().get("/me/mail")
    assert r.status_code == 200
    assert "link at the foot of any mail" in text(r)
    assert 'href="/sign-in?next=/me/mail"' in text(r)
    assert app.test_client().post("/me/mail", data={"action": "settings"}).status_code == 303


# --- webhooks -------------------------------------------------------------------------------
def test_webhooks_are_added_listed_and_removed(store, ann, signed_in):
    secret_url = "https://discord.com/api/webhooks/123/very-secret-token-abcd"
    r = signed_in.post({"action": "add_webhook", "url": secret_url, "flavor": "discord"})
    assert r.status_code == 200, text(r)
    r = signed_in.post({"action": "add_webhook",
                        "url": "https://hooks.slack.com/services/T/B/xyz1234567890",
                        "flavor": ""})
    assert r.status_code == 200, text(r)
    discord, slack = sorted(hooks_of(store, ann.id), key=lambda h: h.id)
    assert (discord.url, discord.flavor, slack.flavor) == (secret_url, "discord", "slack")
    page = text(signed_in.get())
    assert "https://discord.com/…abcd" in page
    assert "very-secret-token" not in page  # the hook's secret is not shown again
    r = signed_in.post({"action": "remove_webhook", "webhook_id": str(discord.id)})
    assert r.status_code == 200
    assert [h.id for h in hooks_of(store, ann.id)] == [slack.id]


@pytest.mark.parametrize("form, words", [
    ({"url": "http://example.org/hook"}, "must start with https://"),
    ({"url": "ftp://example.org/hook"}, "must start with https://"),
    ({"url": "not a url"}, "no spaces"),
    ({"url": ""}, "Give the webhook's URL"),
    ({"url": "https://example.org/hook", "flavor": "teams"}, "the kinds are discord and slack"),
    ({"url": "https://me:pw@example.org/hook"}, "user name or password"),
])
def test_a_webhook_not_taken_is_refused_and_changes_nothing(store, signed_in, form, words):
    before = snapshot(store)
    r = signed_in.post({"action": "add_webhook", **form})
    assert r.status_code == 400
    assert words in text(r) and "Nothing was changed." in text(r)
    assert f'value="{html.escape(form["url"])}"' in r.get_data(as_text=True)  # kept
    assert snapshot(store) == before


def test_plain_http_webhooks_only_when_allowed(app, store, ann, signed_in):
    form = {"action": "add_webhook", "url": "http://127.0.0.1:9/hook", "flavor": "slack"}
    assert signed_in.post(form).status_code == 400
    app.config["WEBHOOK_ALLOW_HTTP"] = True
    assert signed_in.post(form).status_code == 200
    assert [h.url for h in hooks_of(store, ann.id)] == ["http://127.0.0.1:9/hook"]


def test_another_users_webhook_cannot_be_removed(store, ann, players, signed_in):
    bob = players["nixon"]
    with Session(store.engine) as s:
        prefs.add_webhook(s, s.get(User, bob.id), "https://discord.com/api/webhooks/1/x",
                          None, False)
    (hook,) = hooks_of(store, bob.id)
    before = snapshot(store)
    for webhook_id in (str(hook.id), "999", "x", ""):
        r = signed_in.post({"action": "remove_webhook", "webhook_id": webhook_id})
        assert r.status_code == 400
        assert "webhook" in text(r) and "Nothing was changed." in text(r)
    assert snapshot(store) == before


def test_the_same_webhook_twice_and_too_many_are_refused(store, ann, signed_in):
    for i in range(prefs.MAX_WEBHOOKS):
        r = signed_in.post({"action": "add_webhook",
                            "url": f"https://discord.com/api/webhooks/{i}/x"})
        assert r.status_code == 200
    r = signed_in.post({"action": "add_webhook", "url": "https://discord.com/api/webhooks/0/x"})
    assert r.status_code == 400 and "already" in text(r)
    before = snapshot(store)
    with Session(store.engine) as s:  # the page offers no form once the list is full
        assert s.exec(select(Webhook).where(Webhook.user_id == ann.id)).all()
    r = signed_in.reader.client.post("/me/mail", data={
        "action": "add_webhook", "url": "https://discord.com/api/webhooks/new/x",
        "csrf_token": csrf(signed_in.get().data)})
    assert r.status_code == 400 and "remove one first" in text(r)
    assert snapshot(store) == before


def test_removing_a_webhook_removes_the_record_of_its_posts(store, ann, signed_in):
    signed_in.post({"action": "add_webhook", "url": "https://discord.com/api/webhooks/1/x"})
    (hook,) = hooks_of(store, ann.id)
    with Session(store.engine) as s:
        from server.models import OutboxMessage

        row = OutboxMessage(kind="game_started", payload={"game_id": 0})
        s.add(row)
        s.flush()
        s.add(WebhookSent(outbox_id=row.id, webhook_id=hook.id, status="failed"))
        s.commit()
    r = signed_in.post({"action": "remove_webhook", "webhook_id": str(hook.id)})
    assert r.status_code == 200, text(r)
    with Session(store.engine) as s:
        assert s.exec(select(WebhookSent)).all() == []


def test_a_webhook_turned_off_is_shown_and_turned_back_on(store, ann, signed_in):
    """A webhook whose posts kept failing (server/mail/webhook_queue.py) is shown switched off,
    with the failure's kind, and its user, signed in, turns it back on."""
    from server.models import utcnow

    signed_in.post({"action": "add_webhook", "url": "https://discord.com/api/webhooks/1/x"})
    (hook,) = hooks_of(store, ann.id)
    with Session(store.engine) as s:
        stored = s.get(Webhook, hook.id)
        stored.disabled_at, stored.failures = utcnow(), 5
        stored.last_error = "HTTP 404: Unknown Webhook"
        s.add(stored)
        s.commit()
    page = text(signed_in.get())
    assert "Switched off: 5 notifications in a row could not be posted" in page
    assert "HTTP 404" in page and "Unknown Webhook" not in page
    r = signed_in.post({"action": "turn_on_webhook", "webhook_id": str(hook.id)})
    assert r.status_code == 200, text(r)
    (hook,) = hooks_of(store, ann.id)
    assert (hook.disabled_at, hook.failures, hook.last_error) == (None, 0, None)
    assert "Switched off" not in text(r)

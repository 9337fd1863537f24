"""The mail settings link of a mail's footer (and its List-Unsubscribe header) can only reduce
mail (issue 23, item 3), each test written as the attack: a mail forwarded, archived or read
over the shoulder gives its reader that link. And it never stops the mail a game needs (issue
25, item 5: tests/web/test_unsubscribe_rules.py): no mail at all is the signed-in user's choice.

- Links rotate: every mail carries its own, and an older mail's link may only unsubscribe (what
  stops depends on the mail it came in).
- The newest mail's link may choose less mail, never more, nor none, nor the language, nor
  webhooks (which it does not even show).
- A page elsewhere posting to a leaked link from the victim's signed-in browser gets the link's
  power, not the session's.
- A link of the form mailed before links rotated (no mail in it) may only unsubscribe.
"""
from __future__ import annotations

import hashlib
import hmac
import html

import pytest
from sqlmodel import Session, select

from server.models import User, Webhook
from server.services import links
from server.services import preferences as prefs
from tests.web.pages_helpers import Reader, csrf, path_of

HOOK = "https://discord.com/api/webhooks/77/the-hooks-own-secret-abcd"


def stored(store, user_id: int) -> tuple:
    with Session(store.engine) as s:
        user = s.get(User, user_id)
        return (user.mail_mode, user.locale, tuple(s.exec(
            select(Webhook.url).where(Webhook.user_id == user_id).order_by(Webhook.id))))


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def settings_links(app, catcher, email: str, count: int) -> list[str]:
    """The settings links of ``count`` mails the server sends ``email`` (sign-in links asked
    for on the sign-in page), oldest first, as each mail's List-Unsubscribe header gives it."""
    client = app.test_client()
    before = len(catcher.to(email))
    for _ in range(count):
        form = csrf(client.get("/sign-in").data)
        assert client.post("/sign-in", data={"csrf_token": form, "email": email,
                                             "next": "/"}).status_code == 200
    mails = catcher.wait_for_to(email, before + count)[before:]
    found = [path_of(mail["List-Unsubscribe"].strip().strip("<>")) for mail in mails]
    for mail, path in zip(mails, found):
        assert path in mail.get_body(("plain",)).get_content()  # the footer's is the same
    return found


@pytest.fixture
def ann(players):
    return players["kennedy"]


def test_every_mail_has_its_own_link(app, store, ann, smtp_catcher):
    first, second = settings_links(app, smtp_catcher, ann.email, 2)
    assert first != second
    secret = app.config["SECRET_KEY"]
    named = [links.preferences_link(secret, path.rsplit("/", 1)[1]) for path in (first, second)]
    assert [link.user_id for link in named] == [ann.id, ann.id]
    assert named[0].mail < named[1].mail


def test_an_older_mails_link_can_only_stop_mail(app, store, ann, smtp_catcher):
    old, _newest = settings_links(app, smtp_catcher, ann.email, 2)
    client = app.test_client()
    page = text(client.get(old))
    assert "comes from an older mail" in page and 'id="settings"' not in page
    before = stored(store, ann.id)
    for form in ({"action": "settings", "mail_mode": "digest"},
                 {"action": "settings", "mail_mode": "every", "locale": "ja"},
                 {"action": "add_webhook", "url": HOOK}):
        answer = client.post(old, data=form)
        assert answer.status_code == 403, form
        assert "Nothing was changed." in text(answer)
        assert stored(store, ann.id) == before
    for form in ({"action": "settings", "mail_mode": "none"},):
        assert client.post(old, data=form).status_code == 403
        assert stored(store, ann.id) == before
    # A sign-in mail is one the account needs: less mail, never none.
    answer = client.post(old, data={"action": "unsubscribe"})
    assert answer.status_code == 200
    assert stored(store, ann.id)[0] == "digest"


def test_an_older_mails_list_unsubscribe_still_works(app, store, ann, smtp_catcher):
    old, _newest = settings_links(app, smtp_catcher, ann.email, 2)
    answer = app.test_client().post(old, data={"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert stored(store, ann.id)[0] == "digest"


def test_the_newest_link_brings_less_mail_only(app, store, ann, smtp_catcher):
    with Session(store.engine) as s:
        user = s.get(User, ann.id)
        prefs.add_webhook(s, user, HOOK, "discord", False)
        prefs.change(s, user, "digest", None)
    (newest,) = settings_links(app, smtp_catcher, ann.email, 1)
    client = app.test_client()
    page = text(client.get(newest))
    assert "can only bring you less mail" in page
    assert "discord.com" not in page  # the webhooks are not shown
    assert 'value="every" disabled' in page and 'name="locale"' not in page
    before = stored(store, ann.id)
    for form, status in (({"action": "settings", "mail_mode": "every"}, 403),
                         ({"action": "settings", "mail_mode": "digest", "locale": "ja"}, 403),
                         ({"action": "add_webhook", "url": "https://evil.example/hook"}, 403),
                         ({"action": "remove_webhook", "webhook_id": "1"}, 403)):
        answer = client.post(newest, data=form)
        assert answer.status_code == status, form
        assert stored(store, ann.id) == before
    assert "sign in to get more" in text(client.post(newest, data={
        "action": "settings", "mail_mode": "every"}))
    answer = client.post(newest, data={"action": "settings", "mail_mode": "none"})
    assert answer.status_code == 403 and "Only you, signed in" in text(answer)
    assert stored(store, ann.id) == before


def test_a_foreign_page_posting_to_a_leaked_link_gets_only_the_links_power(
        app, store, ann, smtp_catcher):
    victim = Reader(app, smtp_catcher, ann.email)
    victim.sign_in()
    (newest,) = settings_links(app, smtp_catcher, ann.email, 1)
    before = stored(store, ann.id)
    # The victim's browser, cookies and all, posts a form another site wrote (no CSRF token).
    for form in ({"action": "add_webhook", "url": "https://evil.example/hook"},
                 {"action": "settings", "mail_mode": "every", "locale": "ja"},
                 {"action": "add_webhook", "url": "https://evil.example/hook",
                  "csrf_token": "forged"}):
        assert victim.client.post(newest, data=form).status_code == 403
        assert stored(store, ann.id) == before
    # The victim's own page (its CSRF token) may do everything.
    answer = victim.post_form(newest, newest, {"action": "add_webhook", "url": HOOK})
    assert answer.status_code == 200, text(answer)
    assert stored(store, ann.id)[2] == (HOOK,)


def test_a_link_of_the_older_form_can_only_stop_mail(app, store, ann):
    secret = app.config["SECRET_KEY"]
    mac = hmac.new(links.PREFERENCES_KEY + secret.encode(), str(ann.id).encode(),
                   hashlib.sha256).hexdigest()[:32]
    old = f"/me/mail/{ann.id}.{mac}"  # as mails carried it before links rotated
    client = app.test_client()
    assert "comes from an older mail" in text(client.get(old))
    before = stored(store, ann.id)
    assert client.post(old, data={"action": "settings", "mail_mode": "digest"}
                       ).status_code == 403
    assert stored(store, ann.id) == before
    assert client.post(old, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    assert stored(store, ann.id)[0] == "digest"


@pytest.mark.parametrize("tamper", [
    lambda t: t.replace(".", ".0", 1),                  # the same numbers, written otherwise
    lambda t: "{}.{}.{}".format(*t.split(".")[:1], int(t.split(".")[1]) + 1, t.split(".")[2]),
    lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"),
])
def test_a_changed_link_is_no_link(app, store, ann, smtp_catcher, tamper):
    (newest,) = settings_links(app, smtp_catcher, ann.email, 1)
    token = newest.rsplit("/", 1)[1]
    changed = tamper(token)
    link = links.preferences_link(app.config["SECRET_KEY"], changed)
    original = links.preferences_link(app.config["SECRET_KEY"], token)
    # Another way of writing the same link names the same mail (it has the same power); any
    # other change is refused.
    assert link is None or link == original
    answer = app.test_client().post(f"/me/mail/{changed}", data={
        "action": "settings", "mail_mode": "digest"})
    assert answer.status_code == (200 if link == original else 404)

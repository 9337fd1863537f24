"""A reader of the pages through Flask's test client: signs in by the mail's link (the SMTP
catcher's copy), reads the CSRF token of the page a form is on, and posts the form."""

from __future__ import annotations

import html
import re

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SIGN_IN_LINK = re.compile(r"(https?://\S+/sign-in/\S+)")


def csrf(page: bytes | str) -> str:
    text = page.decode() if isinstance(page, bytes) else page
    found = CSRF.search(text)
    assert found, "no form with a CSRF token on this page"
    return html.unescape(found.group(1))


def path_of(url: str) -> str:
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


class Reader:
    """One browser: a test client with its own cookies."""

    def __init__(self, app, catcher, email: str):
        self.client = app.test_client()
        self.catcher, self.email = catcher, email

    def get(self, path: str, **kw):
        return self.client.get(path, **kw)

    def post_form(self, page_path: str, action: str, data: dict, **kw):
        """Open ``page_path``, then post ``data`` to ``action`` with that page's CSRF token."""
        token = csrf(self.client.get(page_path).data)
        return self.client.post(action, data={"csrf_token": token, **data}, **kw)

    def sign_in(self, next_path: str = "/") -> None:
        before = len(self.catcher.to(self.email))
        answer = self.post_form(f"/sign-in?next={next_path}", "/sign-in",
                                {"email": self.email, "next": next_path})
        assert answer.status_code == 200, answer.data[:500]
        mails = self.catcher.wait_for_to(self.email, before + 1)
        link = sign_in_link(mails[-1])
        confirm = self.client.get(path_of(link))
        assert confirm.status_code == 200
        entered = self.client.post(path_of(link), data={"csrf_token": csrf(confirm.data)})
        assert entered.status_code == 303, entered.data[:500]


def sign_in_link(mail) -> str:
    text = mail.get_body(("plain",)).get_content()
    found = SIGN_IN_LINK.search(text)
    assert found, text
    return found.group(1)


EVENTS = re.compile(r'<section id="events".*?</section>', re.S)


def hidden_part(page: str) -> str:
    """The page without what names cards publicly: the log (cards played) and the events in
    force (an event stays in force after its card was reshuffled and drawn again). What is left
    must never name a card the other seat holds."""
    return EVENTS.sub("", page.split('id="log-h"', 1)[0])

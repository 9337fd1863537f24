"""The mail catcher's pages stay on this machine (issue 45, M4). The attack: a server put on the
internet with the embedded defaults (MAIL_CATCHER on) and a public BASE_URL; anybody opens
/mail and reads every mail it sent, sign-in links included, and signs in as their owners.
The pages answer only when BASE_URL is a loopback address, as /metrics without its token."""
from __future__ import annotations

import uuid
from email.message import EmailMessage

import pytest

from tests.server.api.conftest import make_app

SIGN_IN_LINK = "https://games.example.org/sign-in/secret-sign-in-token"


def _caught(folder) -> str:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "games@ws.test", "victim@example.org", "Sign in"
    msg.set_content(f"Open this link to sign in: {SIGN_IN_LINK}")
    msg.add_alternative(f'<p><a href="{SIGN_IN_LINK}">Sign in</a></p>', subtype="html")
    name = uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.eml").write_bytes(bytes(msg))
    return name


@pytest.mark.parametrize("base", ["https://games.example.org", "http://203.0.113.7:5000",
                                  "http://[2001:db8::1]/"])
def test_a_public_server_does_not_show_the_caught_mail(tmp_path, api_db_url, base):
    folder = tmp_path / "caught"
    app = make_app(tmp_path, api_db_url, BASE_URL=base, SECRET_KEY="k" * 48,
                   MAIL_CATCHER=True, MAIL_CATCHER_DIR=str(folder))
    name = _caught(folder)
    client = app.test_client()
    for path in ("/mail", f"/mail/{name}", f"/mail/{name}/html"):
        answer = client.get(path)
        text = answer.get_data(as_text=True)
        assert answer.status_code == 403, (path, answer.status_code)
        assert "secret-sign-in-token" not in text and "victim@example.org" not in text
        assert "WHISTLESTOP_BASE_URL" in text and "loopback" in text  # the reason, in words
    app.extensions["whistlestop.db"].dispose()


def test_a_loopback_server_still_shows_it(tmp_path, api_db_url):
    folder = tmp_path / "caught"
    app = make_app(tmp_path, api_db_url, BASE_URL="http://127.0.0.1:5000",
                   MAIL_CATCHER=True, MAIL_CATCHER_DIR=str(folder))
    name = _caught(folder)
    client = app.test_client()
    assert f'href="/mail/{name}"' in client.get("/mail").get_data(as_text=True)
    assert "secret-sign-in-token" in client.get(f"/mail/{name}").get_data(as_text=True)
    app.extensions["whistlestop.db"].dispose()

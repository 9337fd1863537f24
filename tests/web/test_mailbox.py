"""The mail catcher's page: lists what the `mail` process caught and shows each mail; unknown
or malformed names are 404, and with MAIL_CATCHER off there is no page at all."""

from __future__ import annotations

import uuid
from email.message import EmailMessage
from pathlib import Path


def _caught(folder, subject: str) -> str:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "games@ws.test", "ann@example.org", subject
    msg["Reply-To"] = "r+1-kennedy-0@ws.test"
    msg.set_content("campaign NY 2\nhttp://127.0.0.1:5000/games/1/decide/x")
    msg.add_alternative('<p><a href="http://127.0.0.1:5000/games/1">Game</a></p>',
                        subtype="html")
    name = uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.eml").write_bytes(bytes(msg))
    return name


def test_the_catcher_page_lists_and_shows_each_mail(app, tmp_path):
    folder = tmp_path / "caught"
    app.config["MAIL_CATCHER_DIR"] = str(folder)
    client = app.test_client()
    assert "No mail yet." in client.get("/mail").get_data(as_text=True)
    name = _caught(folder, "1960 game #1 <you play Kennedy>")
    listing = client.get("/mail").get_data(as_text=True)
    assert f'href="/mail/{name}"' in listing
    assert "1960 game #1 &lt;you play Kennedy&gt;" in listing  # escaped
    shown = client.get(f"/mail/{name}").get_data(as_text=True)
    assert "r+1-kennedy-0@ws.test" in shown and "campaign NY 2" in shown
    html = client.get(f"/mail/{name}/html")
    assert 'href="http://127.0.0.1:5000/games/1"' in html.get_data(as_text=True)
    assert "sandbox" in html.headers["Content-Security-Policy"]
    for bad in ("/mail/" + "0" * 32, "/mail/..%2Fsecret", f"/mail/{name}x"):
        assert client.get(bad).status_code == 404


def test_no_catcher_no_page(app):
    app.config["MAIL_CATCHER"] = False
    assert app.test_client().get("/mail").status_code == 404

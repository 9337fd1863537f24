"""The notation help the mails link to: each game's NOTATION.md as a page, a list of the games,
and a clear 404 naming the games for a game this server does not have."""

from __future__ import annotations

import html
from urllib.parse import urlsplit

import pytest

import engine.core as game_engine
from server.games import presenters
from server.mail.contexts import Links
from server.web import help as notation_help


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_the_mails_notation_link_opens_the_games_notation(app):
    path = urlsplit(Links("https://ws.example").notation("tmotp")).path
    r = app.test_client().get(path)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "<h1>1960: action notation</h1>" in page
    assert "<table>" in page and "<code>campaign NY 2</code>" in page  # tables are rendered
    assert "<title>1960: action notation</title>" in page
    assert 'href="/help/notation"' in page


def test_the_index_lists_every_game_with_a_notation(app):
    r = app.test_client().get("/help/notation")
    assert r.status_code == 200
    page = text(r)
    for game in game_engine.games():
        assert f'href="/help/notation/{game}"' in page
    assert "1960: action notation" in page


@pytest.mark.parametrize("name", ["chess", "TMOTP", "..", "tmotp.md", "%2e%2e%2fcore"])
def test_an_unknown_game_is_a_404_naming_the_games(app, name):
    r = app.test_client().get(f"/help/notation/{name}")
    assert r.status_code == 404
    page = text(r)
    assert "There is no game called" in page
    assert 'href="/help/notation/tmotp"' in page


def test_raw_html_in_a_notation_file_is_shown_as_text(tmp_path):
    path = tmp_path / "NOTATION.md"
    path.write_text("# Game <b>x</b>\n\n<script>alert(1)</script>\n\n[a](javascript:alert(1))\n")
    title, body = notation_help._rendered(str(path), 0)
    assert title == "Game <b>x</b>"  # escaped by the page's template
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert "href=\"javascript" not in body


def test_the_page_escapes_the_title(app, monkeypatch):
    monkeypatch.setattr(notation_help, "rendered", lambda game: ("A <i>title</i>", "<p>x</p>"))
    page = app.test_client().get("/help/notation/tmotp").get_data(as_text=True)
    assert "<title>A &lt;i&gt;title&lt;/i&gt;</title>" in page


def test_a_games_own_help_page_is_there_when_its_presenter_gives_one(app):
    """GET /help/<game>: how this server plays the game, for a game whose presenter has the
    part help.html (its notation page links to it); else, and for no such game, a 404."""
    client = app.test_client()
    assert client.get("/help/chess").status_code == 404
    given = []
    for shown in presenters():
        game = shown.game
        has = (shown.templates / "web" / "help.html").is_file()
        given.append(has)
        own = client.get(f"/help/{game}")
        assert own.status_code == (200 if has else 404), game
        notation = text(client.get(f"/help/notation/{game}"))
        assert (f'href="/help/{game}"' in notation) == has, game
        if has:
            page = text(own)
            assert 'id="notation"' in page and 'id="rulings"' in page
    assert any(given)

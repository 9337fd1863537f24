"""Issue 47, item 7: the pages' errors are styled pages in the reader's language with a way
back, not Werkzeug's English text; the API keeps its problem+json; a 500 names nothing of what
failed."""

from __future__ import annotations

import pytest

from tests.server.api.conftest import make_app

PROBLEM = "application/problem+json"


@pytest.fixture
def failing_app(tmp_path, api_db_url):
    """The app with one page that fails, and exceptions answered as in production."""
    app = make_app(tmp_path, api_db_url, PROPAGATE_EXCEPTIONS=False, TESTING=False)

    def broken():
        raise RuntimeError("secret detail /srv/whistlestop/db password=hunter2")

    app.add_url_rule("/broken-for-test", "broken_for_test", broken)
    app.add_url_rule("/api/v1/broken-for-test", "api_broken_for_test", broken)
    yield app
    app.extensions["whistlestop.db"].dispose()


@pytest.mark.parametrize("language, heading, back", [
    ("en", "Page not found", "Your games"),
    ("ja", "ページが見つかりません", "あなたのゲーム"),
    ("es", "Página no encontrada", "Tus partidas"),
])
def test_a_missing_page_is_a_styled_page_in_the_readers_language(client, language, heading,
                                                                 back):
    for path in ("/no-such-page", "/games/999999"):
        answer = client.tc.get(path, headers={"Accept-Language": language})
        body = answer.get_data(as_text=True)
        assert answer.status_code == 404 and answer.content_type.startswith("text/html")
        assert heading in body and back in body and 'href="/"' in body
        assert f'lang="{language}"' in body
        assert "The requested URL was not found" not in body    # not Werkzeug's words
        assert 'name="viewport"' in body                       # fits a phone


def test_a_method_the_page_does_not_take_keeps_its_allow_header(client):
    answer = client.tc.delete("/help/notation")
    assert answer.status_code == 405 and "Allow" in answer.headers
    assert "does not take that request" in answer.get_data(as_text=True)


def test_the_api_keeps_its_problems(client):
    answer = client.tc.get("/api/v1/no-such-thing")
    assert answer.status_code == 404 and answer.content_type == PROBLEM
    assert answer.get_json()["status"] == 404


def test_a_failure_of_ours_is_a_page_that_names_nothing_of_it(failing_app):
    client = failing_app.test_client()
    answer = client.get("/broken-for-test", headers={"Accept-Language": "es"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 500 and answer.content_type.startswith("text/html")
    assert "Algo salió mal" in body and 'href="/"' in body
    assert "hunter2" not in body and "RuntimeError" not in body and "/srv" not in body
    api = client.get("/api/v1/broken-for-test")
    assert api.status_code == 500 and api.content_type == PROBLEM
    assert "hunter2" not in api.get_data(as_text=True)

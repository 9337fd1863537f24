"""Browser hardening (issue 23, item 8), each test written as the attack:

- the session cookie read by a page's script, or sent along by another site's post: it is
  HttpOnly and SameSite=Lax, Secure when the server is https, and lasts the documented days
  (the settings were written with setdefault, which Flask's own defaults made do nothing);
- a session cookie copied before its owner signed out, replayed afterwards: refused;
- a page of this server framed by another site (clickjacking the Commit button): forbidden;
- the API docs page running scripts fetched from a CDN: they come from this server;
- /metrics read by anybody on a public server without a token: refused.
"""
from __future__ import annotations

from datetime import timedelta
from http.cookies import SimpleCookie

import pytest
from swagger_ui_bundle import swagger_ui_path

from server.app import create_app
from server.api import docs_assets
from tests.web.pages_helpers import Reader, csrf


def session_cookie(response) -> SimpleCookie:
    headers = [v for k, v in response.headers.items() if k.lower() == "set-cookie"
               and v.startswith("session=")]
    assert headers, "no session cookie set"
    return headers[-1]


def test_the_session_cookie_is_httponly_lax_and_lasts_the_documented_days(app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "jack@example.org")
    form = reader.client.get("/sign-in")
    reader.client.post("/sign-in", data={"csrf_token": csrf(form.data),
                                         "email": "jack@example.org", "next": "/"})
    from tests.web.pages_helpers import path_of, sign_in_link
    link = path_of(sign_in_link(smtp_catcher.wait_for_to("jack@example.org", 1)[-1]))
    confirm = reader.client.get(link)
    entered = reader.client.post(link, data={"csrf_token": csrf(confirm.data)})
    cookie = session_cookie(entered)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie                    # http://127.0.0.1: no TLS to require
    assert app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=60)
    assert "Expires=" in cookie


def test_the_session_cookie_is_secure_on_an_https_server(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}",
                      "VAR_DIR": str(tmp_path / "var"), "BASE_URL": "https://games.example.org",
                      "SECRET_KEY": "s" * 48, "SESSION_DAYS": 7})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=7)


def test_a_cookie_copied_before_sign_out_is_dead_after_it(app, smtp_catcher):
    jack = Reader(app, smtp_catcher, "jack@example.org")
    jack.sign_in()
    assert "sign-out" in jack.get("/").get_data(as_text=True)
    stolen = jack.client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    assert "sign-out" in thief.get("/").get_data(as_text=True)   # the copy works, until...
    page = jack.get("/")
    assert jack.client.post("/sign-out", data={"csrf_token": csrf(page.data)}).status_code == 303
    assert "sign-out" not in thief.get("/").get_data(as_text=True)
    assert "sign-out" not in jack.get("/").get_data(as_text=True)
    again = Reader(app, smtp_catcher, "jack@example.org")   # signing in again works
    again.sign_in()
    assert "sign-out" in again.get("/").get_data(as_text=True)
    assert "sign-out" not in thief.get("/").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/sign-in", "/healthz", "/api/v1/docs",
                                  "/api/v1/openapi.json", "/games/1", "/help/notation/tmotp"])
def test_no_page_may_be_framed_by_another_site(app, path):
    r = app.test_client().get(path)
    assert r.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["Referrer-Policy"] in ("same-origin", "no-referrer")
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_the_api_docs_load_their_scripts_from_this_server(app):
    page = app.test_client().get("/api/v1/docs").get_data(as_text=True)
    assert "cdn." not in page and "https://" not in page.split("<body", 1)[0]
    for name in ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"):
        assert f"/api/v1/docs/static/{name}" in page
        r = app.test_client().get(f"/api/v1/docs/static/{name}")
        assert r.status_code == 200 and len(r.data) > 1000
    assert app.test_client().get("/api/v1/docs/static/index.html").status_code == 404
    assert app.test_client().get("/api/v1/docs/static/..%2fswagger-ui.css").status_code == 404


def test_the_pinned_swagger_ui_package_has_the_files_the_page_asks_for():
    """Fails when swagger-ui-bundle changes its layout (it is pinned in pyproject.toml)."""
    assert "swagger-ui-4.15.5" in str(swagger_ui_path)
    for name in docs_assets.FILES:
        assert (swagger_ui_path / name).is_file(), name


def test_metrics_need_a_token_on_a_public_server(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}",
                      "VAR_DIR": str(tmp_path / "var"), "BASE_URL": "https://games.example.org",
                      "SECRET_KEY": "s" * 48, "METRICS_TOKEN": ""})
    r = app.test_client().get("/metrics")
    assert r.status_code == 403 and b"WHISTLESTOP_METRICS_TOKEN" in r.data
    app.config["METRICS_TOKEN"] = "m" * 32
    assert app.test_client().get("/metrics").status_code == 401


def test_an_emptied_session_deletes_the_cookie_and_a_call_without_one_sets_none(tmp_path):
    """The cookie session's own save (server/flask_app.py skips Flask's work for an empty
    session nobody emptied): a session emptied by the app still deletes the cookie, with the
    attributes it was set with; a request that never had one gets none, and says it varies by
    cookie when the session was looked at."""
    import flask

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}",
                      "VAR_DIR": str(tmp_path / "var"), "SECRET_KEY": "s" * 48})
    app.add_url_rule("/test/fill", "test_fill",
                     lambda: flask.session.update(seen=1) or "filled")
    app.add_url_rule("/test/empty", "test_empty", lambda: flask.session.clear() or "emptied")
    app.add_url_rule("/test/look", "test_look", lambda: str(flask.session.get("seen")))
    client = app.test_client()
    assert "HttpOnly" in session_cookie(client.get("/test/fill"))
    deleted = session_cookie(client.get("/test/empty"))
    assert "Expires=Thu, 01 Jan 1970" in deleted and "HttpOnly" in deleted \
        and "SameSite=Lax" in deleted and "Path=/" in deleted
    assert client.get_cookie("session") is None
    stranger = app.test_client()
    for r in (stranger.get("/api/v1/games"), stranger.get("/healthz"),
              stranger.get("/test/look")):
        assert not [v for k, v in r.headers.items() if k.lower() == "set-cookie"]
    assert "Cookie" in stranger.get("/test/look").headers.get("Vary", "")

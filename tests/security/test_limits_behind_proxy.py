"""Per-client limits behind the recommended reverse proxy (issue 45, M5). The attack: every
request reaches gunicorn from the proxy's own address, so the limits counted "per client" are
one bucket: one client asking for ~30 sign-in mails an hour locks sign-in for everyone.

With WHISTLESTOP_TRUSTED_PROXY_HOPS set to the number of proxies in front (werkzeug's
ProxyFix), a limit counts the client the nearest proxy saw; a client cannot choose its bucket
by sending X-Forwarded-For itself (the proxy appends the address it saw: only that one is
read), and with the default 0 the header is ignored altogether."""
from __future__ import annotations

import pytest

from server import config
from tests.server.api.conftest import make_app
from tests.server.api.helpers import is_problem
from tests.web.pages_helpers import csrf

PROXY = "127.0.0.1"  # the reverse proxy on the same machine, as the README recommends


def ask_sign_in(client, email: str, forwarded_for: str | None):
    """A sign-in asked through the proxy, which says whom it serves in X-Forwarded-For."""
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    env = {"REMOTE_ADDR": PROXY}
    page = client.get("/sign-in", headers=headers, environ_base=env)
    return client.post("/sign-in", data={"csrf_token": csrf(page.data), "email": email,
                                         "next": "/"}, headers=headers, environ_base=env)


@pytest.fixture
def behind_proxy(tmp_path, api_db_url):
    app = make_app(tmp_path, api_db_url, TRUSTED_PROXY_HOPS=1,
                   RATE_SIGN_IN_PER_CLIENT="3/hour", RATE_SIGN_UP_PER_CLIENT="3/hour")
    yield app
    app.extensions["whistlestop.db"].dispose()


def test_one_client_behind_the_proxy_cannot_lock_sign_in_for_everyone(behind_proxy):
    attacker, other = behind_proxy.test_client(), behind_proxy.test_client()
    for n in range(3):
        assert ask_sign_in(attacker, f"spam{n}@example.org", "198.51.100.7").status_code == 200
    assert ask_sign_in(attacker, "spam9@example.org", "198.51.100.7").status_code == 429
    # Another client of the same proxy still signs in.
    assert ask_sign_in(other, "ann@example.org", "203.0.113.9").status_code == 200


def test_a_client_cannot_pick_its_bucket_with_its_own_forwarded_for(behind_proxy):
    attacker = behind_proxy.test_client()
    for n in range(3):
        assert ask_sign_in(attacker, f"spam{n}@example.org", "198.51.100.7").status_code == 200
    # The client sends "X-Forwarded-For: 192.0.2.<n>"; the proxy appends the address it saw.
    for n in range(3):
        assert ask_sign_in(attacker, f"more{n}@example.org",
                           f"192.0.2.{n}, 198.51.100.7").status_code == 429


def test_api_sign_ups_count_the_client_behind_the_proxy(behind_proxy):
    client = behind_proxy.test_client()
    env = {"REMOTE_ADDR": PROXY}

    def sign_up(email, forwarded_for):
        return client.post("/api/v1/users", json={"email": email}, environ_base=env,
                           headers={"X-Forwarded-For": forwarded_for})

    for n in range(3):
        assert sign_up(f"u{n}@example.org", "198.51.100.7").status_code == 202
    is_problem(sign_up("u9@example.org", "198.51.100.7"), 429)
    assert sign_up("ann@example.org", "203.0.113.9").status_code == 202


def test_without_a_trusted_proxy_forwarded_for_is_ignored(tmp_path, api_db_url):
    app = make_app(tmp_path, api_db_url, RATE_SIGN_IN_PER_CLIENT="3/hour")
    assert app.config["TRUSTED_PROXY_HOPS"] == 0  # the default: gunicorn faces the clients
    client = app.test_client()
    for n in range(3):
        assert ask_sign_in(client, f"spam{n}@example.org", f"192.0.2.{n}").status_code == 200
    assert ask_sign_in(client, "spam9@example.org", "192.0.2.99").status_code == 429
    app.extensions["whistlestop.db"].dispose()


def test_an_ipv6_client_counts_by_its_64_block(behind_proxy):
    """One subscriber gets a /64 (2^64 addresses): counted per address it would never run out."""
    client = behind_proxy.test_client()
    for n in range(3):
        assert ask_sign_in(client, f"spam{n}@example.org",
                           f"2001:db8:1:2::{n + 1}").status_code == 200
    assert ask_sign_in(client, "spam9@example.org", "2001:db8:1:2:ffff::9").status_code == 429
    assert ask_sign_in(client, "ann@example.org", "2001:db8:1:3::1").status_code == 200


@pytest.mark.parametrize("value", ["-1", "two", "1.5"])
def test_a_bad_hop_count_is_refused_in_words(value):
    with pytest.raises(config.ConfigError) as err:
        config.from_env({"WHISTLESTOP_TRUSTED_PROXY_HOPS": value})
    assert "WHISTLESTOP_TRUSTED_PROXY_HOPS" in str(err.value)

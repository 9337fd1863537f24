"""Webhooks carry no secrets (issue 23, item 5), each test written as the attack:

- a webhook channel (a Discord server, a Slack channel) is read by others, who take the signed
  choice links, the mail settings link or the hand from a post: a post says what happened and
  links to the game page, nothing a mail carries for its reader alone;
- a webhook URL whose host resolves to an IPv6 address that leads into a private network
  (NAT64, 6to4, Teredo, site-local, unique local): refused like a private address.
"""
from __future__ import annotations

import random
import re

import pytest
from sqlalchemy import update
from sqlmodel import Session

from server.mail import public_http
from server.models import User
from tests.mail.test_delivery import new_game, play_random_step
from tests.mail.test_webhooks import add_hook, deliver, hooks, rows  # noqa: F401
from tests.server.conftest import db_engine, db_url, empty_db_url, session  # noqa: F401

SIGNED = re.compile(r"/(decide|me/mail|sign-in)/")


def test_no_post_carries_a_signed_link_or_the_hand(db_engine, session, hooks, smtp_catcher):
    gid, jack, dick = new_game(session)
    add_hook(db_engine, jack.id, hooks.url + "/jack")
    rng = random.Random(3)
    for _ in range(10):
        for row in rows(db_engine):
            if row.kind != "resolve_step" and row.delivered_at is None:
                deliver(db_engine, row.id, smtp_catcher)
        play_random_step(session, gid, rng)
    posts = hooks.to("/jack")
    mails = [m for m in smtp_catcher.received() if m["To"] == jack.email]
    assert posts and any(SIGNED.search(m.get_body(("plain",)).get_content()) for m in mails)
    for post in posts:
        text = str(post)
        assert not SIGNED.search(text), text
        assert "Your hand" not in text and "hand" not in text.lower()
        (embed,) = post["embeds"]
        assert embed["url"] == f"https://ws.example/games/{gid}" or embed["url"].endswith(
            f"/games/{gid}")


@pytest.mark.parametrize("address", [
    "64:ff9b::a00:1",          # NAT64 of 10.0.0.1
    "64:ff9b::808:808",        # NAT64 of 8.8.8.8: still through somebody's gateway
    "64:ff9b:1::a00:1",        # local-use NAT64
    "2002:a00:1::1",           # 6to4 of 10.0.0.1
    "2002:808:808::1",         # 6to4 of 8.8.8.8
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",   # Teredo
    "fec0::1",                 # site-local
    "fd00::1",                 # unique local
    "::ffff:10.0.0.1", "::ffff:127.0.0.1", "::1", "fe80::1%eth0", "169.254.169.254",
    "10.1.2.3", "172.16.0.1", "192.168.1.1", "127.0.0.1", "100.64.0.1", "0.0.0.0",
])
def test_addresses_that_reach_a_private_network_are_refused(address):
    assert not public_http.is_public(address)


@pytest.mark.parametrize("address", ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_are_taken(address):
    assert public_http.is_public(address)

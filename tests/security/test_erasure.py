"""Erasure that nobody can block or undo (issue 45, findings M2, L3, L6), each test written as
the attack, on SQLite and on PostgreSQL (the tombstone's uniqueness, the scrub's queries).

M2: deletion renames the account to ``deleted-<id>@deleted.invalid``; ids are public and
sequential, so one anonymous sign-in with that address made the owner's deletion fail with a
500 every time. L3: a sign-in link mailed before the deletion signed its holder in to the
deleted account. L6: the address stayed in the outbox's payloads after the deletion.
"""
from __future__ import annotations

import re

import pytest
from sqlmodel import select

from server.models import MailSent, OutboxMessage, RematchOffer, User
from tests.server.api.conftest import both_databases, running_app  # noqa: F401
from tests.server.api.helpers import is_problem
from tests.web.pages_helpers import Reader, csrf, path_of, sign_in_link


REMATCH = re.compile(r"(https?://\S+/games/\d+/rematch\?t=\S+)")


@pytest.fixture
def app(tmp_path, both_databases):  # noqa: F811
    with running_app(tmp_path, both_databases) as app:
        yield app


def tombstone(user_id: int) -> str:
    return f"deleted-{user_id}@deleted.invalid"


def delete(client, player):
    return client.delete(f"/users/me?confirm={player.email}&hand_over=true", player)


# --- M2: a tombstone nobody can pre-claim ---------------------------------------------------
def test_the_tombstone_cannot_be_claimed_at_the_web_sign_in(app, client, store, smtp_catcher):
    victim = client.signup("victim@example.org")
    attacker = Reader(app, smtp_catcher, tombstone(victim.id))
    answer = attacker.post_form("/sign-in", "/sign-in", {"email": tombstone(victim.id)})
    assert answer.status_code == 422
    assert "reserved" in answer.get_data(as_text=True)
    with store.session() as s:
        assert s.exec(select(User).where(User.email == tombstone(victim.id))).first() is None
    assert delete(client, victim).status_code == 200
    with store.session() as s:
        assert s.get(User, victim.id).email == tombstone(victim.id)


@pytest.mark.parametrize("address", [
    "deleted-1@deleted.invalid", "someone@anything.invalid", "ann@mail.test",
    "ann@box.localhost", "ann@site.example", "Deleted-7@Deleted.INVALID"])
def test_the_api_sign_up_refuses_reserved_domains(client, store, address):
    body = is_problem(client.post("/users", json={"email": address}), 422)
    assert "reserved" in body["detail"]
    with store.session() as s:
        assert s.exec(select(User)).all() == []
        assert s.exec(select(OutboxMessage)).all() == []


def test_an_invitation_to_a_reserved_domain_is_refused(client, players):
    ann = players["kennedy"]
    body = is_problem(client.post("/games", ann, json={
        "game_type": "tmotp", "seats": {"kennedy": ann.email, "nixon": tombstone(99)}}), 422)
    assert "reserved" in body["detail"]


def test_a_tombstone_claimed_before_the_fix_does_not_block_the_deletion(client, store):
    victim = client.signup("victim@example.org")
    with store.session() as s:        # an account made with the address while it was taken
        s.add(User(email=tombstone(victim.id)))
        s.commit()
    answer = delete(client, victim)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    with store.session() as s:
        erased = s.get(User, victim.id)
        assert erased.email != tombstone(victim.id)
        assert erased.email.startswith(f"deleted-{victim.id}-")
        assert erased.email.endswith("@deleted.invalid") and erased.display_name == ""
    assert delete(client, victim).status_code == 401       # its token went with it


# --- L3: links and sessions of a deleted account are void ---------------------------------
def test_a_sign_in_link_mailed_before_the_deletion_does_not_revive_the_account(
        app, client, store, smtp_catcher):
    victim = client.signup("victim@example.org")
    thief = Reader(app, smtp_catcher, victim.email)
    assert thief.post_form("/sign-in", "/sign-in", {"email": victim.email}).status_code == 200
    link = path_of(sign_in_link(smtp_catcher.wait_for_to(victim.email, 1)[-1]))
    assert delete(client, victim).status_code == 200
    shown = thief.get(link)
    assert shown.status_code == 410, shown.status_code
    assert "no longer works" in shown.get_data(as_text=True)
    entered = thief.client.post(link, data={"csrf_token": csrf(shown.data)})
    assert entered.status_code == 410
    assert thief.get("/me/data").status_code != 200             # not signed in
    with store.session() as s:
        assert s.get(User, victim.id).email_verified_at is None


def test_a_sign_in_link_mailed_before_signing_out_everywhere_is_void(app, smtp_catcher):
    ann = Reader(app, smtp_catcher, "ann@example.org")
    ann.sign_in()
    assert ann.post_form("/sign-in", "/sign-in", {"email": ann.email}).status_code == 200
    link = path_of(sign_in_link(smtp_catcher.wait_for_to(ann.email, 2)[-1]))
    assert ann.post_form("/me/data", "/sign-out", {}).status_code == 303
    shown = ann.get(link)
    assert shown.status_code == 410 and "no longer works" in shown.get_data(as_text=True)


def test_a_browser_session_of_the_deleted_account_ends(app, client, store, smtp_catcher):
    victim = client.signup("victim@example.org")
    browser = Reader(app, smtp_catcher, victim.email)
    browser.sign_in("/me/data")
    assert browser.get("/me/data").status_code == 200
    assert delete(client, victim).status_code == 200
    assert browser.get("/me/data").status_code != 200


# --- L6: the address leaves the outbox's payloads -----------------------------------------
def test_the_address_is_scrubbed_from_sent_and_pending_outbox_rows(client, store, players):
    ann = players["kennedy"]
    vic = client.signup("vic@example.org")
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": vic.email})["game"]["id"]
    with store.session() as s:        # a mail not sent yet that quotes the address
        s.add(OutboxMessage(kind="order_answer", payload={
            "game_id": gid, "seat": "nixon", "lines": ["On Monday, Vic@Example.org wrote:"]},
            published_at=None))
        s.commit()
    with store.session() as s:
        rows = s.exec(select(OutboxMessage)).all()
        assert any("vic@example.org" in str(r.payload).lower() for r in rows)
        assert any(r.delivered_at is not None for r in rows if r.kind == "invitation")
    assert delete(client, vic).status_code == 200
    with store.session() as s:
        for row in s.exec(select(OutboxMessage)).all():
            assert "vic@example.org" not in str(row.payload).lower(), row.payload
        for sent in s.exec(select(MailSent)).all():
            assert "vic@example.org" not in (sent.address + sent.recipient).lower()
        kept = [r for r in s.exec(select(OutboxMessage)).all() if r.kind == "order_answer"]
        assert kept[0].payload["lines"] == [f"On Monday, {tombstone(vic.id)} wrote:"]


def test_a_rematch_link_mailed_before_the_deletion_acts_for_nobody(
        app, client, store, players, smtp_catcher):
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.two_player_game(store, ann, bob)
    assert client.post(f"/games/{gid}/resign", bob).status_code == 200
    link, count = None, 1
    while link is None:              # the game-over mail, with its rematch link
        found = [REMATCH.search(m.get_body(("plain",)).get_content())
                 for m in smtp_catcher.wait_for_to(ann.email, count)]
        link = next((path_of(f.group(1)) for f in found if f), None)
        count = len(found) + 1
    assert delete(client, ann).status_code == 200
    thief = app.test_client()
    shown = thief.get(link)
    assert shown.status_code == 403 and "deleted" in shown.get_data(as_text=True)
    offered = thief.post(f"/games/{gid}/rematch", data={
        "csrf_token": csrf(thief.get("/sign-in").data), "t": link.split("t=", 1)[1],
        "action": "offer"})
    assert offered.status_code == 403
    with store.session() as s:
        assert s.exec(select(RematchOffer)).all() == []

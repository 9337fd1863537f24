"""Orders by mail come from the seat's player (issue 23, item 4), each test written as the
attack: a reply that reaches the seat's reply address - a forwarded mail, a leaked thread - but
comes From somebody else, or forges the player's From while the receiving server found that
the player's domain did not vouch for it (DMARC, DKIM, SPF). Nothing is applied, the sender gets
no answer, and the seat's player gets one short notice (a day at most)."""
from __future__ import annotations

import pytest
from sqlmodel import Session, select

from server import db
from server.models import InboundMail, User
from tests.mail.test_replies import answers, app, game, handle, reply, state_of  # noqa: F401

NOTICE = "was not applied"


def notices(smtp_catcher, game) -> list:
    return [m for m in smtp_catcher.to(game["email"][game["seat"]])
            if NOTICE in m["Subject"]]


def wait_for_notices(smtp_catcher, game, n: int) -> list:
    smtp_catcher.wait_for_to(game["email"][game["seat"]], 1)
    found = notices(smtp_catcher, game)
    assert len(found) == n, [m["Subject"] for m in found]
    return found


@pytest.mark.parametrize("sender", ["mallory@example.net", "jack@example.org.evil.example",
                                    "jack+x@example.org", "other@example.org"])
def test_a_reply_from_another_address_is_not_applied_nor_answered(app, game, smtp_catcher,
                                                                  sender):
    assert game["email"][game["seat"]] != sender
    before = state_of(game)
    assert handle(app, reply(game, game["legal"][0], sender=sender)) == "foreign"
    assert state_of(game) == before
    assert smtp_catcher.to(sender) == []                      # no answer: no backscatter
    assert answers(smtp_catcher, game) == []
    (notice,) = wait_for_notices(smtp_catcher, game, 1)
    assert "came from another address" in notice.get_body(("plain",)).get_content()


def test_the_players_address_in_another_case_is_the_player(app, game, smtp_catcher):
    sender = game["email"][game["seat"]].upper()
    assert handle(app, reply(game, game["legal"][0], sender=sender)) == "order"
    assert state_of(game)[0] == game["step"] + 1


@pytest.mark.parametrize("results", [
    "mx.whistlestop.example; dmarc=fail (p=reject) header.from=example.org",
    "mx.whistlestop.example; dkim=fail header.d=example.org; spf=pass",
    "mx.whistlestop.example;\n spf=fail smtp.mailfrom=example.org",     # folded
])
def test_a_forged_from_the_receiving_server_disowned_is_not_applied(app, game, smtp_catcher,
                                                                    results):
    before = state_of(game)
    raw = reply(game, game["legal"][0]).replace(
        b"From:", b"Authentication-Results: " + results.encode() + b"\nFrom:", 1)
    assert handle(app, raw) == "foreign"
    assert state_of(game) == before
    assert answers(smtp_catcher, game) == []


def test_only_the_receiving_servers_own_verdict_counts(app, game):
    """A "pass" the sender wrote himself below the server's "fail" does not save the mail; a
    "fail" the sender wrote below the server's "pass" is not the server's verdict."""
    raw = reply(game, game["legal"][0])
    top_pass = raw.replace(b"From:", b"Authentication-Results: mx.whistlestop.example; "
                                     b"dkim=pass; dmarc=pass\nAuthentication-Results: "
                                     b"forged; dkim=fail\nFrom:", 1)
    assert handle(app, top_pass) == "order"


def test_the_player_is_told_once_a_day_however_many_forgeries_come(app, game, smtp_catcher):
    for _ in range(5):
        assert handle(app, reply(game, game["legal"][0], sender="mallory@example.net")) \
            == "foreign"
    wait_for_notices(smtp_catcher, game, 1)
    with Session(db.get_engine()) as s:
        kept = [o for o in s.exec(select(InboundMail.outcome)).all()]
    assert [o["kind"] for o in kept] == ["foreign"] * 5
    assert sum(o["noticed"] for o in kept) == 1


def test_a_seat_whose_player_never_proved_the_address_takes_no_mail_order(app, game):
    with Session(db.get_engine()) as s:
        player = s.get(User, game["user"][game["seat"]])
        player.email_verified_at = None
        s.add(player)
        s.commit()
    before = state_of(game)
    assert handle(app, reply(game, game["legal"][0])) == "foreign"
    assert state_of(game) == before


def test_a_flood_of_mail_from_one_sender_is_not_read(app, game, smtp_catcher):
    app.config["RATE_INBOUND_PER_SENDER"] = "3/hour"
    results = [handle(app, reply(game, "nonsense order")) for _ in range(5)]
    assert results[:3] == ["order"] * 3 and results[3:] == ["ignored"] * 2
    with Session(db.get_engine()) as s:
        kinds = [(o or {}).get("kind") for o in s.exec(select(InboundMail.outcome)).all()]
    assert kinds.count("limited") == 2


def test_a_mail_to_no_seat_is_answered_only_to_a_proven_address(app, game, smtp_catcher):
    """A forged From naming an account whose address nobody proved gets no answer: the server
    never mails an address on the word of a From header (backscatter)."""
    from server.services import users as accounts
    with Session(db.get_engine()) as s:
        accounts.create_user(s, "unproven@example.org", "Un")
    forged = game["address"].replace(game["address"].split("-")[-1].split("@")[0], "0" * 24)
    mails = len(smtp_catcher.received())
    assert handle(app, reply(game, "pass", to=forged, sender="unproven@example.org")) \
        == "unknown"
    assert handle(app, reply(game, "pass", to=forged)) == "unknown"      # the player's own
    told = smtp_catcher.received()[mails:]
    assert [m["To"] for m in told] == [game["email"][game["seat"]]]
    assert "was not read as an order" in told[0]["Subject"]

"""What the receiving server must have proved of a mail before it orders or talks (issue 45,
L14), each written as the attack.

- SPF "softfail" (the sender's domain says the sending host is probably not its own) was
  accepted for orders and for table talk by mail: it is a failure now, as "fail" is.
- Where the operator names the receiving MTA (``WHISTLESTOP_MAIL_AUTHSERV_ID``), only the
  Authentication-Results headers of that authserv-id are read (RFC 8601: every one of them;
  any other is the sender's own writing), and the mail needs that server's aligned pass:
  DMARC pass, or DKIM pass for the From domain, or SPF pass for it. A mail with no DMARC and
  an unaligned DKIM pass, a pass written under another authserv-id, or no header at all is
  not applied. An aligned pass outweighs another method's failure, as in DMARC (a forwarded
  mail fails SPF and keeps its DKIM pass); a DMARC failure never passes. The headers are the
  shapes Gmail, Microsoft 365 and an OpenDMARC/Postfix server write.
- With no MTA named (the embedded default: the server's own inbound SMTP), a proven sender's
  mail with no Authentication-Results keeps working.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from server import db
from server.mail import chat_address
from server.mail.inbound import read_reply
from server.models import ChatMessage
from tests.mail.test_replies import app, game, handle, reply, state_of  # noqa: F401

MTA = "mx.whistlestop.example"

# The From is jack@example.org (the seat's player) in every mail below.
SOFTFAIL = [
    # Gmail's shape: a softfail with its comment, DKIM none, DMARC none.
    "mx.google.com;\n       spf=softfail (google.com: domain of transitioning "
    "jack@example.org does not designate 192.0.2.7 as permitted sender) "
    "smtp.mailfrom=jack@example.org",
    # OpenDMARC/Postfix (policyd-spf's result in an Authentication-Results).
    f"{MTA}; spf=softfail smtp.mailfrom=example.org",
    # Microsoft 365's shape.
    "spf=softfail (sender IP is 192.0.2.7) smtp.mailfrom=example.org; dkim=none "
    "(message not signed) header.d=none;dmarc=none action=none header.from=example.org;",
]


def with_results(raw: bytes, *values: str) -> bytes:
    """The mail with these Authentication-Results headers on top, topmost first (as the
    receiving servers prepend them)."""
    added = b"".join(b"Authentication-Results: " + v.encode() + b"\n" for v in values)
    return added + raw


@pytest.mark.parametrize("results", SOFTFAIL)
def test_an_order_whose_spf_softfailed_is_not_applied(app, game, results):
    before = state_of(game)
    assert handle(app, with_results(reply(game, game["legal"][0]), results)) == "foreign"
    assert state_of(game) == before


@pytest.mark.parametrize("results", SOFTFAIL)
def test_a_chat_reply_whose_spf_softfailed_is_not_posted(app, game, results):
    user = game["user"][game["seat"]]
    to = chat_address.address(app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"],
                              game["id"], "players", user)
    raw = with_results(reply(game, "I concede the South, fair and square", to=to,
                             in_reply_to=False), results)
    assert handle(app, raw) == "foreign"
    with Session(db.get_engine()) as s:
        assert s.exec(select(ChatMessage)).all() == []


# --- an operator who names the receiving MTA ---------------------------------------------
REFUSED = [
    # No DMARC at all, and a DKIM pass for somebody else's domain: nothing aligned.
    [f"{MTA}; dkim=pass header.d=mailer.example header.s=s1; spf=none "
     "smtp.mailfrom=mailer.example; dmarc=none header.from=example.org"],
    # The sender's own header claims a pass under another authserv-id; the MTA's says none.
    [f"{MTA}; spf=none smtp.mailfrom=example.org; dkim=none",
     "mx.evil.example; dmarc=pass header.from=example.org; dkim=pass header.d=example.org"],
    # A pass written under the MTA's name below the MTA's own verdict of failure.
    [f"{MTA}; dmarc=fail (p=none) header.from=example.org",
     f"{MTA}; dmarc=pass header.from=example.org"],
    # The MTA's SPF pass is for another domain than the From's.
    [f"{MTA}; spf=pass smtp.mailfrom=bounces.evil.example"],
    # A look-alike of the MTA's authserv-id.
    [f"{MTA}.evil.example; dmarc=pass header.from=example.org"],
]


@pytest.mark.parametrize("results", REFUSED)
def test_with_a_named_mta_only_its_aligned_pass_counts(app, game, results):
    app.config["MAIL_AUTHSERV_ID"] = MTA
    before = state_of(game)
    assert handle(app, with_results(reply(game, game["legal"][0]), *results)) == "foreign"
    assert state_of(game) == before


def test_with_a_named_mta_a_mail_it_did_not_judge_is_not_applied(app, game):
    app.config["MAIL_AUTHSERV_ID"] = MTA
    before = state_of(game)
    assert handle(app, reply(game, game["legal"][0])) == "foreign"
    assert state_of(game) == before


@pytest.mark.parametrize("results", [
    [f"{MTA.upper()}; dmarc=pass (p=none dis=none) header.from=example.org"],
    # Several headers of the MTA (OpenDKIM, then policyd-spf), none with DMARC.
    [f"{MTA}; dkim=pass (2048-bit key) header.d=example.org header.i=@example.org "
     "header.b=AbCdEf12",
     f"{MTA}; spf=pass smtp.mailfrom=jack@example.org"],
    [f"{MTA} 1; spf=pass smtp.mailfrom=bounce.example.org"],   # a version, a subdomain
])
def test_with_a_named_mta_its_aligned_pass_is_applied(app, game, results):
    app.config["MAIL_AUTHSERV_ID"] = MTA
    assert handle(app, with_results(reply(game, game["legal"][0]), *results)) == "order"
    assert state_of(game)[0] == game["step"] + 1


def test_the_embedded_default_keeps_taking_a_proven_senders_mail(app, game):
    assert not app.config.get("MAIL_AUTHSERV_ID")
    assert handle(app, reply(game, game["legal"][0])) == "order"


def test_read_reply_names_what_failed(app, game):
    raw = with_results(reply(game, "pass"), SOFTFAIL[1])
    assert read_reply(raw, app.config["MAIL_DOMAIN"]).auth_failed == "spf=softfail"
    found = read_reply(with_results(reply(game, "pass"), *REFUSED[0]),
                       app.config["MAIL_DOMAIN"], authserv_id=MTA).auth_failed
    assert found == f"no aligned pass from {MTA}"


def test_with_a_named_mta_its_received_spf_pass_is_applied(app, game):
    # policyd-spf's shape, prepended above the MTA's Received (RFC 7208 §9.1).
    app.config["MAIL_AUTHSERV_ID"] = MTA
    spf = (b"Received-SPF: Pass (mailfrom) identity=mailfrom; client-ip=192.0.2.7; "
           b"helo=mail.example.org; envelope-from=jack@example.org; receiver=" + MTA.encode()
           + b"\nReceived: from mail.example.org (mail.example.org [192.0.2.7])\n"
           b"\tby " + MTA.encode() + b" (Postfix) with ESMTPS id 4ABCD1234\n")
    assert handle(app, spf + reply(game, game["legal"][0])) == "order"


def test_without_a_named_mta_the_log_says_what_the_check_rests_on(app, game, caplog,
                                                                   monkeypatch):
    from server.mail import replies
    monkeypatch.setattr(replies, "_told_unnamed", False)
    with caplog.at_level("WARNING", logger="whistlestop.replies"):
        assert handle(app, reply(game, game["legal"][0])) == "order"
    told = [r.getMessage() for r in caplog.records if "MAIL_AUTHSERV_ID" in r.getMessage()]
    assert len(told) == 1 and "its From" in told[0]


@pytest.mark.parametrize("results", [
    # Forwarded by the player's university: SPF fails at the MTA, the author's DKIM stands.
    [f"{MTA}; spf=fail smtp.mailfrom=example.org; dkim=pass header.d=example.org; "
     "dmarc=pass header.from=example.org"],
    [f"{MTA}; spf=softfail smtp.mailfrom=example.org",
     f"{MTA}; dkim=pass header.d=example.org"],
])
def test_with_a_named_mta_an_aligned_pass_outweighs_another_methods_failure(app, game,
                                                                          results):
    app.config["MAIL_AUTHSERV_ID"] = MTA
    assert handle(app, with_results(reply(game, game["legal"][0]), *results)) == "order"

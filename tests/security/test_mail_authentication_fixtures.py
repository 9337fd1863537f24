"""The reply check on real mails' headers (issue 48, item 7): Gmail's Authentication-Results
and Received-SPF as Gmail wrote them, and an SPF verifier's Received-SPF prepended as RFC 7208
§9.1 says (mail_auth_fixtures/README.md names the source).

- With a named receiving server, every Authentication-Results header of its authserv-id is
  read and every other ignored, above or below: a forged header of another id never counts,
  neither its pass nor its failure.
- Its Received-SPF counts when it stands above every Received header (where the receiving
  server prepends it); one lower down may be the sender's own writing and is not believed.
- A pass must be aligned with the From's domain."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.mail.inbound import read_reply

HERE = Path(__file__).parent / "mail_auth_fixtures"
GMAIL_003 = (HERE / "blaze_003.headers").read_bytes()  # From tbraibant@janestreet.com
GMAIL_004 = (HERE / "blaze_004.headers").read_bytes()  # From ocaml@discoursemail.com
DOMAIN = "whistlestop.example"

# blaze's `test/spf.t`: what its SPF verifier "omelet" prepends to 003.mail.
RECEIVED_SPF_STAMP = (
    b"Received-SPF: pass (omelet: domain of tbraibant@janestreet.com designates 38.105.200.78"
    b" as\n permitted sender) client-ip=38.105.200.78; envelope-from=\n"
    b" tbraibant@janestreet.com; identity=mailfrom; receiver=omelet; mechanism=\n"
    b" ip4:38.105.200.78/32;\n")


def failure(raw: bytes, authserv_id: str | None) -> str | None:
    return read_reply(raw + b"\nhello\n", DOMAIN, authserv_id).auth_failed


def below_first_received(headers: bytes, added: bytes) -> bytes:
    """The headers with ``added`` put under the topmost Received header (and its folds)."""
    lines = headers.split(b"\n")
    at = next(i for i, line in enumerate(lines) if line.lower().startswith(b"received:")) + 1
    while lines[at][:1] in (b" ", b"\t"):
        at += 1
    return b"\n".join(lines[:at]) + b"\n" + added + b"\n".join(lines[at:])


def test_gmails_own_aligned_dmarc_pass_is_taken():
    assert failure(GMAIL_004, "mx.google.com") is None
    assert failure(GMAIL_003, "mx.google.com") is None  # SPF pass for janestreet.com


def test_another_servers_pass_does_not_count():
    assert failure(GMAIL_004, "mx.whistlestop.example") == \
        "no aligned pass from mx.whistlestop.example"


@pytest.mark.parametrize("forged", [
    b"Authentication-Results: mx.evil.example; dmarc=fail header.from=discoursemail.com\n",
    b"Authentication-Results: mx.google.com.evil.example; spf=softfail "
    b"smtp.mailfrom=discoursemail.com\n",
])
def test_a_forged_failure_of_another_id_above_or_below_is_ignored(forged):
    assert failure(forged + GMAIL_004, "mx.google.com") is None
    assert failure(GMAIL_004 + forged, "mx.google.com") is None


def test_a_forged_pass_of_another_id_above_or_below_is_not_believed():
    forged = b"Authentication-Results: omelet; dmarc=pass header.from=janestreet.com\n"
    assert failure(forged + GMAIL_003, "mx.example") == "no aligned pass from mx.example"
    assert failure(GMAIL_003 + forged, "mx.example") == "no aligned pass from mx.example"


def test_the_named_servers_received_spf_pass_is_taken():
    assert failure(GMAIL_003, "omelet") == "no aligned pass from omelet"
    assert failure(RECEIVED_SPF_STAMP + GMAIL_003, "omelet") is None


def test_a_received_spf_below_a_received_header_is_not_believed():
    raw = below_first_received(GMAIL_003, RECEIVED_SPF_STAMP)
    assert failure(raw, "omelet") == "no aligned pass from omelet"


@pytest.mark.parametrize("result", [b"softfail", b"fail"])
def test_the_named_servers_received_spf_failure_refuses(result):
    stamp = RECEIVED_SPF_STAMP.replace(b"Received-SPF: pass", b"Received-SPF: " + result)
    assert failure(stamp + GMAIL_003, "omelet") == f"spf={result.decode()}"
    assert failure(stamp + GMAIL_003, None) == f"spf={result.decode()}"


def test_an_aligned_dkim_pass_outweighs_an_spf_failure():
    # As DMARC has it (RFC 7489 §4.2): Gmail's DKIM pass for janestreet.com stands, though
    # the SPF verifier above found the sending host not permitted (a forwarder's, say).
    stamp = RECEIVED_SPF_STAMP.replace(b"Received-SPF: pass", b"Received-SPF: fail")
    assert failure(stamp + GMAIL_003, "mx.google.com") is None


def test_an_unaligned_received_spf_pass_does_not_count():
    stamp = RECEIVED_SPF_STAMP.replace(b"envelope-from=\n tbraibant@janestreet.com",
                                       b"envelope-from=bounce@mailer.example")
    assert failure(stamp + GMAIL_003, "omelet") == "no aligned pass from omelet"
    helo = RECEIVED_SPF_STAMP.replace(b"identity=mailfrom", b"identity=helo")
    assert failure(helo + GMAIL_003, "omelet") == "no aligned pass from omelet"

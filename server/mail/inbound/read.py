"""read_reply: what an inbound mail says, from its raw bytes alone."""

from __future__ import annotations

import re
from dataclasses import replace
from email import message_from_bytes
from email.message import EmailMessage
from typing import cast

import authres

from server.mail.inbound import automated, headers
from server.mail.inbound.body import Unreadable, body_text
from server.mail.inbound.new_text import read_new_text
from server.mail.inbound.reply import Kind, Reply

# Where the r+TOKEN recipient is found, most trusted first: the envelope recipient as the
# delivering MTA records it (Delivered-To: Postfix, Exim, our inbound server; X-Original-To:
# Postfix; Envelope-To: Exim), then the header recipients.
TOKEN_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")

# "r+<token>": the token is URL-safe base64 / itsdangerous-style. The "r" may have been
# upper-cased by mail software; the token is returned exactly as written, since its case may
# matter (RFC 5321 §2.4: local parts are case-sensitive).
_TOKEN_LOCAL_PART = re.compile(r"[rR]\+([A-Za-z0-9_.\-]+)")

# U+FFFD stands where decoding met bytes that are not characters of the charset; C0 controls
# (but tab) and DEL are never typed. Either in the new text means we cannot read it.
_GARBLED = re.compile("[\ufffd\x00-\x08\x0b-\x1f\x7f]")


def read_reply(raw: bytes, domain: str, authserv_id: str | None = None) -> Reply:
    """What the mail is and says; never raises on malformed input (kind "unreadable").
    ``authserv_id``: the receiving MTA's, when the operator names it (authentication_failure)."""
    try:
        msg = cast(EmailMessage, message_from_bytes(raw, policy=headers.POLICY))
    except Exception:  # the stdlib parser recurses per MIME level: RecursionError past ~1000
        return Reply(Kind.UNREADABLE, reason="the message could not be parsed")
    if not msg.keys():
        return Reply(Kind.UNREADABLE, reason="not a mail message (no headers)")
    senders = headers.addresses(msg, "From")
    subject = headers.text(msg, "Subject")
    ids = headers.message_ids(msg, "Message-ID")
    reply = Reply(
        kind=Kind.ORDER,
        token=reply_token(msg, domain),
        sender=senders[0] if senders else None,
        message_id=ids[0] if ids else None,
        in_reply_to=next(iter(headers.message_ids(msg, "In-Reply-To")), None),
        references=headers.message_ids(msg, "References"),
        subject=subject,
        auth_failed=authentication_failure(msg, authserv_id, senders[0] if senders else None),
    )
    automatic = automated.classify(msg, subject, reply.sender)
    if automatic:
        kind, reason = automatic
        return replace(reply, kind=kind, reason=reason)
    try:
        reading = read_new_text(body_text(msg))
    except Unreadable as e:
        return replace(reply, kind=Kind.UNREADABLE, reason=str(e))
    if any(_GARBLED.search(line) for line in reading.lines + reading.closing):
        return replace(reply, kind=Kind.UNREADABLE, reason=(
            "the reply's text is garbled: bytes that are not characters of its character set,"
            " or control characters"))
    return replace(reply, lines=reading.lines, closing=reading.closing)


# A method's failure in Authentication-Results (RFC 8601): "dkim=fail", "spf=fail (...)", and
# SPF's "softfail" (the sender's domain says the host is probably not its own), a failure here.
_AUTH_FAIL = re.compile(r"(?:^|[;\s])(dmarc|dkim|spf)\s*=\s*(fail|softfail)\b", re.IGNORECASE)


def authentication_failure(msg: EmailMessage, authserv_id: str | None = None,
                           sender: str | None = None) -> str | None:
    """Why the receiving server's Authentication-Results and Received-SPF do not let the mail
    act ("spf=softfail", "no aligned pass from mx.example"), or None.

    With no ``authserv_id`` (the embedded default: our own inbound SMTP, or a provider's hook),
    only the topmost Authentication-Results header is read - the one the receiving server
    added last - and the Received-SPF above every Received header, and only their failures: a
    sender can write any header himself, but a forged failure only refuses his own mail, while
    a forged "pass" is never believed. The mail then rests on its reply address's token and
    its From alone (server/mail/replies.py says so in the log).

    Where the operator names the receiving MTA's authserv-id, every Authentication-Results
    header of that id is read and every other ignored, above or below (RFC 8601 §5: the MTA
    removes headers of its own id that came with the mail, so only it can have written them),
    and so is the topmost Received-SPF when it stands above every Received header, where the
    receiving server prepends it (RFC 7208 §9.1; one below a Received may be the sender's).
    The mail needs that server's pass aligned with the From domain: DMARC pass, or a DKIM pass
    signed for it, or an SPF pass for it; a DMARC failure refuses it, another method's failure
    only when nothing aligned passed."""
    values = headers.texts(msg, "Authentication-Results")
    spf = _received_spf(msg)
    spf_failed = f"spf={spf[0]}" if spf is not None and spf[0] in ("fail", "softfail") else None
    if not authserv_id:
        found = _AUTH_FAIL.search(values[0] if values else "")
        return f"{found[1].lower()}={found[2].lower()}" if found else spf_failed
    ours = [value for value in values if _authserv_id(value) == authserv_id.casefold()]
    failures = [f"{found[1].lower()}={found[2].lower()}" for value in ours
                for found in _AUTH_FAIL.finditer(value.partition(";")[2])]
    if "dmarc=fail" in failures:
        return "dmarc=fail"
    # An aligned pass outweighs another method's failure, as in DMARC (RFC 7489 §4.2): mail
    # forwarded by a mailing service fails SPF and keeps its author's DKIM pass.
    from_domain = _domain(sender)
    if from_domain and spf is not None and spf[0] == "pass" and \
            spf[1].get("identity", "mailfrom").lower() == "mailfrom" and \
            _aligns(_domain(spf[1].get("envelope-from")), from_domain):
        return None
    for value in ours:
        try:
            results = authres.AuthenticationResultsHeader.parse_value(value).results
        except Exception:  # authres raises its own SyntaxError on a header it cannot read
            continue
        if from_domain and any(_aligned_pass(r, from_domain) for r in results):
            return None
    return next(iter(failures), None) or spf_failed or f"no aligned pass from {authserv_id}"


# Received-SPF (RFC 7208 §9.1): a result, an optional comment, then "key=value;" pairs.
_SPF_RESULT = re.compile(r"\s*([A-Za-z]+)")
_SPF_PAIR = re.compile(r'([A-Za-z0-9_.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)')


def _received_spf(msg: EmailMessage) -> tuple[str, dict[str, str]] | None:
    """The receiving server's Received-SPF: its result (lower case) and its keys, when the
    topmost one stands above every Received header; None otherwise."""
    for name, value in msg.raw_items():
        low = name.lower()
        if low == "received":
            return None
        if low == "received-spf":
            text = re.sub(r"\r?\n(?=[ \t])", "", str(value))[:headers.MAX_HEADER]
            found = _SPF_RESULT.match(text)
            if not found:
                return None
            rest, depth, at = text[found.end():].lstrip(), 0, 0
            if rest.startswith("("):  # the comment, which may hold "(...)" itself
                for at, char in enumerate(rest):
                    depth += {"(": 1, ")": -1}.get(char, 0)
                    if depth == 0:
                        break
                rest = rest[at + 1:]
            pairs = {k.lower(): v.strip('"') for k, v in _SPF_PAIR.findall(rest)}
            return found[1].lower(), pairs
    return None


def _authserv_id(value: str) -> str | None:
    """A header's authserv-id, case-folded (its version, if any, left out), or None when the
    header cannot be read."""
    try:
        return authres.AuthenticationResultsHeader.parse_value(value).authserv_id.casefold()
    except Exception:
        return None


def _aligned_pass(result, from_domain: str) -> bool:
    """Whether one method's result is a pass for the From domain (DMARC relaxed alignment:
    the same domain, or one a subdomain of the other)."""
    if str(result.result).lower() != "pass":
        return False
    props = {(p.type.lower(), p.name.lower()): p.value for p in result.properties}
    method = str(result.method).lower()
    if method == "dmarc":
        named = props.get(("header", "from"))
        return named is None or _aligns(_domain(named), from_domain)
    if method == "dkim":
        return _aligns(_domain(props.get(("header", "d")) or props.get(("header", "i"))),
                       from_domain)
    if method == "spf":
        return _aligns(_domain(props.get(("smtp", "mailfrom"))), from_domain)
    return False


def _domain(text: str | None) -> str:
    """The domain of an address or a domain, lower case, without a final dot."""
    return (text or "").rpartition("@")[2].strip().strip(".").lower()


def _aligns(domain: str, from_domain: str) -> bool:
    return "." in domain and (domain == from_domain or from_domain.endswith("." + domain)
                              or domain.endswith("." + from_domain))


def reply_token(msg: EmailMessage, domain: str) -> str | None:
    """The token of the first r+TOKEN@domain recipient in TOKEN_HEADERS, or None."""
    domain = domain.lower()
    for name in TOKEN_HEADERS:
        for address in headers.addresses(msg, name):
            local, _, at = address.rpartition("@")
            match = _TOKEN_LOCAL_PART.fullmatch(local)
            if match and at.lower() == domain:
                return match[1]
    return None

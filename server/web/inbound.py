"""POST /inbound/mail: the HTTP hook through which a mail provider hands over a received mail,
the web twin of the `mail` process's inbound SMTP server (workers/inbound_smtp.py).

The mail is kept (InboundMail) with an outbox row asking the reply task to handle it, in one
transaction (server/mail/replies.receive), and the row is published after the commit; the
answer is 202 with the mail's id. The provider retries on anything but a 2xx, so a refusal is
only given for a request that can never succeed: a wrong secret (401), no mail in it (400), a
mail too large (413); a database that cannot take the mail answers 503, to be tried again.

Off (404) until INBOUND_MAIL_SECRET is set. The secret comes as ``Authorization: Bearer
<secret>`` or as the password of HTTP Basic (providers put credentials in the hook's URL,
``https://hook:<secret>@games.example.org/inbound/mail``).

Bodies taken: the raw MIME itself (Content-Type message/rfc822, text/plain or
application/octet-stream), or a form (multipart/form-data; url-encoded is taken too) with the
raw mail in the field ``email`` (SendGrid Inbound Parse, "POST the raw, full MIME message") or
``body-mime`` (Mailgun, a route forwarding to a URL ending in "mime"). The envelope the
provider reports (SendGrid ``envelope``, Mailgun ``recipient`` / ``sender``) is recorded as
Delivered-To and Return-Path headers, as the SMTP server does: the recipient carries the reply
token even when To: does not.
"""

from __future__ import annotations

import base64
import binascii
import email
import hmac
import json
import logging
import re
from email import policy
from http import HTTPStatus

from flask import Blueprint, Response, current_app, jsonify, request
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import RequestEntityTooLarge

from server import db
from server.mail import replies
from server.problem_json import problem_response
from server import request_limits

log = logging.getLogger("whistlestop.mail")

bp = Blueprint("inbound", __name__)
# The hook takes mails up to INBOUND_MAIL_MAX_BYTES, not the app's request limit (chunked too).
bp.record_once(lambda state: request_limits.allow(state.app, "inbound.receive",
                                                  "INBOUND_MAIL_MAX_BYTES"))

RAW_TYPES = ("message/rfc822", "text/plain", "application/octet-stream")
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
FORM_FIELDS = ("email", "body-mime")  # SendGrid raw, Mailgun mime
# An address fit for a header line: no spaces, no line breaks, no angle brackets.
_ADDRESS = re.compile(r"^[^\s<>\"]{1,320}$")


class Refused(Exception):
    """A request the hook will not take: its status, the reason in words, extra headers."""

    def __init__(self, status: int, detail: str, headers: dict | None = None):
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers or {}


@bp.errorhandler(413)
def _too_large(error):
    """A body past INBOUND_MAIL_MAX_BYTES (refused before the view, chunked ones too)."""
    limit = int(current_app.config["INBOUND_MAIL_MAX_BYTES"])
    return _problem(413, f"The request is larger than this server takes ({limit} bytes, "
                         f"INBOUND_MAIL_MAX_BYTES).")


@bp.post("/inbound/mail")
def receive():
    secret = current_app.config.get("INBOUND_MAIL_SECRET", "")
    if not secret:
        return _problem(404, "The inbound mail hook is off on this server "
                             "(INBOUND_MAIL_SECRET is not set).")
    try:
        _authenticate(secret)
        raw = _raw_mail(int(current_app.config["INBOUND_MAIL_MAX_BYTES"]))
        _check_mail(raw)
    except Refused as refused:
        return _problem(refused.status, refused.detail, refused.headers)
    try:
        with db.session() as session:
            inbound_id = replies.receive(session, raw, "http")
    except SQLAlchemyError:  # the provider tries again later, as an MTA does after a 451
        log.exception("could not keep a mail from the HTTP hook")
        return _problem(503, "The mail could not be stored; try again later.",
                        {"Retry-After": "60"})
    log.info("kept mail #%s from the HTTP hook (%s bytes)", inbound_id, len(raw))
    response = jsonify(id=inbound_id)
    response.status_code = 202
    return response


def _problem(status: int, detail: str, headers: dict | None = None) -> Response:
    return problem_response({"type": "about:blank", "title": HTTPStatus(status).phrase,
                             "status": status, "detail": detail}, status, headers)


def _authenticate(secret: str) -> None:
    """Return when the request carries the secret; raise Refused(401) otherwise."""
    given = _credential(request.headers.get("Authorization", ""))
    if given is None or not hmac.compare_digest(given.encode(), secret.encode()):
        raise Refused(401, "Wrong or missing credentials: send 'Authorization: Bearer "
                           "<INBOUND_MAIL_SECRET>', or HTTP Basic with the secret as the "
                           "password (https://user:<secret>@host/inbound/mail).",
                      {"WWW-Authenticate": 'Bearer realm="inbound mail", '
                                           'Basic realm="inbound mail"'})


def _credential(header: str) -> str | None:
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer" and value:
        return value
    if scheme.lower() == "basic" and value:
        try:
            decoded = base64.b64decode(value, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None
        _user, sep, password = decoded.partition(":")
        return password if sep else None
    return None


def _raw_mail(limit: int) -> bytes:
    """The raw mail the request carries; raise Refused (400, 413) when there is none."""
    request.max_form_memory_size = limit
    too_large = Refused(413, f"The request is larger than this server takes "
                             f"({limit} bytes, INBOUND_MAIL_MAX_BYTES).")
    if request.content_length is not None and request.content_length > limit:
        raise too_large
    mimetype = request.mimetype
    try:
        if mimetype in FORM_TYPES:
            return _from_form()
        if mimetype in RAW_TYPES:
            return request.get_data(cache=False)
    except RequestEntityTooLarge:
        raise too_large from None
    raise Refused(400, f"Content-Type {mimetype or '(none)'} is not taken here: post the raw "
                       f"mail as {', '.join(RAW_TYPES)}, or a form (multipart/form-data) with "
                       f"the raw mail in the field 'email' (SendGrid) or 'body-mime' (Mailgun).")


def _from_form() -> bytes:
    for name in FORM_FIELDS:
        if name in request.form:
            raw = request.form[name].encode("utf-8", "surrogateescape")
        elif name in request.files:
            raw = request.files[name].read()
        else:
            continue
        return _envelope_headers() + raw
    raise Refused(400, "The form has no raw mail: expected the field 'email' (SendGrid Inbound "
                       "Parse with 'POST the raw, full MIME message') or 'body-mime' (Mailgun, "
                       "a route to a URL ending in 'mime').")


def _envelope_headers() -> bytes:
    """Return-Path and Delivered-To lines for the envelope the provider reported, if any."""
    sender, recipients = None, []
    if "envelope" in request.form:  # SendGrid: {"to": [...], "from": "..."}
        try:
            envelope = json.loads(request.form["envelope"])
        except ValueError:
            envelope = {}
        if isinstance(envelope, dict):
            sender = envelope.get("from")
            to = envelope.get("to") or []
            recipients = to if isinstance(to, list) else [to]
    else:  # Mailgun
        sender = request.form.get("sender")
        recipients = [r.strip() for r in request.form.get("recipient", "").split(",")]
    lines = []
    if isinstance(sender, str) and _ADDRESS.match(sender):
        lines.append(f"Return-Path: <{sender}>\r\n")
    lines += [f"Delivered-To: {r}\r\n" for r in recipients
              if isinstance(r, str) and _ADDRESS.match(r)]
    return "".join(lines).encode("utf-8", "surrogateescape")


def _check_mail(raw: bytes) -> None:
    """Raise Refused(400) unless ``raw`` reads as a mail message."""
    if not raw.strip():
        raise Refused(400, "The request has no mail in it (the body is empty).")
    message = email.message_from_bytes(raw, policy=policy.compat32)
    if message["From"] is None or not any(message[h] for h in ("To", "Cc", "Delivered-To")):
        raise Refused(400, "The body is not a mail message: it has no From header or no "
                           "recipient (To, Cc or Delivered-To). Post the raw MIME message as "
                           "received, headers first.")

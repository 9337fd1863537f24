"""Mail that no person wrote: bounces (delivery reports) and auto-replies (RFC 3834)."""

from __future__ import annotations

import re
from email.message import EmailMessage

from server.mail.inbound import headers
from server.mail.inbound.reply import Kind

# Senders of delivery reports: RFC 5321 §4.5.1 (postmaster), the MTAs' MAILER-DAEMON, and
# Exchange Online's NDR mailbox "MicrosoftExchange<32 hex>@..." (as Sisimai's Office365 module).
_BOUNCE_SENDER = re.compile(r"(mailer-daemon|postmaster|microsoftexchange[0-9a-f]{32})@", re.I)

# Subjects MTAs give their reports, as Sisimai and bounce detectors match them: Exchange,
# Postfix, Gmail, Exim, Sendmail, qmail, and the French and Italian Exchange.
_BOUNCE_SUBJECT = re.compile(
    r"(Undeliverable|Undelivered Mail Returned to Sender|Delivery Status Notification"
    r"|Mail delivery failed|Returned mail:|failure notice|Delivery has failed"
    r"|Mail System Error|Non remis|Non recapitabile)", re.I)

# Subject prefixes of autoresponders: Outlook/Exchange ("Automatic reply:", and "Auto:" in
# Lotus Notes and older Outlook), vacation programs, and the Spanish, Japanese, German and
# French Exchange ("Respuesta automática:", "自動応答:", "Automatische Antwort:",
# "Réponse automatique :").
_AUTO_SUBJECT = re.compile(
    r"(Auto:|Automatic reply|Auto[- ]?reply|Autoresponder|Out of (the )?Office"
    r"|Respuesta automática|Fuera de la oficina|自動応答|自動返信"
    r"|Automatische Antwort|Abwesenheitsnotiz|Réponse automatique)", re.I)

# RFC 3834 §2 and §3.1.8: Precedence is not standard, but these values mark mail that must
# not be answered, and vacation(1) sends with "Precedence: bulk".
_AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}


def classify(msg: EmailMessage, subject: str, sender: str | None) -> tuple[Kind, str] | None:
    """The kind and reason of a mail no person wrote, or None for a person's mail."""
    return _bounce(msg, subject, sender) or _auto_reply(msg, subject)


def _bounce(msg: EmailMessage, subject: str, sender: str | None) -> tuple[Kind, str] | None:
    if headers.content_type(msg) == "multipart/report":
        report = headers.param(msg, "report-type").lower() or "delivery-status"
        if report == "delivery-status":  # RFC 3464 DSN
            return Kind.BOUNCE, "delivery status notification (multipart/report)"
        # RFC 8098 read receipt (disposition-notification), RFC 5965 abuse report, ...
        return Kind.AUTO_REPLY, f"automatic report ({report})"
    if headers.texts(msg, "X-Failed-Recipients"):  # Exim
        return Kind.BOUNCE, "delivery failure report (X-Failed-Recipients)"
    if "X-MS-Exchange-Message-Is-Ndr" in msg:  # Exchange; the header has no value
        return Kind.BOUNCE, "Exchange non-delivery report (X-MS-Exchange-Message-Is-Ndr)"
    if sender and _BOUNCE_SENDER.match(sender):
        return Kind.BOUNCE, f"delivery report from {sender}"
    if _BOUNCE_SUBJECT.match(subject):
        return Kind.BOUNCE, f"delivery report (subject {subject!r})"
    return None


def _auto_reply(msg: EmailMessage, subject: str) -> tuple[Kind, str] | None:
    # RFC 3834 §5.1: any Auto-Submitted value but "no" marks an automatic message.
    auto_submitted = headers.first_word(headers.text(msg, "Auto-Submitted"))
    if auto_submitted and auto_submitted != "no":
        return Kind.AUTO_REPLY, f"automatic reply (Auto-Submitted: {auto_submitted})"
    # Set by many autoresponders before RFC 3834. X-Auto-Response-Suppress is not a sign: it
    # is what senders (ourselves included) set to ask Exchange not to answer.
    for name in ("X-Autoreply", "X-Autorespond"):
        if name in msg:
            return Kind.AUTO_REPLY, f"automatic reply ({name})"
    precedence = headers.first_word(headers.text(msg, "Precedence"))
    if precedence in _AUTO_PRECEDENCE:
        return Kind.AUTO_REPLY, f"automatic reply (Precedence: {precedence})"
    if _AUTO_SUBJECT.match(subject):
        return Kind.AUTO_REPLY, f"automatic reply (subject {subject!r})"
    # RFC 3834 §3.3 and RFC 5321 §4.5.5: autoresponders and DSNs send with a null envelope sender.
    if "".join(headers.text(msg, "Return-Path").split()) == "<>":
        return Kind.AUTO_REPLY, "bounce or automatic reply (empty envelope sender, Return-Path: <>)"
    return None


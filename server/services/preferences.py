"""A user's mail settings: which mails (``mail_mode``), their language (``locale``), and the
webhooks that get the same notifications. Each change is checked whole before anything is
written, and written in one transaction: a refused change changes nothing.

Who may change what (``power``): a mail's settings link is read by whoever reads the mail (a
forwarded mail, a shared inbox, a mail archive), so it may only *reduce* that reader's mail,
and only while it is the newest mail's link (links rotate: services/links.preferences_token);
an older link may only unsubscribe (``one_click``: it is also the List-Unsubscribe header's,
which must keep working). Getting more mail, the language, the time zone
(services/time_zones.py) and webhooks need the user's signed-in session.

Unsubscribing never loses a game (issue 25, item 5; server/mail/kinds.py): a mail's link never
stops the mails a game needs. Its one-click unsubscribe (``one_click``) stops the kind of an
informational mail it came in; on a needed mail it takes the daily digest instead of a mail for
each decision, or, for a digest reader, stops the informational mails. A mail confirms what
changed and how to undo it. Only the signed-in user may choose no mail at all (the games then
wait for their deadlines with no mail)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import delete, func
from sqlmodel import Session, select

from server.i18n import LOCALES
from server.mail import kinds
from server.models import MailSent, OutboxMessage, User, Webhook, WebhookSent
from server.services import outbox, time_zones, webhook_urls

MAIL_MODES = ("every", "digest", "none")  # from the most mail to the least

# What a request may change (``power``), from the least to the most.
UNSUBSCRIBE = "unsubscribe"  # a one-click unsubscribe only: an older mail's link
REDUCE = "reduce"  # choose less mail, never none: the newest mail's link
EVERYTHING = "everything"  # the user's own signed-in session
MAX_WEBHOOKS = 5


class Refused(ValueError):
    """A change that was not made; the message says why, in words for the user."""


class ZoneRefused(Refused):
    """A time zone not taken; ``message``: why (services/time_zones.py), to tell in the
    reader's language."""

    def __init__(self, refused: time_zones.ZoneRefused):
        super().__init__(str(refused))
        self.message = refused.message


@dataclass(frozen=True)
class Settings:
    mail_mode: str
    locale: str
    webhooks: list[Webhook]
    time_zone: str = "UTC"
    muted_kinds: tuple[str, ...] = ()


def power(session: Session, user: User, mail: int | None, signed_in: int | None) -> str:
    """What may be changed by a request with the settings link of outbox row ``mail`` (None: a
    link of the older form, naming no mail) from a browser signed in as ``signed_in``."""
    if signed_in == user.id:
        return EVERYTHING
    if mail is None:
        return UNSUBSCRIBE
    newer = session.exec(select(MailSent.id).where(
        MailSent.address == user.email, MailSent.outbox_id > mail,
        MailSent.status != "refused").limit(1)).first()
    return UNSUBSCRIBE if newer is not None else REDUCE


def fewer(mail_mode: str, than: str) -> bool:
    """Whether ``mail_mode`` brings no more mail than ``than``."""
    return MAIL_MODES.index(mail_mode) >= MAIL_MODES.index(than)


def settings(session: Session, user: User) -> Settings:
    return Settings(user.mail_mode, user.locale, list(session.exec(
        select(Webhook).where(Webhook.user_id == user.id).order_by(Webhook.id)).all()),
        user.time_zone or "UTC", tuple(user.muted_kinds or ()))


def change(session: Session, user: User, mail_mode: str | None, locale: str | None,
           time_zone: str | None = None, muted: list[str] | None = None) -> None:
    """Set the mail mode, the language, the time zone and the informational kinds stopped
    (``muted``) (None: leave it); raise Refused (ZoneRefused for the zone), changing
    nothing."""
    if muted is not None and not set(muted) <= set(kinds.INFORMATIONAL):
        raise Refused(f"Only news mails can be stopped one by one: "
                      f"{', '.join(kinds.INFORMATIONAL)}.")
    if mail_mode is not None and mail_mode not in MAIL_MODES:
        raise Refused(f"{mail_mode!r} is not a mail setting; the settings are "
                      f"{', '.join(MAIL_MODES)}.")
    if locale is not None and locale not in LOCALES:
        raise Refused(f"{locale!r} is not a language mail is written in; the languages are "
                      f"{', '.join(LOCALES)}.")
    if time_zone is not None:
        try:
            time_zone = time_zones.check(time_zone)
        except time_zones.ZoneRefused as refused:
            raise ZoneRefused(refused) from None
    if mail_mode is not None:
        user.mail_mode = mail_mode
    if locale is not None:
        user.locale = locale
    if time_zone is not None:
        user.time_zone = time_zone
    if muted is not None:
        user.muted_kinds = [k for k in kinds.INFORMATIONAL if k in muted]
    session.add(user)
    session.commit()


def unsubscribe(session: Session, user: User) -> None:
    """No more mail about games: the signed-in user's own choice only (never a mail's link:
    ``one_click``)."""
    user.mail_mode = "none"
    session.add(user)
    session.commit()


# What a one-click unsubscribe changes (``offer``, ``one_click``): "kind" (the informational
# kind of the mail stops), "digest" (the daily digest instead of a mail for each decision),
# "news" (every informational kind stops), or None (nothing a mail's link may stop is left).
CHANGES = ("kind", "digest", "news")


def mail_kind(session: Session, user: User, mail: int | None) -> str | None:
    """The kind of the mail (outbox row ``mail``) a settings link came in, as it was sent to
    the user (an order's answer is order_received or order_refused); None when unknown (a link
    of the older form, a row gone)."""
    if mail is None:
        return None
    sent = session.exec(select(MailSent.kind).where(MailSent.outbox_id == mail,
                                                    MailSent.address == user.email)).first()
    if sent is not None:
        return sent
    row = session.get(OutboxMessage, mail)
    return row.kind if row is not None else None


def offer(user: User, kind: str | None) -> str | None:
    """What a one-click unsubscribe on a mail of ``kind`` would change now (``CHANGES``): never
    a needed mail (an unknown kind counts as needed)."""
    muted = set(user.muted_kinds or ())
    if kinds.informational(kind):
        return None if kind in muted or user.mail_mode == "none" else "kind"
    if user.mail_mode == "every":
        return "digest"
    if user.mail_mode == "digest" and set(kinds.INFORMATIONAL) - muted:
        return "news"
    return None


def link_offer(session: Session, user: User, mail: int | None) -> tuple[str | None, str | None]:
    """(the kind of the mail a settings link came in, what its one-click would change now):
    nothing once that mail's click has been answered."""
    kind = mail_kind(session, user, mail)
    if mail is not None and _clicked(session, user.id, mail):
        return kind, None
    return kind, offer(user, kind)


def one_click(session: Session, user: User, mail: int | None) -> str | None:
    """RFC 8058 one-click unsubscribe with the settings link of outbox row ``mail`` (None: a
    link of the older form): make the ``offer`` for the kind of that mail, with the mail that
    confirms it (outbox "unsubscribed", in the same transaction); return the change, or None
    when nothing changed (nothing left to stop, or this mail's click was answered already: a
    mail client may post twice, and the second must not stop more)."""
    kind, change = link_offer(session, user, mail)
    if change is None:
        return None
    if change == "kind":
        muted = set(user.muted_kinds or ()) | {kind}
        user.muted_kinds = [k for k in kinds.INFORMATIONAL if k in muted]
    elif change == "digest":
        user.mail_mode = "digest"
    else:
        user.muted_kinds = list(kinds.INFORMATIONAL)
    session.add(user)
    outbox.write(session, "unsubscribed", {"user_id": user.id, "mail": mail, "kind": kind,
                                           "change": change})
    session.commit()
    return change


def _clicked(session: Session, user_id: int, mail: int) -> bool:
    """Whether a one-click with the link of mail ``mail`` has changed the user's mail
    already."""
    rows = session.exec(select(OutboxMessage.payload).where(
        OutboxMessage.kind == "unsubscribed", OutboxMessage.id > mail)).all()
    return any(p.get("user_id") == user_id and p.get("mail") == mail for p in rows)


def add_webhook(session: Session, user: User, url: str, flavor: str | None,
                allow_http: bool) -> Webhook:
    """Add a webhook; raise Refused (a URL or kind not taken, too many, the same URL twice)."""
    try:
        url = webhook_urls.check_url(url, allow_http)
        flavor = webhook_urls.check_flavor(flavor, url)
    except webhook_urls.BadWebhook as exc:
        raise Refused(str(exc)) from None
    count = session.exec(select(func.count()).select_from(Webhook).where(
        Webhook.user_id == user.id)).one()
    if count >= MAX_WEBHOOKS:
        raise Refused(f"You have {MAX_WEBHOOKS} webhooks already, the most one user may have; "
                      "remove one first.")
    if session.exec(select(Webhook.id).where(Webhook.user_id == user.id,
                                             Webhook.url == url)).first() is not None:
        raise Refused("This webhook is on your list already.")
    hook = Webhook(user_id=user.id, url=url, flavor=flavor)
    session.add(hook)
    session.commit()
    session.refresh(hook)
    return hook


def remove_webhook(session: Session, user: User, webhook_id: int) -> None:
    """Remove one of the user's webhooks (and the record of its posts); raise Refused."""
    hook = session.get(Webhook, webhook_id)
    if hook is None or hook.user_id != user.id:
        raise Refused("There is no such webhook on your list (removed already?).")
    session.execute(delete(WebhookSent).where(WebhookSent.webhook_id == webhook_id))
    session.delete(hook)
    session.commit()


def turn_on_webhook(session: Session, user: User, webhook_id: int) -> None:
    """Turn back on one of the user's webhooks that failing posts turned off; raise Refused."""
    hook = session.get(Webhook, webhook_id)
    if hook is None or hook.user_id != user.id:
        raise Refused("There is no such webhook on your list (removed already?).")
    hook.disabled_at, hook.failures, hook.last_error = None, 0, None
    session.add(hook)
    session.commit()


def failure_kind(error: str | None) -> str:
    """What a webhook's last failure was, fit to show its user: the kind ("HTTP 404",
    "ConnectTimeout"), never the webhook's own words."""
    return (error or "").split(":", 1)[0][:40]


def masked(url: str) -> str:
    """A webhook URL fit to show: its host and the end of its path (the rest is its secret)."""
    parts = urlsplit(url)
    tail = parts.path[-4:] if len(parts.path) > 12 else ""
    return f"{parts.scheme}://{parts.netloc}/…{tail}"

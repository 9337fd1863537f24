"""A user's mail settings: which mails (``mail_mode``), their language (``locale``), and the
webhooks that get the same notifications. Each change is checked whole before anything is
written, and written in one transaction: a refused change changes nothing.

Who may change what (``power``): a mail's settings link is read by whoever reads the mail (a
forwarded mail, a shared inbox, a mail archive), so it may only *reduce* that reader's mail,
and only while it is the newest mail's link (links rotate: services/links.preferences_token);
an older link may only stop mail (it is also the List-Unsubscribe header's, which must keep
working). Getting more mail, the language, and webhooks need the user's signed-in session."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import delete, func
from sqlmodel import Session, select

from server.i18n import LOCALES
from server.models import MailSent, User, Webhook, WebhookSent
from server.services import webhook_urls

MAIL_MODES = ("every", "digest", "none")  # from the most mail to the least

# What a request may change (``power``), from the least to the most.
UNSUBSCRIBE = "unsubscribe"  # stop all mail: an older mail's link
REDUCE = "reduce"  # choose less mail: the newest mail's link
EVERYTHING = "everything"  # the user's own signed-in session
MAX_WEBHOOKS = 5


class Refused(ValueError):
    """A change that was not made; the message says why, in words for the user."""


@dataclass(frozen=True)
class Settings:
    mail_mode: str
    locale: str
    webhooks: list[Webhook]


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
        select(Webhook).where(Webhook.user_id == user.id).order_by(Webhook.id)).all()))


def change(session: Session, user: User, mail_mode: str | None, locale: str | None) -> None:
    """Set the mail mode and the language (None: leave it); raise Refused, changing nothing."""
    if mail_mode is not None and mail_mode not in MAIL_MODES:
        raise Refused(f"{mail_mode!r} is not a mail setting; the settings are "
                      f"{', '.join(MAIL_MODES)}.")
    if locale is not None and locale not in LOCALES:
        raise Refused(f"{locale!r} is not a language mail is written in; the languages are "
                      f"{', '.join(LOCALES)}.")
    if mail_mode is not None:
        user.mail_mode = mail_mode
    if locale is not None:
        user.locale = locale
    session.add(user)
    session.commit()


def unsubscribe(session: Session, user: User) -> None:
    """No more mail about games (RFC 8058 one-click unsubscribe)."""
    user.mail_mode = "none"
    session.add(user)
    session.commit()


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

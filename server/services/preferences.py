"""A user's mail settings: which mails (``mail_mode``), their language (``locale``), and the
webhooks that get the same notifications. Each change is checked whole before anything is
written, and written in one transaction: a refused change changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import delete, func
from sqlmodel import Session, select

from server.mail import webhooks
from server.mail.render import LOCALES
from server.models import User, Webhook, WebhookSent

MAIL_MODES = ("every", "digest", "none")
MAX_WEBHOOKS = 5


class Refused(ValueError):
    """A change that was not made; the message says why, in words for the user."""


@dataclass(frozen=True)
class Settings:
    mail_mode: str
    locale: str
    webhooks: list[Webhook]


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
        url = webhooks.check_url(url, allow_http)
        flavor = webhooks.check_flavor(flavor, url)
    except webhooks.BadWebhook as exc:
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


def masked(url: str) -> str:
    """A webhook URL fit to show: its host and the end of its path (the rest is its secret)."""
    parts = urlsplit(url)
    tail = parts.path[-4:] if len(parts.path) > 12 else ""
    return f"{parts.scheme}://{parts.netloc}/…{tail}"

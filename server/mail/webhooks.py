"""Post each notification to the recipient's webhooks as Discord- or Slack-compatible JSON.

The notify task finds them (``posts``) with the mails of the same outbox row, from the same
envelopes (``recipients.envelopes``, with those of users who take no such mail), so a webhook
says what the mail says, in the user's language, and a user's webhooks get that user's
notifications only; it queues them, and they are posted on their own queue, with backoff,
a turned-off webhook getting none (server/mail/webhook_queue.py). A post carries the mail's
subject, a line saying what happened (``NEWS``) and the game page's address: never the mail's
text, with its signed links and the seat's hand (webhook channels are read by others).

Only https:// URLs are taken, unless WEBHOOK_ALLOW_HTTP (server/services/webhook_urls.py: a
webhook URL is the user's to choose, and plain http would carry game news, and the hook's own
secret, in clear). Posts go to public internet addresses only (``public_http``: the address
each connection reaches is checked), unless WEBHOOK_ALLOW_PRIVATE; a post refused for that
fails for good.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import requests
from sqlmodel import Session, select

from server import i18n
from server.mail import public_http, render
from server.mail.recipients import PRIVATE, Envelope
from server.models import Webhook

log = logging.getLogger("whistlestop.webhooks")

EXCERPT = 1500  # characters of the mail's text in a post (Discord allows 4096 in an embed)
LEASE = 120.0  # seconds a claim keeps other runs off a post (the request timeout is shorter)
DONE = ("sent", "failed")


@dataclass(frozen=True)
class Post:
    url: str
    json: dict
    user_id: int | None = None  # whose notification it is
    # The decision (game id, seat, step) whose player a 2xx answer reaches (services/reach.py)
    reach: tuple | None = None


def payload(flavor: str, subject: str, text: str, url: str | None) -> dict:
    """The JSON posted to a webhook of this flavor."""
    excerpt = text if len(text) <= EXCERPT else text[:EXCERPT - 1].rstrip() + "…"
    if flavor == "slack":
        return {"text": f"{subject}\n{excerpt}"}
    embed = {"title": subject[:256], "description": excerpt}
    if url:
        embed["url"] = url
    # No mentions, whatever a player's name says: a game's news never pings a channel.
    return {"content": subject[:2000], "embeds": [embed], "allowed_mentions": {"parse": []}}


def users(found: list[tuple[int, Post]]) -> set[int]:
    """The users whose webhooks ``found`` posts to."""
    return {one.user_id for _hook, one in found}


def posts(session: Session, envelopes: list[Envelope]) -> list[tuple[int, Post]]:
    """(webhook id, what to post) for each webhook of each envelope's user."""
    envelopes = [e for e in envelopes if e.user_id is not None and e.kind not in PRIVATE]
    if not envelopes:
        return []
    hooks: dict[int, list[Webhook]] = {}
    for hook in session.exec(select(Webhook).where(
            Webhook.user_id.in_({e.user_id for e in envelopes}),
            Webhook.disabled_at.is_(None)).order_by(Webhook.id)).all():
        hooks.setdefault(hook.user_id, []).append(hook)
    posts = []
    for envelope in envelopes:
        if envelope.user_id not in hooks:
            continue
        rendered = render.render(envelope.kind, envelope.context, envelope.locale)
        url = _game_url(envelope)
        text = i18n.gettext(NEWS.get(envelope.kind, NEWS_OTHER), envelope.locale)
        for hook in hooks[envelope.user_id]:
            posts.append((hook.id, Post(hook.url, payload(hook.flavor, rendered.subject,
                                                          text, url),
                                        envelope.user_id,
                                        next(iter(envelope.decisions), None))))
    return posts


def N_(message: str) -> str:
    """A message for pybabel to extract (babel.cfg: server/mail), translated when posted."""
    return message


# What a post says: what happened, in a line, and (the payload's url) the game page. Never the
# mail's text: a webhook is a channel others may read, and a mail carries the seat's hand, its
# signed choice links and its mail settings link, which only the seat's player may have.
NEWS = {
    "invitation": N_("You are invited to a game."),
    "seat_joined": N_("A player joined your game."),
    "game_started": N_("Your game has started."),
    "your_decision": N_("It is your move."),
    "game_over": N_("The game is over."),
    "rematch": N_("A rematch of your game was offered, answered or made."),
    "order_received": N_("Your order by mail was read."),
    "order_refused": N_("Your order by mail was not applied."),
    "reminder": N_("A deadline is near: it is your move."),
    "deadline_passed": N_("A deadline passed in your game."),
    "step_resolved": N_("Everybody has chosen: the step is resolved."),
    "not_reached": N_("A deadline in your game waits: nothing has reached the player yet."),
    "pause": N_("A pause of your game was asked, agreed, refused or ended."),
    "extension": N_("More time for a decision was asked, granted or refused."),
    "table_talk": N_("There is new table talk in your game."),
}
NEWS_OTHER = N_("There is news in your game.")


def _game_url(envelope: Envelope) -> str | None:
    url = envelope.context.get("game_url")
    return url if isinstance(url, str) and url else None


def send(post: Post, timeout: float, allow_private: bool = False) -> tuple[str | None, bool]:
    """(None, _) when the webhook took the post; else (the error, whether it is final)."""
    # No redirects: a hook may not send the post on to an address the user did not give.
    # Streamed, so that only the start of an answer is ever read.
    try:
        with public_http.session(allow_private) as http, http.post(
                post.url, json=post.json, timeout=timeout, allow_redirects=False, stream=True,
                headers={"User-Agent": "Whistlestop webhook"}) as answer:
            status = answer.status_code
            if 200 <= status < 300:
                return None, True
            body = next(answer.iter_content(500), b"").decode("utf-8", "replace")
    except public_http.PrivateAddress as exc:
        return f"refused: {exc}"[:2000], True
    except requests.RequestException as exc:
        return f"{type(exc).__name__}: {exc}"[:2000], False
    error = f"HTTP {status}: {body}".strip()[:2000]
    return error, not (status == 429 or status >= 500)

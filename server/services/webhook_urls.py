"""The webhook URLs and kinds a user may add (server/services/preferences.py), checked before
anything is written.

Only https:// URLs are taken, unless WEBHOOK_ALLOW_HTTP: a webhook URL is the user's to choose,
and plain http would carry game news, and the hook's own secret, in clear. The posts themselves
(server/mail/webhooks.py) are written for these kinds (``FLAVORS``), and go to public internet
addresses only, whatever the URL says (server/mail/public_http.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

FLAVORS = ("discord", "slack")
MAX_URL = 2000


class BadWebhook(ValueError):
    """A webhook URL or flavor this server will not post to; the message says why."""


def check_url(url: str, allow_http: bool = False) -> str:
    """The URL, stripped, if the server may post to it; raise BadWebhook saying why not."""
    url = (url or "").strip()
    if not url:
        raise BadWebhook("Give the webhook's URL (Discord: channel settings, Integrations, "
                         "Webhooks; Slack: an app's Incoming Webhooks).")
    if len(url) > MAX_URL:
        raise BadWebhook(f"A webhook URL may have at most {MAX_URL} characters.")
    if any(c.isspace() or ord(c) < 32 for c in url):
        raise BadWebhook("A webhook URL has no spaces or line breaks in it.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number)
    except ValueError:
        raise BadWebhook(f"{url!r} is not a URL.") from None
    allowed = ("https", "http") if allow_http else ("https",)
    if parts.scheme.lower() not in allowed or not parts.hostname:
        raise BadWebhook("A webhook URL must start with https:// and name a host "
                         "(plain http would carry the hook's secret in clear)."
                         if not allow_http else
                         "A webhook URL must start with https:// or http:// and name a host.")
    if parts.username or parts.password:
        raise BadWebhook("A webhook URL may not carry a user name or password.")
    return url


def check_flavor(flavor: str | None, url: str) -> str:
    """The flavor asked for, or guessed from the URL when none is; raise BadWebhook."""
    flavor = (flavor or "").strip().lower()
    if not flavor:
        host = (urlsplit(url).hostname or "").lower()
        return "slack" if host == "hooks.slack.com" or host.endswith(".slack.com") else "discord"
    if flavor not in FLAVORS:
        raise BadWebhook(f"The webhook kind {flavor!r} is unknown; the kinds are "
                         f"{' and '.join(FLAVORS)}.")
    return flavor

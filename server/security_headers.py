"""Headers every response carries, so that a browser keeps the pages to themselves:

- no framing by other sites (``X-Frame-Options: SAMEORIGIN`` and CSP ``frame-ancestors
  'self'``): a page of this server inside another site's frame could be clicked through
  (clickjacking a decision's "Commit" button); the local mail page frames its own mails;
- ``Referrer-Policy: same-origin``: a page opened by a signed link (a decision, a sign-in)
  never hands its address, which holds the token, to another site;
- ``X-Content-Type-Options: nosniff``: a mail's HTML or a JSON answer is never run as
  something else.
"""

from __future__ import annotations

from flask import Flask, Response

FRAME_ANCESTORS = "frame-ancestors 'self'"


def init_app(app: Flask) -> None:
    app.after_request(_harden)


def _harden(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    policy = headers.get("Content-Security-Policy")
    if policy is None:
        headers["Content-Security-Policy"] = FRAME_ANCESTORS
    elif "frame-ancestors" not in policy:
        headers["Content-Security-Policy"] = f"{policy}; {FRAME_ANCESTORS}"
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    return response

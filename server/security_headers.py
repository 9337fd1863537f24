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


# Set on every response unless the view set its own.
_DEFAULTS = (("X-Frame-Options", "SAMEORIGIN"), ("Referrer-Policy", "same-origin"),
             ("X-Content-Type-Options", "nosniff"))


def _harden(response: Response) -> Response:
    headers = response.headers
    present = {key.lower() for key in headers.keys()}  # one pass over the headers
    if "content-security-policy" not in present:
        headers.add("Content-Security-Policy", FRAME_ANCESTORS)
    else:
        policy = headers["Content-Security-Policy"]
        if "frame-ancestors" not in policy:
            headers["Content-Security-Policy"] = f"{policy}; {FRAME_ANCESTORS}"
    for key, value in _DEFAULTS:
        if key.lower() not in present:
            headers.add(key, value)
    return response

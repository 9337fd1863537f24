"""Problem documents (RFC 9457, application/problem+json) as HTTP responses.

Below the API (server/api/problems.py, its problem types and their documentation) and the web
layer (server/web/inbound.py, the mail provider's hook), which both answer a refusal as a
problem document, in the same bytes.
"""

from __future__ import annotations

import json

from flask import Response

MEDIA_TYPE = "application/problem+json"


def problem_response(body: dict, status: int, headers: dict | None = None) -> Response:
    """A problem+json response with exactly these bytes for the same body."""
    return Response(json.dumps(body, ensure_ascii=False), status=status, mimetype=MEDIA_TYPE,
                    headers=headers or {})

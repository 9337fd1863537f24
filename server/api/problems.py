"""Errors as application/problem+json (RFC 9457): type, title, status, detail, extensions.

Every refusal of the API is a Problem. Its ``type`` is an absolute URL under
/api/v1/problems/ that documents it; plain HTTP errors (an unknown route, a wrong method,
a crash) are ``about:blank`` with the status phrase as title, as the RFC asks.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from flask import Response, request
from werkzeug.exceptions import HTTPException

from server.problem_json import problem_response

PREFIX = "/api/v1"

# slug: (status, title, what it means and what to do)
TYPES: dict[str, tuple[int, str, str]] = {
    "unauthorized": (401, "Authentication required",
                     "Send 'Authorization: Bearer <token>'. POST /api/v1/users mails a link to "
                     "your address that proves it and leads to the page that makes a token; "
                     "POST /api/v1/users/me/tokens makes another."),
    "forbidden": (403, "Not allowed",
                  "You may see this game but may not do this (not your seat, not the creator)."),
    "signup-closed": (403, "Sign-up is closed",
                      "This server does not let anybody sign up; ask its operator for an account."),
    "not-found": (404, "Not found",
                  "There is no such game, or it is private and you may not see it."),
    "conflict": (409, "Conflict",
                 "The request does not fit the game's current state (already started, seat "
                 "taken, already joined, game not in play)."),
    "stale-step": (409, "Stale step",
                   "The order answers a step that is no longer current. current_step and "
                   "decision say what is asked now; send the order again with that step."),
    "retract-refused": (409, "Move cannot be taken back",
                        "Only your last sequential move can be taken back, while the game is "
                        "still at the step it led to, within your hold and before the next "
                        "player has seen it, and only if it drew nothing and showed you "
                        "nothing hidden; code says which of these failed (nothing, sealed, "
                        "chance, hidden, other_seat, not_handed_over, no_hold, deadline, "
                        "bot_next, seen, "
                        "hold_over, game_over)."),
    "held-move": (409, "Another player's move may still be taken back",
                  "Nothing was changed: another player's last move may still be taken back "
                  "(held_until says until when), so the game is still at the step before it "
                  "for you and no order of yours is taken. You will be told when the move is "
                  "final; POST /api/v1/games/{id}/show-move shows it now (it is then final)."),
    "absence-refused": (409, "Choice about an absent seat refused",
                        "Nothing was changed: the choice about an absent seat (issue 46) is "
                        "not one you may make now. detail says why, allowed what you may "
                        "choose instead; 400 names no choice there is, 410 the seat was "
                        "settled already (settled: how)."),
    "idempotency-key-in-progress": (409, "Request still being processed",
                                    "A request with this Idempotency-Key is still being "
                                    "processed; retry in a moment to get its answer."),
    "too-many-requests": (429, "Too many requests",
                          "A rate limit is reached (mails to one address, sign-ups, games "
                          "created, all-bot games at once); Retry-After says when to try again."),
    "invalid-request": (422, "Invalid request",
                        "The request's body or query does not have the documented shape; "
                        "errors lists the fields and what is wrong with each."),
    "illegal-action": (422, "Illegal action",
                       "The rules do not allow this action now; detail gives the reason in the "
                       "game's words and legal_actions what would be accepted."),
    "malformed-action": (422, "Malformed action",
                         "The text is not an action in the game's notation; legal_actions "
                         "lists what would be accepted."),
    "invalid-standing-order": (422, "Invalid standing order",
                               "The standing order cannot be filed; detail says why and what "
                               "would do."),
    "invalid-chat-message": (422, "Chat message refused",
                             "The chat line (or report, or mute) cannot be taken: empty, too "
                             "long, or not one you may make; detail says why."),
    "invalid-options": (422, "Invalid game, options or seat",
                        "The game type, options or seats asked for are not ones the game has."),
    "invalid-notes": (422, "Notes not saved",
                      "The notes are too long or not plain text; detail says why. Nothing "
                      "was changed."),
    "account-in-use": (409, "Account holds seats",
                       "The account holds seats in unfinished games; seats lists them. Finish "
                       "or resign them, or ask again with hand_over=true."),
    "confirmation-required": (422, "Confirmation required",
                              "Deleting the account needs confirm: the account's address, "
                              "typed again."),
    "idempotency-key-reused": (422, "Idempotency-Key reused",
                               "This Idempotency-Key was used for a different request; use a "
                               "new key for every new request."),
    "database-busy": (503, "Server busy",
                      "The database stayed locked longer than a request waits (another "
                      "long write, a backup): nothing was changed; send the request again "
                      "after Retry-After seconds."),
}


def type_url(slug: str) -> str:
    """The absolute URL that documents a problem type."""
    return request.host_url.rstrip("/") + f"{PREFIX}/problems/{slug}"


class Problem(Exception):
    """A refusal to send as problem+json; ``extensions`` become extra members of the body."""

    def __init__(self, slug: str | None, detail: str, *, status: int | None = None,
                 headers: dict[str, str] | None = None, **extensions: Any):
        if slug is None:
            self.type, self.title = "about:blank", HTTPStatus(status).phrase
        else:
            default_status, self.title, _ = TYPES[slug]
            self.type = type_url(slug)
            status = status or default_status
        self.status = int(status)
        self.detail = detail
        self.headers = headers or {}
        self.extensions = extensions
        super().__init__(detail)

    def body(self) -> dict:
        return {"type": self.type, "title": self.title, "status": self.status,
                "detail": self.detail, **self.extensions}

    def response(self) -> Response:
        return problem_response(self.body(), self.status, self.headers)


def not_found() -> Problem:
    """The one answer for a missing game and for a private game the caller may not see."""
    return Problem("not-found", "There is no such game.")


def is_api_request() -> bool:
    return request.path == PREFIX or request.path.startswith(PREFIX + "/")


def _flatten(messages: Any, path: str = "") -> list[str]:
    """webargs' nested field errors as 'field.sub: message' lines."""
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            out += _flatten(value, f"{path}.{key}" if path else str(key))
        return out
    if isinstance(messages, (list, tuple)) and all(isinstance(m, str) for m in messages):
        return [f"{path}: {m}" if path else m for m in messages]
    if isinstance(messages, (list, tuple)):
        return [line for m in messages for line in _flatten(m, path)]
    return [f"{path}: {messages}" if path else str(messages)]


def from_http_exception(error: HTTPException) -> Problem:
    """The problem for a werkzeug HTTP error (webargs' validation errors among them)."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    messages = data.get("errors", data.get("messages"))
    if status == 422 and messages is not None:
        # webargs keys the errors by location ("json", "query"); drop that level in detail.
        lines = []
        for location, fields in messages.items():
            lines += _flatten(fields) if isinstance(fields, dict) else _flatten(fields, location)
        return Problem("invalid-request", "; ".join(lines) or "The request is not valid.",
                       headers=headers, errors=messages)
    if status >= 500:
        detail = "The server could not answer this request; the error has been logged."
    elif messages is not None:
        detail = "; ".join(_flatten(messages))
    else:
        detail = error.description or HTTPStatus(status).phrase
    return Problem(None, detail, status=status, headers=headers)

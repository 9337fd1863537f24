"""Idempotency-Key: the same key with the same request again gets the stored answer and has no
second effect; the same key with another request is refused.

A request claims its key by inserting the (user, key) row; the unique constraint makes one
request the owner. The owner stores its answer in the same transaction as its effect (see
services.games.submit_order's before_commit), so an answer exists exactly when the effect does.
A repeat that finds the key claimed but unanswered waits for the answer; a refused request
(which changed nothing) gives its claim back.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

from flask import current_app, jsonify, request
from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server import db
from server.api.problems import Problem
from server.models import IdempotencyKey, aware, utcnow
from server.services.users import sha256_hex

HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(r"^[\x21-\x7e]{1,200}$")  # printable ASCII, no spaces
POLL_SECONDS = 0.05

DOC_PARAMETER = {
    "in": "header", "name": HEADER, "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
    "description": "A key unique to this order (a UUID, say). Sending the same key and the "
                   "same request again answers the stored response with no second effect; the "
                   "same key with a different request is refused (422).",
}


class ClaimLost(Exception):
    """The claim was taken over as abandoned while this request worked; its effect is undone."""


@dataclass
class Claim:
    user_id: int
    key: str
    request_hash: str
    row_id: int | None = None  # the claim this request owns
    status_code: int | None = None  # set when a stored answer is to be replayed
    response: dict | None = None


def fingerprint() -> str:
    """sha256 of the request: method, path and body (JSON compared by value, not by bytes)."""
    body = request.get_json(silent=True)
    text = (json.dumps(body, sort_keys=True, separators=(",", ":")) if body is not None
            else request.get_data(as_text=True))
    return sha256_hex(f"{request.method} {request.path}\n{text}")


def _age_seconds(created_at) -> float:
    return (utcnow() - aware(created_at)).total_seconds()


def claim(user_id: int, key: str) -> Claim:
    """Own the key for this request, or return the stored answer of the same request.

    Raises 422 if the key was used for another request, 409 if the same request is still being
    processed after IDEMPOTENCY_WAIT_SECONDS.
    """
    if not KEY_PATTERN.match(key):
        raise Problem("invalid-request", f"The {HEADER} header must be 1 to 200 printable ASCII "
                      "characters without spaces (a UUID, say).",
                      errors={"headers": {HEADER: ["Not a valid key."]}})
    found = Claim(user_id=user_id, key=key, request_hash=fingerprint())
    engine = db.get_engine()
    deadline = time.monotonic() + current_app.config["IDEMPOTENCY_WAIT_SECONDS"]
    abandoned = current_app.config["IDEMPOTENCY_ABANDONED_SECONDS"]
    while True:
        with Session(engine) as session:
            row = session.exec(select(IdempotencyKey).where(IdempotencyKey.user_id == user_id,
                                                            IdempotencyKey.key == key)).first()
            if row is None:
                row = IdempotencyKey(user_id=user_id, key=key, request_hash=found.request_hash)
                session.add(row)
                try:
                    session.commit()
                except IntegrityError:  # another request claimed it first: read its claim
                    session.rollback()
                    continue
                found.row_id = row.id
                return found
            if row.request_hash != found.request_hash:
                raise Problem("idempotency-key-reused", f"The {HEADER} '{key}' was used for a "
                              "different request; use a new key for every new request.")
            if row.status_code is not None:
                found.status_code, found.response = row.status_code, row.response
                return found
            if _age_seconds(row.created_at) > abandoned:
                # Its owner died before committing (answer and effect commit together).
                session.execute(delete(IdempotencyKey).where(IdempotencyKey.id == row.id,
                                                             IdempotencyKey.status_code.is_(None)))
                session.commit()
                continue
        if time.monotonic() > deadline:
            raise Problem("idempotency-key-in-progress", f"A request with the {HEADER} '{key}' "
                          "is still being processed; retry in a moment for its answer.",
                          headers={"Retry-After": "1"})
        time.sleep(POLL_SECONDS)


def record(session: Session, claim_: Claim, status_code: int, response: dict) -> None:
    """Store the answer in the caller's transaction (the one making the effect)."""
    done = session.execute(update(IdempotencyKey)
                           .where(IdempotencyKey.id == claim_.row_id,
                                  IdempotencyKey.status_code.is_(None))
                           .values(status_code=status_code, response=response))
    if done.rowcount != 1:
        raise ClaimLost(claim_.key)


def release(claim_: Claim) -> None:
    """Give the key back: the request was refused or failed and changed nothing."""
    with Session(db.get_engine()) as session:
        session.execute(delete(IdempotencyKey).where(IdempotencyKey.id == claim_.row_id,
                                                     IdempotencyKey.status_code.is_(None)))
        session.commit()


def replay(claim_: Claim):
    """The stored answer, marked as a replay."""
    response = jsonify(claim_.response)
    response.status_code = claim_.status_code
    response.headers["Idempotent-Replayed"] = "true"
    return response

"""Orders: one action or a short list by the same seat, answering one step.

A sequential order is applied at once (200); in a simultaneous step it is stored sealed (202)
and may be replaced until the step resolves. A refused order changes nothing.
"""

from __future__ import annotations

from engine.core import ActionError, MalformedAction
from engine.core.messages import data
from flask import jsonify, request
from flask_smorest import Blueprint
from sqlmodel import Session

from server import db
from server.api import access, auth, idempotency, present, schemas
from server.api.problems import Problem, not_found
from server.models import Game
from server.i18n import game_text
from server.services import games, seat_view
from server.services import retract as retract_service
from server.services.games import GameNotFound, HeldMove, OrderResult, StaleStep

# A schema instance is stateless for load(); building one deep-copies its fields each time
# (webargs builds one per request from a class).
_ORDER_SCHEMA = schemas.OrderSchema()

blp = Blueprint("orders", __name__, url_prefix="/api/v1/games",
                description="Orders: answer your decision in the game's action notation.")


@blp.route("/<int:game_id>/orders", methods=["POST"])
@auth.required
@blp.arguments(_ORDER_SCHEMA, example={"step": 12, "action": "play 71 campaign"})
@blp.response(200, schemas.OrderAppliedSchema, description="The order was applied")
@blp.alt_response(202, schema=schemas.OrderSealedSchema, success=True,
                  description="Simultaneous step: the order is sealed until every seat has "
                              "committed (replaceable until then)")
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT", description="Stale step (current_step and decision "
                                                        "say what is asked now), or another "
                                                        "player's move may still be taken back "
                                                        "(held-move: nothing was changed; "
                                                        "held_until, and POST "
                                                        "/games/{id}/show-move to see it)")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY",
                  description="Illegal or malformed order: detail is the reason in the game's "
                              "words, legal_actions what would be accepted")
@blp.doc(parameters=[idempotency.DOC_PARAMETER])
def submit(order, game_id):
    """Submit an order: {step, actions: [...]} or {step, action}; send an Idempotency-Key."""
    user = auth.current_user()
    actions = order["actions"] if "actions" in order else [order["action"]]
    key = request.headers.get(idempotency.HEADER)
    claim = idempotency.claim(user.id, key) if key is not None else None
    if claim is not None and claim.status_code is not None:
        return idempotency.replay(claim)
    try:
        status, body = _submit(game_id, user, order.get("seat"), order["step"], actions, claim)
    except BaseException:
        if claim is not None:
            idempotency.release(claim)  # nothing was changed; the key may be used again
        raise
    response = jsonify(body)
    response.status_code = status
    return response


def _submit(game_id: int, user, asked_seat: str | None, step: int, actions: list[str],
            claim: idempotency.Claim | None) -> tuple[int, dict]:
    """Check access and submit in one session: the game row is read once, and the answer is
    computed from the engine state the order produced."""
    answer: dict = {}

    def before_commit(session: Session, result: OrderResult) -> None:
        answer["status"], answer["body"] = _answer(session, game, seat, result)
        if claim is not None:
            idempotency.record(session, claim, answer["status"], answer["body"])

    # The token check's read-only transaction goes on: read and apply the rules without the
    # write lock; the order's writes take it (games.submit_order).
    with db.request_session() as session:
        game, seat = access.ordering(session, game_id, user, asked_seat)
        try:
            games.submit_order(session, game_id, seat, step, actions,
                               before_commit=before_commit, game=game)
        except HeldMove as exc:
            raise _held(session, game_id, seat, exc) from None
        except StaleStep as exc:
            decision = _decision(session, game_id, seat)
            asked = decision["prompt"] or exc.prompt or "nothing is asked of you now."
            raise Problem("stale-step", f"The order answers step {step}, but the game is at step "
                          f"{exc.step}: {asked}", current_step=exc.step,
                          decision=decision) from None
        except ActionError as exc:
            decision = _decision(session, game_id, seat)
            raise Problem("malformed-action" if isinstance(exc, MalformedAction)
                          else "illegal-action", exc.reason,
                          legal_actions=exc.legal or decision["legal_actions"],
                          current_step=decision["step"]) from None
        except GameNotFound:
            raise not_found() from None
        except idempotency.ClaimLost:
            raise Problem("idempotency-key-in-progress", "This request's Idempotency-Key was "
                          "taken over while it was processed; nothing was changed. Retry.",
                          headers={"Retry-After": "1"}) from None
    return answer["status"], answer["body"]


@blp.route("/<int:game_id>/retract", methods=["POST"])
@auth.required
@blp.arguments(schemas.RetractSchema, example={"step": 13})
@blp.response(200, schemas.RetractedSchema, description="The move was taken back: it is your "
                                                        "decision again, at a new step")
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT",
                  description="Stale step, or the move cannot be taken back (retract-refused: "
                              "code and detail say why: a draw happened, it showed you a "
                              "card, the next player has seen it, the hold is over, not yours, "
                              "a sealed order)")
def retract(data, game_id):
    """Take back your last move, while the game is still at the step it led to (``step``),
    within your hold (``retract_until`` in the order's answer) and before the next player has
    seen it. Only a sequential move that drew nothing and showed you nothing hidden can be;
    a sealed order never. The held mails and webhooks to the next player are withdrawn."""
    user = auth.current_user()
    with db.request_session() as session:
        game, seat = access.ordering(session, game_id, user, None)
        db.end_reading(session)
        try:
            done = retract_service.retract(session, game_id, seat, data["step"])
        except retract_service.RetractRefused as exc:
            raise Problem("retract-refused", exc.reason, code=exc.code,
                          current_step=_decision(session, game_id, seat)["step"]) from None
        except StaleStep as exc:
            raise Problem("stale-step", f"The game is at step {exc.step}, not {data['step']}: "
                          "the move you would take back is no longer the last.",
                          current_step=exc.step,
                          decision=_decision(session, game_id, seat)) from None
        except GameNotFound:
            raise not_found() from None
        return {"retracted": True, "step": done.step,
                "decision": _decision(session, game_id, seat)}


def _held(session: Session, game_id: int, seat: str, exc: HeldMove) -> Problem:
    """The answer to an order refused while another seat's move may still be taken back
    (games.HeldMove): the same words whatever the move was, the decision as the seat may see
    it (the game before the move), and the way to see the move now."""
    db.read_afresh(session)
    game = session.get(Game, game_id)
    until = exc.until.isoformat()
    reason = game_text.text(data(games.held_move_reason(exc.seat, until)), "en",
                            game.game_type)
    return Problem("held-move", f"{reason} To see the move now (it is then final): POST "
                   f"/api/v1/games/{game_id}/show-move.", code=exc.code, held_until=until,
                   current_step=seat_view.of(session, game, seat).step,
                   decision=present.decision_body(session, game, seat))


def _decision(session: Session, game_id: int, seat: str) -> dict:
    """What the seat is asked now, after a refused order."""
    db.read_afresh(session)
    game = session.get(Game, game_id)
    if game is None:
        raise not_found()
    return present.decision_body(session, game, seat)


def _answer(session: Session, game: Game, seat: str, result: OrderResult) -> tuple[int, dict]:
    """The answer to an accepted order, computed inside its transaction (``game`` is current:
    the order service updates it in the session).

    Built as the documented schemas (OrderAppliedSchema, OrderSealedSchema) dump it, without
    running them: every value is already of its field's type but for the engine's texts, which
    are made plain strings here (a marshmallow dump was a tenth of an order's CPU;
    tests/server/api/test_order_answer_shape.py holds the two to the same output)."""
    if result.sealed:
        return 202, {"sealed": True, "your_order": _texts(result.applied),
                     "all_committed": bool(result.all_committed), "step": result.step}
    decision = games.decision_for(session, game, seat, result.state)
    stopped = result.stopped_at is not None
    return 200, {
        "applied": _texts(result.applied), "stopped_at": result.stopped_at,
        "reason": _text(result.reason),
        "legal_actions": _texts(result.legal or decision["legal_actions"]) if stopped else [],
        "step": result.step, "status": game.status,
        "decision": {"seat": seat, "step": decision["step"], "active": decision["active"],
                     "prompt": _text(decision["prompt"]),
                     "legal_actions": _texts(decision["legal_actions"]),
                     "simultaneous": decision["simultaneous"],
                     "your_order": None if decision["your_order"] is None
                     else _texts(decision["your_order"]),
                     "committed": decision["committed"],
                     "waiting_for": _texts(decision["waiting_for"]),
                     "held_until": None},  # the mover's own move is never held from them
        "retract_until": None if result.retract_until is None
        else result.retract_until.isoformat()}


def _text(value) -> str | None:
    return None if value is None else str(value)


def _texts(values) -> list[str]:
    return [str(value) for value in values]

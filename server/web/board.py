"""The game page: the board of 1960 (or Mr. President's table: mrpresident_board.py) as the
reader's seat may see it (a spectator's view for a public game), built from ``view(seat)`` only,
with a form for exactly the legal actions; and the order that form posts, through the same
order service as the API and the mail. Both games share templates/web/_game_base.html.

A seat's page shows its hand, the decision and its choices; the other seat's hand is only a
count, sealed choices are only "chosen" until revealed. An illegal or stale order shows the
reason in the game's words and the decision now, and changes nothing.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, request

import engine.core as game_engine
from engine.core.errors import OptionsError
from engine.games.mrpresident.state import check_options
from engine.games.tmotp.data import CARDS
from server import db
from server.games.mrpresident import summary as summary_mrpresident
from server.games.tmotp import summary as summary_tmotp
from server.i18n import game_text
from server.games import presenter
from server.models import Game
from server.services import games, lobby, play
from server.web import board_map, decision_form, mrpresident_board, seats
from server.web.accounts import check_form
from server.web.pages import page, reader
from server.web.words import _, locale
from server.parsing import whole

bp = Blueprint("board", __name__)

def _seat_and_game(session, game_id: int):
    """(game, the reader's seat or None); 404 when the reader may not see the game."""
    game = session.get(Game, game_id)
    user = reader()
    if game is None or not lobby.may_see(session, game, user):
        abort(404)
    seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
    return game, seat


@bp.get("/games/<int:game_id>")
def show(game_id: int):
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        return _page(session, game, seat)


@bp.get("/games/<int:game_id>/version")
def version(game_id: int):
    """The game's step and status, for the page's script to notice that the game moved on
    (a small JSON answer, cheap to ask every half minute; nothing hidden in it)."""
    with db.reading(db.session()) as session:
        game, _seat = _seat_and_game(session, game_id)
        response = jsonify(step=game.step, status=game.status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/<int:game_id>/order")
def order(game_id: int):
    """The decision form's answer (server/web/decision_form.py): a choice, a plan, or order
    lines typed in the notation; a plan is played whole or not at all."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        if seat is None:
            abort(403)
        refused = check_form()
        step = request.form.get("step", "")
        step = whole(step, -1)
        stale = game.status == "active" and step != game.step
        form = form_now(session, game, seat, locale()) if not (refused or stale) else None
    if refused:
        return _answer(game_id, seat, refusal=refused, status=400)
    if stale:  # a form of an earlier decision: its fields mean nothing now
        return _answer(game_id, seat, outcome=play.Outcome("stale"), status=409)
    try:  # asked nothing now: what was sent goes to the order service, which says why not
        order = decision_form.compose(request.form, form or decision_form.NOTHING_ASKED)
    except decision_form.Refused as plan:
        return _answer(game_id, seat, status=422, refusal=str(plan))
    if not order.lines:
        return _answer(game_id, seat, status=422, refusal=decision_form.nothing_chosen())
    outcome = play.order(game_id, seat, step, order.lines, atomic=order.atomic,
                         then=order.then)
    if outcome.accepted and outcome.reason is None:
        return redirect(f"/games/{game_id}?done={outcome.status}", 303)
    return _answer(game_id, seat, outcome=outcome,
                   status=200 if outcome.accepted else 409 if outcome.status == "stale" else 422)


def form_now(session, game: Game, seat: str, loc: str, state=None) -> dict | None:
    """The decision form the seat is shown now, or None when it is asked nothing."""
    if game.status != "active" or game.state is None:
        return None
    state = state or game_engine.from_dict(game.state, copy=False)
    decision = games.decision_for(session, game, seat, state)
    if not decision["legal_actions"]:
        return None
    return decision_form.build(decision, state.view(seat), loc)


def _answer(game_id: int, seat: str, **answer):
    """The game page as it is now, with the answer to the reader's request."""
    with db.reading(db.session()) as session:
        return _page(session, session.get(Game, game_id), seat, **answer)


def show_with_refusal(game_id: int, refusal: str, status: int):
    """The game page with why the reader's request (join, start) was refused."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        return _page(session, game, seat, refusal=refusal, status=status)


def _page(session, game: Game, seat: str | None, *, outcome=None, refusal: str | None = None,
          status: int = 200):
    loc = locale()
    if game.state is None:  # open: waiting for players
        return page("game_open.html", status, loc, refusal=refusal,
                    **_open_context(session, game, loc))
    state = game_engine.from_dict(game.state, copy=False)
    view = games.seat_view(session, game, seat, state)
    decision = games.decision_for(session, game, seat, state) if seat else None
    done = request.args.get("done") if outcome is None and refusal is None else None
    names = seats.names(game.game_type, loc)
    common = dict(
        game=game, seat=seat, seat_name=names.get(seat) if seat else None,
        many=len(state.seats) > 2,
        may_follow=lobby.may_follow(game, reader(), seat, lobby.followed(session, reader())),
        log=list(reversed(game_text.texts(view.get("note_messages", []), loc,
                                          game.game_type)))[:60],
        decision=_decision(decision, view, loc, state, names, game.game_type), done=done,
        refusal=refusal,
        outcome=_outcome(outcome, loc, game.game_type), result=_result(game, view, loc))
    if game.game_type == "mrpresident":
        return page("mrpresident_game.html", status, loc, **common,
                    **mrpresident_board.context(view, seat, loc))
    return page(
        "game.html", status, loc, **common, **board_context(view, seat, loc),
        round_name=round_name(view),
        hand=[_card(c, loc) for c in (view.get("hands") or {}).get(seat, [])] if seat else [])


def public_board(game_type: str, view: dict, loc: str) -> dict:
    """The public board of any game (the replay's and the result's): its context and template."""
    if game_type == "mrpresident":
        return mrpresident_board.context(view, None, loc)
    return {**board_context(view, None, loc), "board_template": "_board_public.html",
            "hand_template": "_tmotp_hand.html"}


def board_context(view: dict, seat: str | None, loc: str) -> dict:
    """What templates/web/_board_public.html shows of ``view`` (the seat's; None: public)."""
    names = presenter("tmotp").terms(loc)
    summary = summary_tmotp.summary(view, seat, 0, loc)
    return {"view": view, "summary": summary, "seats": names["seats"],
            "bag": view.get("bag") or {}, "persistent": _persistent(view, loc),
            "map": board_map.svg(summary["states"], view.get("tokens") or {},
                                 seat_names=names["seats"], words=_map_words(),
                                 title=_("The states: who leads where, and by how many cubes"))}


def round_name(view: dict) -> str:
    """The part of the turn, in the rulebook's words (the engine's ``round``, ``phase``)."""
    rnd = view.get("round")
    if rnd == "activity":
        return _("Activity Phase, round %(n)s of 5", n=view.get("phase"))
    return {"initiative": _("Initiative"), "campaign_strategy": _("Campaign Strategy"),
            "momentum": _("Momentum Phase"), "debates": _("The Debates"),
            "election_day": _("Election Day"), "over": _("Game over")}.get(rnd, rnd or "")


def _map_words() -> dict[str, str]:
    return {"ev": _("EV"), "cubes": _("support cubes"), "carried": _("carried"),
            "no_leader": _("no support"), "token": _("{name}'s candidate token here"),
            "unpledged": _("nobody (unpledged electors)")}


def _card(card_id: int, loc: str) -> dict:
    return {**decision_form.Words(loc).card(card_id), "rest": CARDS[card_id].get("rest")}


def _persistent(view: dict, loc: str) -> list[str]:
    """The events in force: those kept on the board (for the Debates, Election Day,
    prevention) and those in force this turn (card ids, engine/games/tmotp/effects.py). An
    event in force is public even when its card has come back into a hand."""
    ids: list[int] = []
    for kept in (view.get("persistent") or {}).values():
        ids.extend(kept)
    ids.extend(view.get("effects") or [])
    return [summary_tmotp.card_name(int(c), loc) for c in dict.fromkeys(ids)]


def _decision(decision: dict | None, view: dict, loc: str, state=None,
              names: dict | None = None, game_type: str = "") -> dict | None:
    """The decision section: what is asked and, while the seat may still answer (or change
    its sealed choice), the form for exactly its legal actions."""
    if decision is None:
        return None
    form = decision_form.build(decision, view, loc) if decision["legal_actions"] else None
    names = names or {}
    return {**decision, "prompt": game_text.text(decision["prompt"], loc, game_type)
            if decision["prompt"] else "", "form": form,
            "deciding": len(state.active()) if state is not None else 0,
            "waiting_names": ", ".join(names.get(s, s) for s in decision["waiting_for"])}


def _outcome(outcome, loc: str, game_type: str) -> dict | None:
    if outcome is None:
        return None
    return {"status": outcome.status, "accepted": outcome.accepted, "applied": outcome.applied,
            "reason": game_text.text(outcome.reason, loc, game_type) if outcome.reason else ""}


def _result(game: Game, view: dict, loc: str) -> dict | None:
    if game.status != "finished":
        return None
    result = game.result or {}
    winner = result.get("winner")
    return {"winner": seats.names(game.game_type, loc).get(winner, winner) if winner else None,
            "reason": game_text.text(result.get("reason_message") or result.get("reason"), loc,
                                      game.game_type),
            "seed": game.seed}


def _open_context(session, game: Game, loc: str) -> dict:
    user = reader()
    rows = lobby.seat_rows(session, game.id)
    names = seats.names(game.game_type, loc)
    bots = game.bots or {}
    listed = [{"seat": r.seat, "name": names.get(r.seat, r.seat),
               "taken": r.user_id is not None or r.seat in bots, "bot": bots.get(r.seat),
              "mine": user is not None and r.user_id == user.id,
              "invited_me": user is not None and r.user_id is None
              and r.invite_email == user.email} for r in rows]
    return {"game": game, "seats": listed, "title": seats.title(game.game_type),
            "options_line": _options_line(game.options, loc)
            if game.game_type == "mrpresident" else None,
            "may_start": user is not None and game.created_by == user.id
            and all(s["taken"] for s in listed),
            "signed_in": user is not None}


def _options_line(options: dict | None, loc: str) -> str:
    """A game of Mr. President's options (as stored: the engine fills in the standard ones) in
    one line, as its mails name them."""
    try:
        return summary_mrpresident.variant(check_options(dict(options or {})), loc)
    except OptionsError:
        return ""

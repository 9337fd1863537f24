"""Standing orders on the game page: the reader's seat sets each policy its game declares and
its default order for a missed deadline (templates/web/_standing_orders.html, in the words of
the game's presenter, ``standing_orders``), and the lobby's forms offer the same policies when a
game is created or joined (``chosen_policies``, ``file_policies``, ``taking_seat``). All is
filed through server/services/standing.py, which judges the values; all or nothing, like the
API's PUT.

A change is answered by the game page with a confirmation (a redirect: reloading it posts
nothing again), a refusal by the page with the reason beside the field and what was posted
kept in the form, nothing changed. What the page's section shows is gathered by the game
page's view (server/web/standing_section.py)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request

from server import db, i18n
from server.games import presenter
from server.i18n import game_text
from server.models import Game
from server.services import lobby, seat_view, standing
from server.services.lobby import LobbyError
from server.services.standing import StandingOrderError
from server.web.accounts import check_form
from server.web.board import show_with_refusal
from server.web.pages import environment, reader
from server.web.standing_section import SAVED, keep_refused
from server.web.words import N_, _, locale

bp = Blueprint("standing_orders_page", __name__)

FIELD = "standing_{kind}"          # a policy's radio group
DEFAULT_FIELD = "standing_deadline_default"   # the default order's lines


def chosen(form, policies: list[dict]) -> dict[str, str]:
    """{kind: value} of the policies ``form`` posts (a kind not posted is left as it is)."""
    return {p["kind"]: form[FIELD.format(kind=p["kind"])].strip() for p in policies
            if FIELD.format(kind=p["kind"]) in form}


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


@bp.post("/games/<int:game_id>/standing-orders")
def change(game_id: int):
    """File the posted standing orders of the reader's seat: every policy of the form and the
    default order (its lines; empty withdraws it). One refused value changes none."""
    user = reader()
    with db.reading(db.session()) as session:
        game = session.get(Game, game_id)
        if game is None or not lobby.may_see(session, game, user):
            abort(404)
        seat = lobby.seat_of(session, game_id, user.id) if user is not None else None
        game_type, active = game.game_type, game.status == "active"
    if seat is None:
        abort(403)
    refused = check_form()
    if refused:
        return show_with_refusal(game_id, refused, 400)
    if not active:
        return show_with_refusal(game_id, _("The game is over: standing orders have nothing "
                                            "left to answer."), 409)
    loc = locale()
    values = chosen(request.form, presenter(game_type).standing_orders(loc))
    text = request.form.get(DEFAULT_FIELD, "")
    field = None
    with db.session() as session:
        state = seat_view.of(session, session.get(Game, game_id), seat).state  # as it may see
        try:
            for kind, value in values.items():
                field = kind
                standing.file(session, game_id, seat, kind, value, state)
            field = standing.DEADLINE_DEFAULT
            standing.file(session, game_id, seat, standing.DEADLINE_DEFAULT, _lines(text), state)
        except StandingOrderError as exc:
            session.rollback()
            reason = game_text.text(exc.args[0], loc, game_type)
        else:
            session.commit()
            return redirect(f"/games/{game_id}?standing={SAVED}#standing-orders", 303)
    keep_refused(values, text, reason, field)
    return show_with_refusal(game_id, _("Your standing orders were not changed: %(reason)s",
                                        reason=reason), 422)


# --- at the start: the lobby's new-game forms and the join step --------------------------------
def offer(game_type: str) -> list[dict]:
    """The policies a form that creates or joins a game of ``game_type`` offers (the
    presenter's ``standing_orders``, each with its suggested value preselected)."""
    return presenter(game_type).standing_orders(locale())


def chosen_policies(game_type: str, form) -> dict[str, str]:
    """{kind: value} of the policies a form that creates or joins a game posts; LobbyError
    (``invalid``) when a value is not one the game declares for its kind: nothing is done."""
    values = chosen(form, presenter(game_type).standing_orders(locale()))
    for kind, value in values.items():
        try:
            standing.check(kind, value, game_type=game_type)
        except StandingOrderError:
            raise LobbyError("invalid", N_("“%(value)s” is not a choice of the standing order "
                                           "“%(policy)s”."), value=value, policy=kind) from None
    return values


def file_policies(session, game_id: int, seat: str | None, values: dict[str, str]) -> None:
    """File the policies chosen when the seat was taken (its own transaction, after the
    lobby's); nothing for a reader without a seat."""
    if seat is None or not values:
        return
    for kind, value in values.items():
        standing.file(session, game_id, seat, kind, value)
    expire, session.expire_on_commit = session.expire_on_commit, False
    try:  # the lobby's objects (the game just made) stay readable after this commit
        session.commit()
    finally:
        session.expire_on_commit = expire


def taking_seat(game_id: int, form, take):
    """The lobby action ``take(session, account) -> seat`` (joining), with the policies the
    join form chose filed for the seat taken; refused before the seat is taken when one is not
    the game's."""
    def act(session, account):
        game = session.get(Game, game_id)
        values = chosen_policies(game.game_type, form) if game is not None else {}
        seat = take(session, account)
        file_policies(session, game_id, seat, values)
        return seat
    return act


@bp.record_once
def _install(_state) -> None:
    """The pages' templates (server/web/pages.py: an environment per language) call
    ``standing_orders_offer`` (a join form's choices: the presenter's words, no database).
    The game page's section is gathered by its view (server/web/standing_section.py)."""
    for loc in i18n.LOCALES:
        environment(loc).globals.update(standing_orders_offer=offer)

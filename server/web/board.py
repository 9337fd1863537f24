"""The game page: the game's board as the reader's seat may see it (a spectator's view for a
public game), built from ``view(seat)`` only, with a form for exactly the legal actions; and the
order that form posts, through the same order service as the API and the mail. Every game's
page is templates/web/game.html with the game's own parts (its status line, board and the
reader's hand: the game's presenter, server/games/presenter.py, gives what they show).

A seat's page shows its hand, the decision and its choices; the other seat's hand is only a
count, sealed choices are only "chosen" until revealed. An illegal or stale order shows the
reason in the game's words and the decision now, and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, abort, current_app, jsonify, redirect, request

from engine.core.errors import OptionsError
from engine.core.messages import data
from server import db
from server.games import presenter
from server.i18n import game_text, times
from server.models import Game, User, aware, utcnow
from server.parsing import whole
from server.services import display_names, games, lobby, play, reach, rematch, retract, seat_view
from server.web.accounts import check_form
from server.web.decision_form import (NOTHING_ASKED, Refused, build, compose, explain, keep,
                                      nothing_chosen)
from server.web.help import page_url
from server.web.live import stream_url
from server.web.pages import page, reader
from server.web.seats import names as seat_names
from server.web.seats import title as game_title
from server.web.schedule_section import section as schedule_section
from server.web.absence_section import section as absence_section
from server.web import chat_section, news
from server.web.standing_section import section as standing_section
from server.web.notes_section import section as notes_section
from server.web.words import _, locale

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
    """The game's step and status as the reader may see them, for the page's script to notice
    that the game moved on (a small JSON answer, cheap to ask every half minute): a move
    another seat may still take back is not told (services/seat_view.py)."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        seen = seat_view.of(session, game, seat)
        response = jsonify(step=seen.step, status=seen.status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/<int:game_id>/seen")
def seen(game_id: int):
    """The game page was shown to its seat's player (a small POST the page sends once it is in
    view, with its CSRF token: the GET itself never writes): a channel has reached them for
    the decision the page showed (``step``), if it is still the game's (services/reach.py).
    204 when recorded or nothing to record, 400 without the page's token, 403 for no seat."""
    with db.session() as session:
        game, seat = _seat_and_game(session, game_id)
        if seat is None:
            abort(403)
        if check_form():
            abort(400)
        step = whole(request.form.get("step", ""), -1)
        # Under the game's lock, as a take back is: one of the two happens wholly first.
        # "Show the move": whatever move is held, at the game's step once locked.
        shown = retract.show(session, game.id, seat, "page", utcnow(),
                             None if request.form.get("show") else step)
        # What the page had shown: its "since you last looked" starts after it next time.
        if news.looked(session, game.id, seat, whole(request.form.get("notes", ""), -1)):
            shown = True
        if shown:
            session.commit()
    if request.form.get("show"):  # "Show the move" of a held move: seen now, so final
        return redirect(f"/games/{game_id}#decision-h", 303)
    return "", 204


@bp.post("/games/<int:game_id>/order")
def order(game_id: int):
    """The decision form's answer (server/web/decision_form.py): a choice, a plan, or order
    lines typed in the notation; a plan is played whole or not at all. A refused form comes
    back filled in as it was sent, the refusal beside the field it is about."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        if seat is None:
            abort(403)
        refused = check_form()
        step = request.form.get("step", "")
        step = whole(step, -1)
        seen = seat_view.of(session, game, seat)  # a move held from the seat: before it
        # (while a move is held from the seat, the order service answers: it refuses any)
        stale = seen.status == "active" and step != seen.step and seen.held_until is None
        form = form_now(session, game, seat, locale()) if not (refused or stale) else None
        now, game_type = seen.step, game.game_type
        # The banner's draws are the seat's view's notes after these (a view, never the state).
        notes = len(seen.view.get("note_messages", [])) if seen.view is not None else 0
    if refused:
        keep(request.form, step)
        return _answer(game_id, seat, refusal=refused, status=400)
    if stale:  # a form of an earlier decision: its fields mean nothing now, the written lines stay
        keep(request.form, now, only=("lines",))
        return _answer(game_id, seat, outcome=play.Outcome("stale"), status=409)
    try:  # asked nothing now: what was sent goes to the order service, which says why not
        order = compose(request.form, form or NOTHING_ASKED)
    except Refused as plan:
        keep(request.form, step, plan.field, str(plan))
        return _answer(game_id, seat, status=422, refusal=str(plan))
    if not order.lines:
        keep(request.form, step)
        return _answer(game_id, seat, status=422, refusal=nothing_chosen())
    outcome = play.order(game_id, seat, step, order.lines, atomic=order.atomic,
                         then=order.then)
    if outcome.accepted and outcome.reason is None:
        return redirect(f"/games/{game_id}?done={outcome.status}&since={notes}", 303)
    if not outcome.accepted and outcome.status in ("illegal", "malformed"):
        field, message = explain(order, *refused_line(outcome.reason, locale(), game_type))
        keep(request.form, step, field, message)
        outcome = replace(outcome, reason=message)
    elif outcome.status == "stale":
        keep(request.form, outcome.step, only=("lines",))
    return _answer(game_id, seat, outcome=outcome,
                   status=200 if outcome.accepted else 409 if outcome.status in ("stale", "held")
                   else 422)


def refused_line(reason, loc: str, game_type: str) -> tuple[int | None, str]:
    """(the order's line the engine refused, its reason in the reader's words) from an order
    service refusal: an atomic order's is about its line ``n`` (games._whole_refused), any
    other about the first line. A plan's line refused because the game moved on means the
    lines before it used up what the plan had (the CP, the cubes)."""
    if getattr(reason, "template", None) != games.WHOLE_REFUSED:
        return 0, game_text.text(reason, loc, game_type)
    inner = reason.args["reason"]
    if getattr(inner, "template", None) == games.STOPS_HERE:
        return reason.args["n"] - 1, _(
            "nothing was left for it: what the plan puts before it (in the order of least "
            "travel) uses everything up.")
    return reason.args["n"] - 1, game_text.text(inner, loc, game_type)


def form_now(session, game: Game, seat: str, loc: str) -> dict | None:
    """The decision form the seat is shown now (as it may see the game: services/seat_view.py),
    or None when it is asked nothing."""
    seen = seat_view.of(session, game, seat)
    if seen.status != "active" or seen.state is None:
        return None
    if not seen.decision["legal_actions"]:
        return None
    return build(seen.decision, seen.state.view(seat), loc)


def _answer(game_id: int, seat: str, **answer):
    """The game page as it is now, with the answer to the reader's request."""
    with db.reading(db.session()) as session:
        return _page(session, session.get(Game, game_id), seat, **answer)


def show_with_refusal(game_id: int, refusal: str, status: int):
    """The game page with why the reader's request (join, start) was refused."""
    with db.reading(db.session()) as session:
        game, seat = _seat_and_game(session, game_id)
        return _page(session, game, seat, refusal=refusal, status=status)


def show_open(game_id: int, *, codes: dict | None = None, join_code: str = "",
              status: int = 200, seen: bool = True):
    """The open game's page with the invitation ``codes`` just made (seat -> code: shown to
    their creator this once, only their sha256 is kept), or the join form holding a
    ``join_code`` (a share link's; ``seen``: False when only that code lets the reader see
    the game)."""
    with db.reading(db.session()) as session:
        game = session.get(Game, game_id)
        if game is None or (seen and not lobby.may_see(session, game, reader())):
            abort(404)
        return _page(session, game, None, status=status, codes=codes or {},
                     join_code=join_code)


def _page(session, game: Game, seat: str | None, *, outcome=None, refusal: str | None = None,
          status: int = 200, codes: dict | None = None, join_code: str = ""):
    loc = locale()
    if game.state is None:  # open: waiting for players
        return page("game_open.html", status, loc, refusal=refusal, join_code=join_code,
                    **_open_context(session, game, loc, codes or {}))
    seen = seat_view.of(session, game, seat)  # a move that may be taken back: before it
    game, state, view = seen.game, seen.state, seen.view
    # no decision box once the game is over
    decision = seen.decision if seat and game.status == "active" else None
    done = request.args.get("done") if outcome is None and refusal is None else None
    names = seat_names(game.game_type, loc)
    shown = presenter(game.game_type)
    messages = view.get("note_messages", [])
    asked = decision if decision and decision["active"] else None
    form = _decision(decision, view, loc, state, names, game.game_type)
    return page(
        "game.html", status, loc, part=shown.part, live_url=stream_url(game.id),
        game=game, seat=seat, seat_name=names.get(seat) if seat else None,
        many=len(state.seats) > 2,
        help_url=page_url(game.game_type) or f"/help/notation/{game.game_type}",
        players=players(session, game, seat, names),
        may_resign=seat is not None and game.status == "active",
        may_follow=lobby.may_follow(game, reader(), seat, lobby.followed(session, reader())),
        log=_log(messages, loc, game.game_type),
        drawn=_drawn(messages, loc, game.game_type) if done == "applied" else [],
        decision=form, done=done,
        # issue 47: the board part the decision is about, under its prompt; the news first
        focus=shown.focus(form["form"] if asked and form else None, view),
        news=None if done == "applied" else news.since(session, game.id, seat, messages, loc,
                                                      game.game_type),
        notes_count=len(messages), page_args=request.args,
        deadline=_deadline(game),
        not_reached=[names.get(s, s) for s in reach.waiting(session, game) if s != seat],
        refusal=refusal,
        outcome=_outcome(outcome, loc, game.game_type), result=_result(game, view, loc),
        standing_orders=standing_section(session, game, seat),
        notes=notes_section(session, game, seat),
        schedule=schedule_section(session, game, seat),
        absence=absence_section(session, game, seat),   # issue 46: absent seats
        take_back=_take_back(session, game, seat, decision, names),
        held=_held(seen, names), live_step=seen.step,
        rematch_of=rematch.rematch_of(session, game.id),     # issue 27: links old and new
        chat_channels=chat_section.channels(session, game, reader()),
        chat_unread=chat_section.unread(session, game, reader()),
        chat_muted=chat_section.muted(session, reader()),
        **shown.page(view, seat, loc))


def _take_back(session, game: Game, seat: str | None, decision: dict | None,
               names: dict) -> dict | None:
    """The "Take back" of the reader's last move (issue 27): {"until", "seconds" left,
    "step", "next": the next player's seat name} while it may be taken back, else None."""
    if seat is None or decision is None or decision["active"] or not decision["waiting_for"]:
        return None
    until = retract.pending(session, game, seat)
    if until is None:
        return None
    return {"until": until, "seconds": max(1, int((until - utcnow()).total_seconds())),
            "step": game.step,
            "next": ", ".join(names.get(s, s) for s in decision["waiting_for"])}


def _held(seen, names: dict) -> dict | None:
    """Another player's move that may still be taken back, shown as the game before it
    (services/seat_view.py): {"by": their seat's name, "until", "seconds" left, "step": the
    step the reader sees} to say so, offer to show it (which makes it final) and reload when
    it is."""
    until = seen.held_until
    if until is None:
        return None
    return {"by": names.get(seen.held_by, seen.held_by), "until": until,
            "seconds": max(1, int((until - utcnow()).total_seconds())),
            "step": seen.step}


def _decision(decision: dict | None, view: dict, loc: str, state=None,
              names: dict | None = None, game_type: str = "") -> dict | None:
    """The decision section: what is asked and, while the seat may still answer (or change
    its sealed choice), the form for exactly its legal actions."""
    if decision is None:
        return None
    form = build(decision, view, loc) if decision["legal_actions"] else None
    names = names or {}
    deciding = len(state.active()) if state is not None else 0
    committed, deciding = presenter(view["game"]).committed(view, decision["committed"],
                                                            deciding)
    only = decision["legal_actions"][0] if len(decision["legal_actions"]) == 1 else None
    return {**decision, "prompt": game_text.text(decision["prompt"], loc, game_type)
            if decision["prompt"] else "", "form": form,
            "committed": committed, "deciding": deciding,
            # one legal action: information, not a choice (a sealed one was made for the seat)
            "forced": {"value": only, "label": _label(form, only)} if only else None,
            "waiting_names": ", ".join(names.get(s, s) for s in decision["waiting_for"]),
            # a sealed choice in words, as the form named it ("Nixon's card: Suburban
            # Voters"), never its notation ("strategy 72")
            "your_order_words": [_sealed_words(form, action, view, loc, game_type)
                                 for action in decision.get("your_order") or []]}


def _sealed_words(form: dict | None, action: str, view: dict, loc: str,
                  game_type: str) -> str:
    label = _label(form, action)
    if label != action or not game_type:
        return label
    return presenter(game_type).action_words(view.get("seat"), action, loc) or action


def _label(form: dict | None, action: str) -> str:
    """An action as the form's choices name it in words, else as written."""
    for group in (form or {}).get("groups", []) or []:
        for option in group.get("options", []):
            if option.get("value") == action:
                return option.get("label") or action
    return action


LOG_LINES = 60


def _log(messages: list, loc: str, game_type: str) -> list[dict]:
    """The log, newest first: [{"heading": the turn or round (the game's ``log_heading``) or
    None, "lines": [{"text", "times"}]}]. A line the game notes several times in a row (one
    note per cube placed: "adds issue support in Economy" twice) is shown once, with how many
    times. At most ``LOG_LINES`` lines, the newest."""
    shown = presenter(game_type)
    texts = game_text.texts(messages, loc, game_type)
    groups = [{"heading": None, "lines": []}]
    for message, text in zip(messages, texts):
        heading = shown.log_heading(message, loc)
        if heading and heading != groups[-1]["heading"]:
            groups.append({"heading": heading, "lines": []})
        lines = groups[-1]["lines"]
        if lines and lines[-1]["text"] == text:
            lines[-1]["times"] += 1
        else:
            lines.append({"text": text, "times": 1})
    out, left = [], LOG_LINES
    for group in reversed(groups):
        if left <= 0:
            break
        if group["lines"]:
            out.append({"heading": group["heading"], "lines": group["lines"][::-1][:left]})
            left -= len(out[-1]["lines"])
    return out


def _drawn(messages: list, loc: str, game_type: str) -> list[str]:
    """What the chance steps drew since the reader's order (``since``: how many notes the game
    had when it was sent), in the game's words (its ``draw_note``): for the "Done" banner."""
    since = whole(request.args.get("since", ""), -1)
    if not 0 <= since <= len(messages):
        return []
    shown = presenter(game_type)
    fresh = messages[since:]
    return [text for message, text in zip(fresh, game_text.texts(fresh, loc, game_type))
            if shown.draw_note(message)]


def players(session, game: Game, seat: str | None, names: dict) -> list[dict]:
    """The other seats and who plays them: the name they chose, else "Player <id>" (never an
    address: display_names.shown), or the bot's level."""
    out = []
    for row in lobby.seat_holders(session, game.id):
        if row.seat == seat:
            continue
        bot = (game.bots or {}).get(row.seat)
        user = session.get(User, row.user_id) if row.user_id is not None else None
        # a started game's seat nobody holds: its player deleted their account
        left = _(display_names.DELETED) if not bot and game.status != "open" else None
        out.append({"seat": row.seat, "seat_name": names.get(row.seat, row.seat), "bot": bot,
                    "name": display_names.shown(user, _) if user else left})
    return out


def _deadline(game: Game) -> dict | None:
    """The current decision's deadline, {"at": the moment (the page shows it in the reader's
    zone), "hours": whole hours left, "stopped": whether its clock is stopped}; None when the
    game has none now."""
    if game.status != "active" or game.deadline_at is None:
        return None
    stopped = aware(game.clock_stopped_at)
    # A stopped clock (a pause, an owing player's vacation): the deadline will move by the
    # stopped time, so the page says how long is left rather than a moment already wrong.
    left = (aware(game.deadline_at) - (stopped or utcnow())).total_seconds()
    return {"at": aware(game.deadline_at), "hours": max(0, round(left / 3600)),
            "stopped": stopped is not None}


def _outcome(outcome, loc: str, game_type: str) -> dict | None:
    if outcome is None:
        return None
    return {"status": outcome.status, "accepted": outcome.accepted, "applied": outcome.applied,
            "reason": held_reason(outcome, loc, game_type, getattr(reader(), "time_zone", None))
            if outcome.status == "held"
            else game_text.text(outcome.reason, loc, game_type) if outcome.reason else ""}


def held_reason(outcome, loc: str, game_type: str, zone: str | None) -> str:
    """Why an order was refused while another seat's move may be taken back (games.HeldMove),
    its end in the reader's ``zone``: the same words whatever the move was."""
    return game_text.text(data(games.held_move_reason(
        outcome.held_by, times.moment(outcome.held_until, loc, zone))), loc, game_type)


def _result(game: Game, view: dict, loc: str) -> dict | None:
    if game.status != "finished":
        return None
    result = game.result or {}
    winner = result.get("winner")
    return {"winner": seat_names(game.game_type, loc).get(winner, winner) if winner else None,
            "reason": game_text.text(result.get("reason_message") or result.get("reason"), loc,
                                      game.game_type),
            "seed": game.seed}


def _open_context(session, game: Game, loc: str, codes: dict) -> dict:
    user = reader()
    mine = user is not None and game.created_by == user.id
    rows = lobby.seat_rows(session, game.id)
    names = seat_names(game.game_type, loc)
    bots = game.bots or {}
    # issue 47: who sits where, by the name others see (display_names.shown, never an address)
    players = {r.user_id: session.get(User, r.user_id) for r in rows if r.user_id is not None}
    listed = [{"seat": r.seat, "name": names.get(r.seat, r.seat),
               "taken": r.user_id is not None or r.seat in bots, "bot": bots.get(r.seat),
               "player": display_names.shown(players[r.user_id], _)
               if players.get(r.user_id) is not None else None,
              "mine": user is not None and r.user_id == user.id,
              "invited_me": user is not None and r.user_id is None
              and r.invite_email == user.email,
              # an invitation code: only to the creator, only right after it was made
              "code": codes.get(r.seat) if mine and r.user_id is None else None,
              "reserved": bool(r.invite_email)} for r in rows]
    return {"game": game, "part": presenter(game.game_type).part, "seats": listed,
            "title": game_title(game.game_type),
            "options_line": _options_line(game, loc),
            "help_url": page_url(game.game_type),
            "may_start": mine and all(s["taken"] for s in listed),
            "creator": mine,
            "opened_by": display_names.shown(session.get(User, game.created_by), _)
            if game.created_by is not None and game.creator_left_at is None
            and session.get(User, game.created_by) is not None else None,
            # issue 27: its first creator deleted their account; the game passed to ``heir``
            "heir": display_names.shown(session.get(User, game.created_by), _)
            if game.creator_left_at is not None else None, "share_base": f"{current_app.config['BASE_URL']}/games/{game.id}"
            "/join?code=",
            "signed_in": user is not None, "timing": _timing_lines(game),
            "starts_by_hand": game.start_by_hand}


def _timing_lines(game: Game) -> list[str]:
    """The open game's time limits in words, for its join page (issue 47): what a player
    agrees to by taking a seat."""
    lines = [_("Each decision: %(hours)s hours.", hours=game.decision_hours)
             if game.decision_hours else _("No time limit for a decision.")]
    reminders = sorted(game.reminder_hours or [], reverse=True)
    if game.decision_hours and reminders:
        lines.append(_("A reminder %(hours)s hours before the deadline.",
                       hours=", ".join(str(h) for h in reminders)))
    if game.decision_hours:
        lines.append(_("A missed deadline forfeits the game.") if game.on_deadline == "forfeit"
                     else _("At a missed deadline, the seat's default order is played."))
    if game.absent_after_missed:
        lines.append(_("A player who misses %(n)s deadlines in a row is absent: the others "
                       "may then claim the win, end the game, hand the seat to a bot or invite "
                       "a replacement.", n=game.absent_after_missed))
    return lines


def _options_line(game: Game, loc: str) -> str | None:
    """The variant the open game is played in, as its mails name it (None: the game names
    none; "" for options the engine no longer takes)."""
    try:
        return presenter(game.game_type).variant(game.options, loc)
    except OptionsError:
        return ""

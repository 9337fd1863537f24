"""Pages of issue 27, items 4 and 5: the settings page of vacations and quiet hours
(/me/schedule), the buttons of the game page's section of pauses and extensions (posted to
/games/<id>/schedule; the section itself: server/web/schedule_section.py), and the page a
signed answer link in a "pause" or "extension" mail opens (/games/<id>/answer/<token>: GET
shows the question and a button, only POST answers)."""

from __future__ import annotations

from datetime import date, timedelta

from flask import Blueprint, current_app, redirect, request

from server import db, secret_keys
from server.i18n import times
from sqlmodel import select

from server.models import Game, Seat, User, aware, utcnow
from server.services import extensions, pauses, quiet_hours, schedule_links, vacations
from server.web.accounts import check_form
from server.web.board import show_with_refusal
from server.web.pages import page, signed_in_only
from server.web.seats import names as seat_names
from server.web.words import _, locale, speak

bp = Blueprint("schedule_pages", __name__)
SETTINGS = "/me/schedule"


ACTIONS = {
    "pause": lambda s, g, seat, now: pauses.ask(s, g, seat, now),
    "pause_agree": lambda s, g, seat, now: pauses.answer(s, g, seat, True, now),
    "pause_refuse": lambda s, g, seat, now: pauses.answer(s, g, seat, False, now),
    "resume": lambda s, g, seat, now: pauses.resume(s, g, seat, now),
    "extension": lambda s, g, seat, now: extensions.ask(s, g, seat, now),
    "extension_grant": lambda s, g, seat, now: extensions.answer(s, g, seat, True, now),
    "extension_refuse": lambda s, g, seat, now: extensions.answer(s, g, seat, False, now),
}


@bp.post("/games/<int:game_id>/schedule")
@signed_in_only(lambda game_id: f"/games/{game_id}")
def act(game_id: int, signed_in):
    """A button of the game page's section; back to the page, or the page with the reason."""
    refused = check_form()
    do = ACTIONS.get(request.form.get("schedule", ""))
    if refused or do is None:
        return show_with_refusal(game_id, refused or _("Choose one of the page's buttons."),
                                 400)
    with db.session() as session:
        seat = pauses_seat(session, game_id, signed_in.id)
        try:
            do(session, game_id, seat or "", utcnow())
        except pauses.PauseError as exc:
            session.rollback()
            return show_with_refusal(game_id, _(exc.message), exc.status)
    return redirect(f"/games/{game_id}?schedule=done#schedule", 303)


def pauses_seat(session, game_id: int, user_id: int) -> str | None:
    return session.exec(select(Seat.seat).where(Seat.game_id == game_id,
                                                Seat.user_id == user_id)).first()


# --- a mail's answer link --------------------------------------------------------------------
def _answer(session, game_id: int, token: str):
    try:
        answer = schedule_links.read(session, secret_keys.ring(current_app.config), token,
                                     game_id, float(current_app.config["LINK_MAX_AGE_SECONDS"]))
    except schedule_links.AnswerRefused as refused:
        return None, page("refused.html", refused.status, locale(), refusal=_(refused.message))
    user = session.get(User, answer.user_id)
    speak(user.locale if user else "en")
    return answer, None


def _open(session, answer) -> bool:
    """Whether the ask the link answers still waits for an answer."""
    row = pauses.current(session, answer.game_id) if answer.purpose == "pause" \
        else extensions.pending(session, answer.game_id)
    return row is not None and row.id == answer.row_id and row.status == "asked"


def _answer_page(session, answer, token: str, status: int = 200, done: str = ""):
    game = session.get(Game, answer.game_id)
    names = seat_names(game.game_type, locale())
    user = session.get(User, answer.user_id)
    return page("schedule_answer.html", status, locale(), game=game, answer=answer,
                token=token, open=_open(session, answer), done=done,
                seat_name=names.get(answer.seat, answer.seat),
                time_zone=user.time_zone if user else times.DEFAULT_ZONE)


@bp.get("/games/<int:game_id>/answer/<token>")
def show_answer(game_id: int, token: str):
    with db.session() as session:
        answer, refusal = _answer(session, game_id, token)
        return refusal or _answer_page(session, answer, token)


@bp.post("/games/<int:game_id>/answer/<token>")
def commit_answer(game_id: int, token: str):
    with db.session() as session:
        answer, refusal = _answer(session, game_id, token)
        if refusal is not None:
            return refusal
        if not _open(session, answer):
            return _answer_page(session, answer, token, 409)
        try:
            if answer.purpose == "pause":
                pauses.answer(session, game_id, answer.seat, answer.agree, utcnow(),
                              pause_id=answer.row_id)
            else:
                extensions.answer(session, game_id, answer.seat, answer.agree, utcnow(),
                                  extension_id=answer.row_id)
        except pauses.PauseError as exc:
            session.rollback()
            return page("refused.html", exc.status, locale(), refusal=_(exc.message))
        session.expire_all()
        return _answer_page(session, answer, token, done="answered")


# --- the settings page ---------------------------------------------------------------------
@bp.get(SETTINGS)
@signed_in_only(SETTINGS)
def settings(signed_in):
    return _settings(signed_in)


@bp.post(SETTINGS)
@signed_in_only(SETTINGS)
def change_settings(signed_in):
    refused = check_form()
    if refused:
        return _settings(signed_in, refusal=refused, status=400)
    form, action, cfg = request.form, request.form.get("action"), current_app.config
    with db.session() as session:
        user = session.get(User, signed_in.id)
        try:
            if action == "quiet":
                quiet_hours.set_hours(session, user.id, form.get("quiet_start"),
                                      form.get("quiet_end"))
                session.commit()
                done = _("Your quiet hours are saved: they apply from your next decision on.")
            elif action == "quiet_off":
                quiet_hours.set_hours(session, user.id, None, None)
                session.commit()
                done = _("Your quiet hours are off.")
            elif action == "book":
                vacations.book(session, user, _date(form.get("first_day")),
                               _date(form.get("last_day")), utcnow(),
                               allowance=cfg["VACATION_DAYS_PER_YEAR"],
                               notice_hours=cfg["VACATION_NOTICE_HOURS"])
                done = _("Your vacation is booked.")
            elif action == "cancel":
                ended = vacations.cancel(session, user, int(form.get("vacation_id") or 0),
                                         utcnow())
                done = _("Your vacation is cancelled.") if ended == "cancelled" else \
                    _("Your vacation has ended; your games' deadlines have moved.")
            else:
                return _settings(signed_in, refusal=_("Choose one of the page's buttons."),
                                 status=422)
        except quiet_hours.TooLong as long:
            session.rollback()
            return _settings(signed_in, refusal=_(
                "Quiet hours last at most %(most)s hours a day (these would last %(hours)s h "
                "%(minutes)s min), so that half of every day stays open to the deadlines the "
                "other players wait on.", most=quiet_hours.MAX_HOURS, hours=long.hours,
                minutes=f"{long.minutes:02d}"), field="quiet", status=422)
        except quiet_hours.BadQuietHours:
            session.rollback()
            return _settings(signed_in, refusal=_(
                "Quiet hours are a start and an end, each a time of day (like 22:30 and "
                "07:00), not the same time."), field="quiet", status=422)
        except (ValueError, vacations.VacationError) as exc:
            session.rollback()
            reason = _(exc.message, **_days_shown(exc.values)) \
                if isinstance(exc, vacations.VacationError) \
                else _("Give the first and the last day of your vacation as dates.")
            return _settings(signed_in, refusal=reason, field="book", status=422)
    return _settings(signed_in, done=done)


def _days_shown(values: dict) -> dict:
    """A refusal's values with its day (ISO, as the API says it) in the reader's words."""
    if "day" not in values:
        return values
    return {**values, "day": times.calendar_day(date.fromisoformat(values["day"]), locale())}


def _date(text: str | None) -> date:
    return date.fromisoformat((text or "").strip())


def _settings(signed_in, *, done: str | None = None, refusal: str | None = None,
              field: str | None = None, status: int = 200):
    cfg, now = current_app.config, utcnow()
    with db.session() as session:
        user = session.get(User, signed_in.id)
        quiet = quiet_hours.of_user(session, user.id)
        today = times.local_date(now, user.time_zone)
        used = vacations.used(session, user.id, today.year)
        rows = [{"id": v.id, "first": date.fromisoformat(v.first_day),
                 "last": times.local_date(aware(v.ends_at) - timedelta(seconds=1),
                                          user.time_zone),
                 "days": v.days, "ongoing": aware(v.starts_at) <= now}
                for v in vacations.of_user(session, user.id, now)]
        posted = request.form if refusal and request.method == "POST" else {}
        return page("schedule_settings.html", status, locale(), done=done, refusal=refusal,
                    field=field, time_zone=user.time_zone,
                    quiet_start=posted.get("quiet_start", quiet.start if quiet else ""),
                    quiet_end=posted.get("quiet_end", quiet.end if quiet else ""),
                    quiet_on=quiet is not None, vacations=rows,
                    allowance=cfg["VACATION_DAYS_PER_YEAR"], used=used, year=today.year,
                    left=max(cfg["VACATION_DAYS_PER_YEAR"] - used, 0),
                    notice=int(cfg["VACATION_NOTICE_HOURS"]),
                    first_day=posted.get("first_day", ""),
                    last_day=posted.get("last_day", ""),
                    earliest=(today + timedelta(days=2)).isoformat())

"""The "Your data" page of the signed-in reader (/me/data, linked from the settings page):
download everything the server holds about them as JSON (server/services/export.py), the
address of their calendar feed of deadlines with a button that makes a new one (the old one
stops working: server/services/calendar_feed.py), and deleting the account, confirmed by
typing its address (server/services/account_deletion.py). GETs change nothing; the POSTs
carry the page's CSRF token; a refusal shows the page again with what was typed."""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, redirect, request
from flask_login import logout_user

from server import db, secret_keys
from server.models import User
from server.services import account_deletion, calendar_feed, export
from server.web.accounts import check_form
from server.web.pages import page, reader, signed_in_only
from server.web.seats import names as seat_names
from server.web.seats import title as game_title
from server.web.words import _, locale

bp = Blueprint("your_data_page", __name__)
PATH = "/me/data"


@bp.get(PATH)
@signed_in_only(PATH)
def show(signed_in):
    return _page(done=_done(request.args.get("done")))


@bp.get(PATH + "/export.json")
@signed_in_only(PATH)
def download(signed_in):
    with db.reading(db.session()) as session:
        document = export.export(session, session.get(User, signed_in.id))
    return Response(json.dumps(document, ensure_ascii=False, indent=2), 200, {
        "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store",
        "Content-Disposition": 'attachment; filename="whistlestop-my-data.json"'})


@bp.post("/me/calendar")
@signed_in_only(PATH)
def renew_calendar(signed_in):
    refused = check_form()
    if refused:
        return _page(refusal=refused, status=400)
    with db.session() as session:
        calendar_feed.renew(session, signed_in.id)
        session.commit()
    return redirect(f"{PATH}?done=calendar#calendar", 303)


@bp.post("/me/delete")
@signed_in_only(PATH)
def delete(signed_in):
    typed = request.form.get("confirm", "")
    hand_over = request.form.get("hand_over") == "yes"
    refused = check_form()
    if refused:
        return _page(refusal=refused, typed=typed, hand_over=hand_over, status=400)
    with db.session() as session:
        try:
            account_deletion.delete_account(session, signed_in.id, typed, hand_over=hand_over)
        except account_deletion.NotConfirmed:
            session.rollback()
            return _page(refusal=_("Nothing was deleted: type your account's address exactly "
                                   "as shown to confirm."), typed=typed, hand_over=hand_over,
                         status=422)
        except account_deletion.AccountInUse:
            session.rollback()
            return _page(refusal=_("Nothing was deleted: you hold seats in unfinished games "
                                   "(listed below). Finish or resign them, or tick the box to "
                                   "leave them to the deadline's default."), typed=typed, hand_over=hand_over,
                         status=409)
    logout_user()
    return page("account_deleted.html", 200, locale(), user=None)


def _done(kind: str | None) -> str | None:
    if kind == "calendar":
        return _("Your calendar address is new: the one before no longer works.")
    return None


def _page(*, refusal: str | None = None, done: str | None = None, typed: str = "",
          hand_over: bool = False, status: int = 200):
    signed_in = reader()
    loc = locale()
    config = current_app.config
    with db.reading(db.session()) as session:
        feed = calendar_feed.url(session, signed_in.id, secret_keys.ring(config),
                                 config["BASE_URL"])
        seats = [{**s, "title": game_title(s["game_type"]),
                  "seat_name": seat_names(s["game_type"], loc).get(s["seat"], s["seat"])}
                 for s in account_deletion.unfinished_seats(session, signed_in.id)]
    return page("your_data.html", status, loc, email=signed_in.email, feed_url=feed,
                seats=seats, refusal=refusal, done=done, typed=typed, hand_over=hand_over)

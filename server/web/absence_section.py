"""The game page's section of absent seats (issue 46, item 1; templates/web/_absence_section.html;
the rulings: server/services/absences.py): who left the game or went silent, whether a bot
plays the seat, who asked to end the game, and the reader's choices now, each with one line of
what it does, posted to /games/<id>/absences (server/web/absences.py); to the silent player
themselves, what the others may now do and how to come back. Gathered by the page's view
(server/web/board.py); the template reads nothing itself. It sits above the decision: on a
phone the board is screens below it."""

from __future__ import annotations

from flask import g, request

from sqlmodel import select

from server.models import Game, Seat, User
from server.services import absences, display_names
from server.web.seats import names as seat_names
from server.web.words import N_, _, locale

# What each choice does, in one line (the page's words; the rulings: services/absences.py).
EXPLAINED = {
    "claim": N_("The game ends now and you win by forfeit; it is rated."),
    "end": N_("The game ends now, unrated: nobody wins."),
    "end_many": N_("The game ends unrated once every present player has asked it."),
    "bot": N_("The game's strongest bot plays the seat from now on; the game becomes unrated."),
    "replace": N_("You get a one-time link to give to someone who takes the seat over (we can "
                  "mail it to an address); the game becomes unrated."),
}
LABELS = {"claim": N_("Claim the win"), "end": N_("End the game"),
          "end_many": N_("Ask to end the game"),
          "bot": N_("Hand the seat to a bot"), "replace": N_("Invite a replacement")}
DONE = {"claimed": N_("You claimed the win: the game is over."),
        "ended": N_("The game is over, unrated."),
        "asked_end": N_("You asked to end the game: it ends when every present player has."),
        "bot": N_("A bot plays the seat from now on."),
        "returned": N_("Your seat is yours again: your decisions come to you, not to a bot."),
        "taken": N_("The seat is yours now: its decisions come to you from here on.")}


def _seats(session, game: Game, names: dict) -> tuple[dict[str, str], dict[str, int]]:
    """(seat -> "Seat (Player's name)", or the seat's name alone when nobody holds it;
    seat -> the deadlines its player missed in a row)."""
    who, missed = {}, {}
    for seat, user_id, count in session.exec(
            select(Seat.seat, Seat.user_id, Seat.missed_in_a_row)
            .where(Seat.game_id == game.id).order_by(Seat.id)):
        name = names.get(seat, seat)
        user = session.get(User, user_id) if user_id is not None else None
        if user is not None and not (user.email or "").endswith("@deleted.invalid"):
            name = f"{name} ({display_names.shown(user, _)})"
        who[seat], missed[seat] = name, count or 0
    return who, missed


def section(session, game: Game, seat: str | None) -> dict | None:
    """What the game page shows of its absent seats, or None when none is (or the game is
    over). ``g.absence_shown`` (set by a POST of server/web/absences.py): the answer to the
    reader's choice (a replacement's code, shown this once; what they had typed)."""
    if game.status != "active":
        return None
    opened = absences.open_ones(session, game.id)
    shown = g.get("absence_shown") or {}
    done = request.args.get("absence", "")
    if not opened and not shown.get("code") and done not in DONE:
        return None
    names = seat_names(game.game_type, locale())
    who, missed = _seats(session, game, names)
    many = len(who) > 2
    items, mine = [], None
    for a in opened:
        count = missed.get(a.seat) or game.absent_after_missed or 0
        if a.seat == seat:
            mine = {"id": a.id, "missed": count, "bot": a.bot is not None}
            continue
        choices = absences.choices_for(session, game, a, seat)
        typed = shown.get("typed", {}) if shown.get("absence_id") == a.id else {}
        items.append({
            "id": a.id, "seat": a.seat, "name": who.get(a.seat, a.seat), "reason": a.reason,
            "missed": count, "bot": a.bot,
            "bot_by": who.get(a.bot_by, a.bot_by) if a.bot_by else None,
            "bot_mine": a.bot_by is not None and a.bot_by == seat,
            "invited_mine": a.invited_by is not None and a.invited_by == seat,
            "wants_end": [who.get(s, s) for s in (a.wants_end or []) if s != seat],
            "i_asked_end": seat in (a.wants_end or []),
            "invited_by": who.get(a.invited_by, a.invited_by) if a.invited_by else None,
            "choices": [{"value": c,
                         "label": _(LABELS["end_many" if c == "end" and many else c]),
                         "explained": _(EXPLAINED["end_many" if c == "end" and many else c]),
                         "confirm": c in ("claim", "end")} for c in choices],
            "invite_email": typed.get("invite_email", ""),
            "refused_choice": typed.get("choice"),
        })
    return {"absent": items, "mine": mine, "player": seat is not None, "many": many,
            "done": _(DONE[done]) if done in DONE else None,
            "code": shown.get("code"), "code_seat": shown.get("seat_name"),
            "code_url": shown.get("url")}


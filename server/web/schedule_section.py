"""The game page's section of the game's clock (templates/web/_schedule_section.html): who is
on vacation until when, a pause asked or in force, an extension asked, and the buttons that
apply to the reader's seat now (posted to /games/<id>/schedule, server/web/schedule.py).
Gathered by the page's view (server/web/board.py); the template reads nothing itself."""

from __future__ import annotations

from server.models import Game, utcnow
from server.services import clock, extensions, pauses, vacations
from server.web.seats import names as seat_names
from server.web.words import locale


def section(session, game: Game, seat: str | None) -> dict | None:
    """What the game page shows of the game's clock: to everyone who may see the page, whether
    it is paused or its clock stopped; to a player, who else is away until when (a vacation is
    its player's own business: the seated players need it, their opponent's clock is stopped,
    a spectator or a passer-by does not) and the buttons that apply now."""
    if game.status != "active":
        return None
    if seat is not None and pauses.humans(session, game) == [seat]:
        return None     # against bots alone: nobody to agree a pause or grant more time
    names = seat_names(game.game_type, locale())
    now = utcnow()
    pause = pauses.current(session, game.id)
    pending = extensions.pending(session, game.id)
    used = {e.seat for e in extensions.of_game(session, game.id)}
    owing = clock.owing_now(session, game) if seat else []
    return {
        "away": [{"seat": names.get(s, s), "until": until}
                 for s, until in vacations.away(session, game.id, now) if s != seat]
        if seat is not None else [],
        "paused": pause is not None and pause.status == "paused",
        "pause_asked": pause is not None and pause.status == "asked",
        "pause_by": names.get(pause.asked_by, pause.asked_by) if pause else "",
        "may_answer_pause": bool(seat and pause and pause.status == "asked"
                                 and seat not in pause.agreed),
        "player": seat is not None,
        "may_ask_extension": bool(seat and seat in owing and seat not in used
                                  and game.deadline_at is not None),
        "extension": pending and {"seat": names.get(pending.seat, pending.seat),
                                  "hours": pending.hours, "mine": pending.seat == seat},
        "may_answer_extension": bool(seat and pending and pending.seat != seat),
        "clock_stopped": game.clock_stopped_at is not None,
        "others": len([s for s in pauses.humans(session, game) if s != seat]),
    }



"""The ratings on the pages (issue 27 item 6): a game's public ladder, a section per role pool
(/ladder/<game>), and a player's page (/players/<id>): their ratings per game and role, and
their recent finished games. Public, like results: names are the ones players chose (never an
address), bots by their level; a private game is listed only to those who may see it."""

from __future__ import annotations

import engine.core as game_engine
from flask import Blueprint, abort, redirect

from server import db
from server.games import UnknownGame, presenter
from server.models import RatedGame, User
from server.services import display_names, lobby, rating_scale, ratings
from server.web.pages import page, reader
from server.web.seats import names as seat_names
from server.web.words import N_, _, locale

bp = Blueprint("ratings_pages", __name__)


# A bot's name on the ladder: rated as a player of its own, one per level.
BOTS = {"random": N_("Bot (random)"), "greedy": N_("Bot (greedy)"), "strong": N_("Bot (strong)")}


def _player_name(row, names: dict) -> str:
    if row.bot:
        return _(BOTS[row.bot]) if row.bot in BOTS else _("Bot (%(level)s)", level=row.bot)
    return names[row.player]


def _entry(row, names: dict, shown, loc: str, place: int) -> dict:
    return {"place": place, "name": _player_name(row, names), "user_id": row.user_id,
            "role": shown.rating_role_name(row.role, loc), "ordinal": f"{row.ordinal:.1f}",
            "rating": rating_scale.shown(row.mu, row.sigma),
            "mu": f"{row.mu:.1f}", "sigma": f"{row.sigma:.1f}", "games": row.games,
            "wins": row.wins}


@bp.get("/ladder/<game_type>")
def ladder(game_type: str):
    loc = locale()
    if game_type not in game_engine.games():
        abort(404)
    try:
        shown = presenter(game_type)
    except UnknownGame:
        abort(404)
    with db.reading(db.session()) as session:
        rows = ratings.ladder(session, game_type, limit=500)
        names = ratings.names(session, rows, lambda user: display_names.shown(user, _))
    pools: dict[str, list] = {}
    for row in rows:
        pool = pools.setdefault(row.role, [])
        pool.append(_entry(row, names, shown, loc, len(pool) + 1))
    sections = [{"role": role, "id": f"role-{n}", "name": shown.rating_role_name(role, loc),
                 "entries": entries} for n, (role, entries) in enumerate(pools.items())]
    return page("ladder.html", 200, loc, title=shown.title(loc), sections=sections,
                newcomer=rating_scale.TARGET, per_sigma=rating_scale.POINTS_PER_SIGMA,
                per_point=round(rating_scale.ALPHA),
                games=[{"id": p.game, "title": p.title(loc)} for p in _presenters()],
                game_type=game_type)


@bp.get("/ladder")
def ladders():
    """The header's link (issue 47): the ladder of the first game; each ladder lists the
    others."""
    games = _presenters()
    if not games:
        abort(404)
    return redirect(f"/ladder/{games[0].game}", 302)


def _presenters():
    from server.games import presenters
    return presenters()


@bp.get("/players/<int:user_id>")
def player(user_id: int):
    loc = locale()
    with db.reading(db.session()) as session:
        user = session.get(User, user_id)
        if user is None:
            abort(404)
        rows = ratings.of_user(session, user_id)
        entries = []
        for row in rows:
            try:
                shown = presenter(row.game_type)
            except UnknownGame:
                continue
            entries.append({**_entry(row, {row.player: ""}, shown, loc,
                                     ratings.place(session, row)),
                            "game": shown.title(loc), "game_type": row.game_type})
        recent = []
        for game, seat in lobby.finished_games_of(session, user_id, reader()):
            try:
                shown = presenter(game.game_type)
            except UnknownGame:
                continue
            winner = (game.result or {}).get("winner")
            recent.append({"id": game.id, "game": shown.title(loc),
                           "seat": seat_names(game.game_type, loc).get(seat, seat),
                           "outcome": _("Won") if winner == seat else
                           _("No winner") if winner is None else _("Lost"),
                           "finished_at": game.finished_at})
        name = display_names.shown(user, _)
    return page("player.html", 200, loc, name=name, ratings=entries, recent=recent)


def changes(session, game, loc: str) -> dict | None:
    """What the game did to its players' ratings, for its result page (issue 47): each rated
    seat's player (linked to their page), the rating shown before and after, and the change;
    ``rated`` False when the game rated nobody (services/ratings.py says which games count);
    None while its rating is still to come."""
    row = session.get(RatedGame, game.id)
    if row is None:
        return None
    names = seat_names(game.game_type, loc)
    ids = {int(c["player"].split(":", 1)[1]) for c in row.changes or []
           if c["player"].startswith("user:")}
    users = {u.id: u for u in (session.get(User, i) for i in ids) if u is not None}
    out = []
    for c in row.changes or []:
        kind, _colon, key = c["player"].partition(":")
        user = users.get(int(key)) if kind == "user" else None
        before = rating_scale.shown(c["before"]["mu"], c["before"]["sigma"])
        after = rating_scale.shown(c["after"]["mu"], c["after"]["sigma"])
        name = (display_names.shown(user, _) if user is not None else
                _(BOTS[key]) if kind == "bot" and key in BOTS else c["player"])
        out.append({"seat": c["seat"], "seat_name": names.get(c["seat"], c["seat"]),
                    "name": name, "user_id": user.id if user is not None else None,
                    "before": before, "after": after, "change": f"{after - before:+d}"})
    return {"rated": bool(out), "entries": out, "ladder": f"/ladder/{game.game_type}"}

"""Ratings per role (issue 27 item 6): every finished game updates its players' OpenSkill
ratings once, each in the role pool its engine names for the seat (GameInfo.rating_role: in
an asymmetric game each side is its own skill).

The model is openskill.py's Plackett-Luce: it rates any number of players with ties (a
Mr. President race of four, a draw) from a ranking alone, has no draw margin to tune, and is
the library's default and best-calibrated model; Glicko-2 would need rating periods and takes
only pairs. The ladder orders by the ordinal, mu - 3 sigma: a player who has played little is
shown low rather than lucky.

A game is rated by the ``rate_game`` task through the outbox row written with its end (the
engine's end, a resignation or a forfeit), and at most once: the RatedGame row, inserted in
the rating's transaction, is the guard (a second run finds it; two racing runs collide on its
primary key and the loser does nothing). Bots are players of their own, one per game and
level ("bot:strong"), rated like anybody. The ranking: the winner first and everyone else
tied second; with no winner, everyone tied, except a seat that resigned or forfeited, last.

What is rated (issue 45: ratings that cannot be farmed by a second account):
- only a public game: a private one (nobody else can see it was played) never feeds the
  public ladder; there is no private ladder;
- only a game both sides played: every rated seat's player made at least MIN_OWN_DECISIONS
  decisions of their own (an order of theirs applied: by the page, the API, mail or a bot;
  not a default the server filed for them at a deadline, nor a move taken back). A game
  resigned or forfeited before that, or one a seat left to its deadlines, rates nobody
  (its RatedGame row is written, with no changes);
- only a game no seat of which changed hands (issue 46, services/absences.py): a seat handed to
  a bot or to a replacement player, or a game ended unrated (an absent player's, or nobody
  played it), rates nobody; a win claimed over an absent player is rated as a forfeit;
- repeated pairings count less: the k-th rated game within PAIRING_WINDOW between the same
  two accounts moves each of their ratings by 1/k of OpenSkill's update (mu and sigma alike;
  a player's weight is that of the pairing they repeated most in the game; bots are not
  accounts and damp nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import engine.core as game_engine
from openskill.models import PlackettLuce
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.models import (AutoOrder, Game, Order, RatedGame, Rating, Seat, SeatAbsence, User,
                           utcnow)
from server.services import outbox

MODEL = PlackettLuce()
# Decisions of their own each rated seat's player made: three is past any opening a second
# account could resign in (both sides have had real choices), and asks nothing of a real game.
MIN_OWN_DECISIONS = 3
# Orders the server gave for a seat at its deadline (services/deadlines.py): not the player's.
NOT_OWN = ("filed", "default", "forfeit")
PAIRING_WINDOW = timedelta(days=30)
_GAME_OF = Rating.game_type  # (a column, not a branch on a game: the shared layers have none)


@dataclass(frozen=True)
class Player:
    """Who played a seat, as the ratings name them."""
    key: str  # "user:<id>" | "bot:<level>"
    user_id: int | None
    bot: str | None


def player_of(game: Game, seat: Seat) -> Player | None:
    """The seat's rated player: its bot (kept with the game) or its user; None if neither."""
    level = (game.bots or {}).get(seat.seat)
    if level:
        return Player(f"bot:{level}", None, level)
    if seat.user_id is not None:
        return Player(f"user:{seat.user_id}", seat.user_id, None)
    return None


def ranks(result: dict, seats: list[str]) -> list[int]:
    """Each seat's place (1 best, ties share one) by the game's result."""
    winner = result.get("winner")
    if winner in seats:
        return [1 if s == winner else 2 for s in seats]
    loser = result.get("resigned") or result.get("forfeited")
    return [2 if s == loser else 1 for s in seats]


def write_request(session: Session, game_id: int) -> None:
    """The outbox row asking for the game's rating, in the transaction that ends it."""
    outbox.write(session, "rate_game", {"game_id": game_id})


def rate(session: Session, game_id: int, message_id: int | None = None) -> bool:
    """Rate a finished game once; False when there is nothing (left) to do. ``message_id``,
    the outbox row that asked, is marked consumed either way."""
    try:
        done = _rate(session, game_id, message_id)
    except IntegrityError:          # another run rated it (or made a rating row) meanwhile
        session.rollback()
        done = None
    except BaseException:
        session.rollback()
        raise
    if done is None:                # a racing run: try once more, it finds its answer
        try:
            done = bool(_rate(session, game_id, message_id))
        except IntegrityError:
            session.rollback()
            done = False
    if not done:
        outbox.mark_delivered(session, message_id)
        session.commit()
    return bool(done)


def _rate(session: Session, game_id: int, message_id: int | None) -> bool:
    game = session.get(Game, game_id)
    if game is None or game.status != "finished" or not game.result:
        session.rollback()
        return False
    if session.get(RatedGame, game_id) is not None:
        session.rollback()
        return False
    session.add(RatedGame(game_id=game_id, changes=[]))
    session.flush()                 # the guard first: a racing run stops here
    info = game_engine.info(game.game_type)
    seats = list(session.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.id)))
    entries = []
    for seat in seats:
        player = player_of(game, seat)
        if player is not None:
            entries.append((seat.seat, info.role_of(game.options, seat.seat), player))
    if (len(entries) < 2 or not game.public or _unrated(session, game)
            or not _played(session, game_id, entries)):
        # Nothing to compare, or not to rate: rated as nobody's, and the asking row consumed.
        outbox.mark_delivered(session, message_id)
        session.commit()
        return True
    weights = _weights(session, game_id, entries, utcnow())
    rows = {}
    for _seat, role, player in entries:
        if (role, player.key) not in rows:
            rows[(role, player.key)] = _row(session, game.game_type, role, player)
    places = ranks(game.result, [e[0] for e in entries])
    teams = [[MODEL.rating(mu=rows[(role, p.key)].mu, sigma=rows[(role, p.key)].sigma)]
             for _s, role, p in entries]
    rated = MODEL.rate(teams, ranks=places)
    new: dict[tuple, list] = {}
    for (_s, role, player), [before], [after], weight in zip(entries, teams, rated, weights):
        # A repeated pairing's update, scaled: the same step of OpenSkill's, a k-th as long.
        new.setdefault((role, player.key), []).append(MODEL.rating(
            mu=before.mu + weight * (after.mu - before.mu),
            sigma=before.sigma + weight * (after.sigma - before.sigma)))
    changes, now = [], utcnow()
    for (seat, role, player), place, weight in zip(entries, places, weights):
        row = rows[(role, player.key)]
        before = {"mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal}
        changes.append({"seat": seat, "role": role, "player": player.key, "place": place,
                        "won": place == 1 and places.count(1) == 1, "before": before,
                        "weight": weight})
    for key, afters in new.items():
        # A bot level playing two seats of one pool in one game: the mean of its two updates.
        row = rows[key]
        row.mu = sum(a.mu for a in afters) / len(afters)
        row.sigma = sum(a.sigma for a in afters) / len(afters)
        row.ordinal = MODEL.rating(mu=row.mu, sigma=row.sigma).ordinal()
        row.games += len(afters)
        row.updated_at = now
    for change in changes:
        row = rows[(change["role"], change["player"])]
        row.wins += 1 if change["won"] else 0
        change["after"] = {"mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal}
    for row in rows.values():
        session.add(row)
    guard = session.get(RatedGame, game_id)
    guard.changes = changes
    session.add(guard)
    outbox.mark_delivered(session, message_id)
    session.commit()
    return True


def _unrated(session: Session, game: Game) -> bool:
    """Whether a seat changed hands or the game was ended unrated (services/absences.py)."""
    if (game.result or {}).get("rated") is False:
        return True
    return session.exec(select(SeatAbsence.id).where(
        SeatAbsence.game_id == game.id,
        SeatAbsence.bot.is_not(None) | SeatAbsence.status.in_(
            ("ended", "replaced", "abandoned")))).first() is not None


def _played(session: Session, game_id: int, entries: list) -> bool:
    """Whether every rated seat's player made MIN_OWN_DECISIONS decisions of their own: orders
    applied for the seat, less those the server gave at a deadline."""
    for seat, _role, _player in entries:
        steps = set(session.exec(select(Order.step).where(
            Order.game_id == game_id, Order.seat == seat, Order.status == "applied")))
        given = set(session.exec(select(AutoOrder.step).where(
            AutoOrder.game_id == game_id, AutoOrder.seat == seat,
            AutoOrder.source.in_(NOT_OWN))))
        if len(steps - given) < MIN_OWN_DECISIONS:
            return False
    return True


def _weights(session: Session, game_id: int, entries: list, now) -> list[float]:
    """Each entry's weight: 1/k, k - 1 the rated games within PAIRING_WINDOW in which its
    account and another account of this game were both rated (the most of any such pair);
    1 for a bot."""
    accounts = {p.user_id for _s, _r, p in entries if p.user_id is not None}
    if len(accounts) < 2:
        return [1.0] * len(entries)
    earlier = session.exec(select(RatedGame).join(Seat, Seat.game_id == RatedGame.game_id)
                           .where(RatedGame.rated_at >= now - PAIRING_WINDOW,
                                  RatedGame.game_id != game_id,
                                  Seat.user_id.in_(accounts))).all()
    met: dict[frozenset, int] = {}
    for row in {r.game_id: r for r in earlier}.values():
        rated = {c["player"] for c in row.changes or []}
        both = sorted(a for a in accounts if f"user:{a}" in rated)
        for i, one in enumerate(both):
            for other in both[i + 1:]:
                met[frozenset((one, other))] = met.get(frozenset((one, other)), 0) + 1
    weights = []
    for _s, _r, player in entries:
        if player.user_id is None:
            weights.append(1.0)
            continue
        k = 1 + max((n for pair, n in met.items() if player.user_id in pair), default=0)
        weights.append(1.0 / k)
    return weights


def _row(session: Session, game_type: str, role: str, player: Player) -> Rating:
    row = session.exec(select(Rating).where(_GAME_OF == game_type, Rating.role == role,
                                            Rating.player == player.key)
                       .with_for_update()).first()
    if row is None:
        fresh = MODEL.rating()
        row = Rating(game_type=game_type, role=role, player=player.key,
                     user_id=player.user_id, bot=player.bot, mu=fresh.mu, sigma=fresh.sigma,
                     ordinal=fresh.ordinal(), games=0, wins=0)
    return row


# --- reading -----------------------------------------------------------------------------
def ladder(session: Session, game_type: str, role: str | None = None,
           limit: int = 100) -> list[Rating]:
    """The ratings of a game (one role pool, or every pool), best ordinal first."""
    query = select(Rating).where(_GAME_OF == game_type)
    if role is not None:
        query = query.where(Rating.role == role)
    return list(session.exec(query.order_by(Rating.role, Rating.ordinal.desc(), Rating.id)
                             .limit(limit)).all())


def place(session: Session, row: Rating) -> int:
    """The rating's place on its role's ladder (1 best)."""
    from sqlalchemy import func
    return 1 + session.exec(select(func.count()).select_from(Rating).where(
        _GAME_OF == row.game_type, Rating.role == row.role,
        Rating.ordinal > row.ordinal)).one()


def roles(session: Session, game_type: str) -> list[str]:
    """The role pools of a game that have ratings, by name."""
    return sorted(set(session.exec(select(Rating.role).where(_GAME_OF == game_type))))


def of_user(session: Session, user_id: int) -> list[Rating]:
    """A user's ratings, by game and role."""
    return list(session.exec(select(Rating).where(Rating.user_id == user_id)
                             .order_by(Rating.game_type, Rating.role)).all())


def recent_games(session: Session, user_id: int, limit: int = 10) -> list[tuple[Game, str]]:
    """A user's finished games, newest first, with their seat: what a player's page shows."""
    return list(session.exec(select(Game, Seat.seat).join(Seat, Seat.game_id == Game.id)
                             .where(Seat.user_id == user_id, Game.status == "finished")
                             .order_by(Game.finished_at.desc(), Game.id.desc())
                             .limit(limit)).all())


def names(session: Session, rows: list[Rating], shown) -> dict[str, str]:
    """Each rated player's name as others see it (``shown(user)``); bots by their level."""
    ids = {r.user_id for r in rows if r.user_id is not None}
    users = {u.id: u for u in session.exec(select(User).where(User.id.in_(ids)))} if ids else {}
    return {r.player: shown(users[r.user_id]) if r.user_id in users else r.player
            for r in rows}

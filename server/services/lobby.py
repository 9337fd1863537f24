"""Before and around play: open a game, invite and join its seats, start it, resign, spectate.

A game is created ``open`` with its seats reserved by email (or left open for anybody holding the
seat's invitation code); it starts when its creator says so and every seat has a player. The seed
is drawn at creation and only its sha256 is shown until the game ends (verifiable fairness).
"""

from __future__ import annotations

import secrets
from typing import NamedTuple

import engine.core as engine
from engine import bots as engine_bots
from sqlalchemy import bindparam, delete, false, update
from sqlmodel import Session, select

from server.catalogue import N_
from server import db, models
from server.models import Game, GameChat, Order, OutboxMessage, Seat, Spectator, User, utcnow
from server.raw_sql import Raw
from server.services import games as orders
from server.services import live, ratings
from server.services.users import normalize_email, proven, reserved_domain, sha256_hex


class LobbyError(Exception):
    """A refused lobby request. ``kind`` is one of not_found, forbidden, conflict, invalid;
    ``reason`` its English text, made of ``template`` % ``values`` (the pages translate the
    template, server/translations)."""

    def __init__(self, kind: str, template: str, **args):
        self.kind, self.template, self.values = kind, template, args
        self.reason = template % args if args else template
        super().__init__(self.reason)


def seats_of(game_type: str, options: dict | None) -> tuple[str, ...]:
    """The seat names of a game type with these options (raises OptionsError if they are bad)."""
    return engine.info(game_type).seats(options)


# Time limits (server/services/deadlines.py): hours per decision (0: none), reminders (hours
# before the deadline), and what a missed deadline does.
TIMING_DEFAULTS = {"decision_hours": 72, "reminder_hours": [24], "on_deadline": "default",
                   "absent_after_missed": 2}   # issue 46: services/absences.py
MAX_ABSENT_AFTER = 10
MAX_DECISION_HOURS = 24 * 60
MAX_REMINDERS = 5


def check_timing(timing: dict | None) -> dict:
    """The game's full timing, or LobbyError saying what is wrong and what would do."""
    timing = {**TIMING_DEFAULTS, **(timing or {})}
    unknown = set(timing) - set(TIMING_DEFAULTS)
    if unknown:
        raise LobbyError("invalid",
                         N_("Unknown timing setting(s) %(unknown)s; they are %(known)s."),
                         unknown=", ".join(sorted(unknown)), known=", ".join(TIMING_DEFAULTS))
    hours = timing["decision_hours"]
    if not isinstance(hours, int) or isinstance(hours, bool) or not (
            0 <= hours <= MAX_DECISION_HOURS):
        raise LobbyError("invalid", N_("decision_hours is a whole number of hours from 1 to "
                                       "%(most)s, or 0 for no time limit."),
                         most=MAX_DECISION_HOURS)
    reminders = timing["reminder_hours"]
    if (not isinstance(reminders, list) or len(reminders) > MAX_REMINDERS
            or not all(isinstance(h, int) and not isinstance(h, bool) for h in reminders)
            or any(not 0 < h < max(hours, 1) for h in reminders)):
        raise LobbyError("invalid", N_("reminder_hours lists up to %(most)s reminders, each a "
                                       "whole number of hours before the deadline, more than 0 "
                                       "and less than decision_hours (%(hours)s)."),
                         most=MAX_REMINDERS, hours=hours)
    if timing["on_deadline"] not in ("default", "forfeit"):
        raise LobbyError("invalid", N_("on_deadline is \"default\" (the seat's filed default "
                                         "order, else the safe default) or \"forfeit\" (the "
                                         "seat loses)."))
    missed = timing["absent_after_missed"]
    if (not isinstance(missed, int) or isinstance(missed, bool)
            or not 0 <= missed <= MAX_ABSENT_AFTER):
        raise LobbyError("invalid", N_("absent_after_missed is how many deadlines in a row a "
                                       "player may miss before the others may claim the win, "
                                       "end the game, hand the seat to a bot or invite a "
                                       "replacement: a whole number from 1 to %(most)s, or 0 "
                                       "for never."), most=MAX_ABSENT_AFTER)
    return {**timing, "reminder_hours": sorted(set(reminders), reverse=True)}


def open_game(session: Session, creator: User, game_type: str, options: dict | None,
              seats: dict[str, str | None], public: bool = False,
              seed: str | None = None,
              timing: dict | None = None, bots: dict[str, str] | None = None,
              bot_delay_seconds: int = 0, spectator_chat: bool = False,
              start_by_hand: bool = False, random_side: bool = False
              ) -> tuple[Game, dict[str, str]]:
    """Create an open game; return it and each seat's invitation code (shown only this once).

    ``seats`` maps every seat to an email address (that person is invited) or None (anybody with
    the code may take it). The creator takes a seat reserved for their own address at once.
    ``bots`` gives seats to bots (seat -> level; such a seat needs no entry in ``seats``), who
    answer ``bot_delay_seconds`` after they are asked (server/services/bots.py).
    ``spectator_chat``: the game has a spectators' chat beside the players' (services/chat.py).
    ``start_by_hand``: the game waits for its creator's start once every seat is taken (else it
    starts by itself: ``start_if_ready``, which the caller runs once it has filed what goes
    with the game). ``random_side``: the creator's seat is drawn among the seats not given to
    bots (the addresses given to the others move with the draw).
    """
    if game_type not in engine.games():
        raise LobbyError("invalid", N_("There is no game '%(game)s'; the games are %(games)s."),
                         game=game_type, games=", ".join(engine.games()))
    options = dict(options or {})
    names = seats_of(game_type, options)
    bots = check_bots(game_type, names, bots or {}, seats, bot_delay_seconds)
    seats = {**{seat: None for seat in bots}, **seats}
    _within_limits(session, creator, names, bots, seats)
    if set(seats) != set(names):
        raise LobbyError("invalid", N_("The seats of %(game)s are %(seats)s; give each an email "
                                         "address or null."), game=game_type,
                         seats=", ".join(names))
    if random_side:
        seats = _random_side(seats, bots, creator)
    emails = [normalize_email(e) for e in seats.values() if e]
    for email in emails:     # nobody's mailbox, and the deleted accounts' tombstones
        if email != creator.email and reserved_domain(email) is not None:
            raise LobbyError("invalid", N_("No mail can reach %(email)s: “.%(domain)s” is a "
                                             "reserved domain. Invite an address somebody "
                                             "reads, or leave the seat open for an invitation "
                                             "code."), email=email, domain=reserved_domain(email))
    if len(emails) != len(set(emails)):
        raise LobbyError("invalid", N_("One person cannot take two seats in the same game."))
    timing = check_timing(timing)
    seed = seed if seed is not None else secrets.token_hex(16)
    game = Game(game_type=game_type, options=options, status="open", step=0, seed=seed,
                seed_hash=sha256_hex(seed), public=public, created_by=creator.id, bots=bots,
                bot_delay_seconds=bot_delay_seconds, start_by_hand=start_by_hand, **timing)
    codes: dict[str, str] = {}
    try:
        session.add(game)
        session.flush()
        for name in names:
            if name in bots:        # taken by its bot: no invitation, no code
                session.add(Seat(game_id=game.id, seat=name, joined_at=utcnow()))
                continue
            email = normalize_email(seats[name]) if seats[name] else None
            code = secrets.token_urlsafe(16)
            codes[name] = code
            seat = Seat(game_id=game.id, seat=name, invite_email=email,
                        invite_token_hash=sha256_hex(code))
            if email == creator.email:
                seat.user_id, seat.joined_at = creator.id, utcnow()
            elif email:
                session.add(OutboxMessage(kind="invitation", payload={
                    "game_id": game.id, "seat": name, "email": email}))
            session.add(seat)
        if spectator_chat:
            session.add(GameChat(game_id=game.id, spectators=True))
        session.commit()
    except BaseException:
        session.rollback()
        raise
    session.refresh(game)
    return game, codes


# A bot's pause before it answers, to pace a solo game: kept under the outbox's redelivery time
# (OUTBOX_REDELIVER_SECONDS, 60 s), so a waiting bot_move row is not sent again meanwhile.
MAX_BOT_DELAY_SECONDS = 30


def _within_limits(session: Session, creator: User, names, bots: dict, seats: dict) -> None:
    """The creator's limits (server/rate_limits.py): games created, addresses invited, and
    all-bot games in play at once (they cost the workers' time and nobody else's)."""
    from flask import current_app, has_app_context

    from server import rate_limits
    if not has_app_context():       # the operator's commands: no limits
        return
    invited = [e for e in seats.values() if e and normalize_email(e) != creator.email]
    if len(bots) == len(names):
        most = int(current_app.config["ALL_BOT_GAMES_PER_USER"])
        mine = session.exec(select(Game.id, Game.bots).where(
            Game.created_by == creator.id, Game.status.in_(("open", "active")))).all()
        if sum(1 for _gid, game_bots in mine if len(game_bots or {}) == len(names)) >= most:
            raise LobbyError("too_many", N_("You have %(n)s games of bots only in play, the "
                             "most at once; let one finish first."), n=most, seconds=3600)
    try:
        rate_limits.hit("games_user", creator.id)
        if invited:
            rate_limits.hit("invitations_user", creator.id, cost=len(invited))
    except rate_limits.TooMany as too_many:
        raise LobbyError("too_many", N_("You have created as many games or invited as many "
                         "players as this server takes in a day; try again in %(minutes)s "
                         "minutes."), minutes=max(1, too_many.retry_after // 60),
                         seconds=too_many.retry_after) from None


def check_bots(game_type: str, names, bots: dict, seats: dict, delay) -> dict:
    """The bot seats, checked: real seats, levels the game has, no address given for them."""
    levels = engine_bots.levels(game_type)
    for seat, level in bots.items():
        if seat not in names:
            raise LobbyError("invalid", N_("There is no seat '%(seat)s' for a bot; the seats "
                                             "are %(seats)s."), seat=seat, seats=", ".join(names))
        if level not in levels:
            raise LobbyError("invalid", N_("There is no bot '%(level)s'; this game has "
                                             "%(levels)s."), level=level,
                             levels=", ".join(levels))
        if seats.get(seat):
            raise LobbyError("invalid", N_("The seat %(seat)s is given to a bot and to "
                                             "%(email)s; give it to one of them."), seat=seat,
                             email=seats[seat])
    if (not isinstance(delay, int) or isinstance(delay, bool)
            or not 0 <= delay <= MAX_BOT_DELAY_SECONDS):
        raise LobbyError("invalid", N_("bot_delay_seconds is a whole number of seconds from 0 "
                                         "to %(most)s."), most=MAX_BOT_DELAY_SECONDS)
    return dict(bots)


def _game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise LobbyError("not_found", N_("There is no such game."))
    return game


def seat_rows(session: Session, game_id: int) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.id)))


class SeatHolder(NamedTuple):
    """A seat of a game and who holds it (a user) or is invited to (an email)."""
    seat: str
    user_id: int | None
    invite_email: str | None


_SEAT_HOLDERS = Raw(select(Seat.seat, Seat.user_id, Seat.invite_email)
                    .where(Seat.game_id == bindparam("game_id")).order_by(Seat.id))


def seat_holders(session: Session, game_id: int) -> list[SeatHolder]:
    """The game's seats, in order, read with one statement built once and run on the driver's
    cursor (server/raw_sql.py): every order reads them to check its sender."""
    return [SeatHolder(*row) for row in _SEAT_HOLDERS.rows(db.connection(session),
                                                           {"game_id": game_id})]


def seat_of(session: Session, game_id: int, user_id: int) -> str | None:
    """The seat the user plays in this game, or None."""
    return session.exec(select(Seat.seat).where(Seat.game_id == game_id,
                                                Seat.user_id == user_id)).first()


def followed(session: Session, user) -> set[int]:
    """The ids of the games the user (None: nobody) follows as a spectator."""
    if user is None:
        return set()
    return set(session.exec(select(Spectator.game_id).where(Spectator.user_id == user.id)))


def may_follow(game: Game, user, seat: str | None, following: set[int]) -> bool:
    """Whether ``user``, signed in, may follow ``game``: not over, neither played (``seat``)
    nor created nor followed (``following``: ``followed()``) by them."""
    return (user is not None and seat is None and game.status != "finished"
            and game.created_by != user.id and game.id not in following)


def may_see(session: Session, game: Game, user: User | None,
            seats: list[Seat] | None = None) -> bool:
    """Whether the user may see the game at all (a private game is invisible to others): a
    public game, anybody; a private one, its creator, its players and those invited to a seat
    still free. Following a private game (``spectate``) grants nothing of its own: the follow
    rests on the invitation, and ends with it (``drop_lapsed_follows``).
    ``seats``: the game's ``seat_holders``, when the caller has read them already."""
    if game.public:
        return True
    if user is None:
        return False
    if game.created_by == user.id:
        return True
    return any(seat.user_id == user.id or invited(seat, user)
               for seat in (seats if seats is not None else seat_holders(session, game.id)))


def drop_lapsed_follows(session: Session, game: Game) -> None:
    """Delete the follows of a private game whose followers may no longer see it (the
    invitation they followed it by lapsed: its seat was taken by somebody else); in the
    session's transaction."""
    if game.public:
        return
    seats = seat_holders(session, game.id)
    for row in session.exec(select(Spectator).where(Spectator.game_id == game.id)).all():
        if not may_see(session, game, session.get(User, row.user_id), seats):
            session.delete(row)
    session.flush()


def invited(seat, user) -> bool:
    """Whether ``seat`` is reserved for ``user``'s address, still free, and the address is
    proven (an address counts only once its owner opened a link mailed to it: anybody may
    sign up naming somebody else's address)."""
    return (seat.invite_email is not None and seat.invite_email == user.email
            and seat.user_id is None and proven(user))


def join_game(session: Session, game_id: int, user: User, seat: str | None = None,
              code: str | None = None) -> str:
    """Take a seat: the one reserved for the user's email, or the one the code opens, or in
    a public game a free seat nobody is invited to (``seat``: that one)."""
    try:
        game = _game(session, game_id)
        rows = seat_rows(session, game_id)
        if code is None and not may_see(session, game, user):
            raise LobbyError("not_found", N_("There is no such game."))
        if any(r.user_id == user.id for r in rows):
            raise LobbyError("conflict", N_("You already have a seat in this game."))
        if game.status != "open":
            raise LobbyError("conflict", N_("The game has already started; its seats are taken."))
        rows = [r for r in rows if r.seat not in (game.bots or {})]    # bots keep theirs
        if code is not None:
            matches = [r for r in rows if r.invite_token_hash == sha256_hex(code)]
            if not matches:
                raise LobbyError("forbidden",
                                 N_("That invitation code opens no seat of this game."))
        else:
            matches = [r for r in rows if invited(r, user)]
            if not matches and not proven(user) and any(r.invite_email == user.email
                                                        for r in rows):
                raise LobbyError("forbidden", N_("Your address is not proven yet: sign in on "
                                 "the web pages with the link mailed to it, then join; or "
                                 "join with an invitation code."))
            if not matches and game.public:
                matches = _public_seat(rows, user, seat)
            if not matches:
                raise LobbyError("forbidden", N_("You are not invited to a seat of this game; "
                                 "ask its creator for an invitation code."))
        if seat is not None:
            matches = [r for r in matches if r.seat == seat]
            if not matches:
                raise LobbyError("invalid", N_("Your invitation is not for the seat '%(seat)s'."),
                                 seat=seat)
        row = matches[0]
        if row.user_id is not None:
            raise LobbyError("conflict", N_("The seat %(seat)s is already taken."), seat=row.seat)
        # Compare-and-set on the seat: two people racing for one code get one seat. The code
        # is used up (its hash goes): were the seat freed again (its player deleted the account
        # before the start), whoever saw the code meanwhile could not take it; its creator
        # makes a new one (new_code).
        done = session.execute(update(Seat).where(Seat.id == row.id, Seat.user_id.is_(None))
                               .values(user_id=user.id, joined_at=utcnow(),
                                       invite_token_hash=None))
        if done.rowcount != 1:
            raise LobbyError("conflict", N_("The seat %(seat)s is already taken."), seat=row.seat)
        drop_lapsed_follows(session, game)    # an invitation to this seat lapsed with it
        session.add(OutboxMessage(kind="seat_joined", payload={
            "game_id": game_id, "seat": row.seat, "user_id": user.id}))
        session.commit()
    except BaseException:
        session.rollback()
        raise
    start_if_ready(session, game_id)   # the last seat taken: the game begins (issue 47)
    return row.seat


def uninvited(seat) -> bool:
    """Whether ``seat`` (not a bot's) of a public open game may be taken by anybody: nobody
    holds it and no address is invited to it (issue 47: open public games seek players)."""
    return seat.user_id is None and seat.invite_email is None


def _public_seat(rows, user: User, seat: str | None) -> list:
    """The seats of a public open game ``user`` may take without an invitation: the free
    seats nobody is invited to (``seat``: that one only), for a proven address (as an
    invitation's: a throwaway sign-up may not fill a stranger's game); none when every seat
    is kept for an invitation. Raises LobbyError saying why when the open seats are taken."""
    if seat is not None:
        row = next((r for r in rows if r.seat == seat), None)
        if row is None:     # a seat of another game's names: what this game's seats are
            raise LobbyError("conflict", N_("There is no seat '%(seat)s' in this game; its "
                                            "seats are %(seats)s."),
                             seat=seat, seats=", ".join(r.seat for r in rows))
        if row.user_id is not None:
            raise LobbyError("conflict", N_("The seat %(seat)s is already taken."), seat=seat)
        if row.invite_email is not None:
            raise LobbyError("forbidden", N_("The seat %(seat)s is kept for an invited player."),
                             seat=seat)
    free = [r for r in rows if uninvited(r) and seat in (None, r.seat)]
    if not free and any(r.invite_email is None for r in rows):
        raise LobbyError("conflict", N_("Every open seat of this game is taken."))
    if not free:      # every seat is kept for an invitation: the caller says so
        return []
    if not proven(user):
        raise LobbyError("forbidden", N_("Your address is not proven yet: sign in on the web "
                                         "pages with the link mailed to it, then join."))
    return free


def seeking_players(session: Session, limit: int = 50) -> list[tuple[Game, list[str]]]:
    """The open public games with a free seat nobody is invited to (bots' seats are taken),
    newest first, each with those seats: the games anybody signed in may join (issue 47).
    Private games are never listed."""
    rows = session.exec(select(Game, Seat.seat).join(Seat, Seat.game_id == Game.id)
                        .where(Game.public.is_(True), Game.status == "open",
                               Seat.user_id.is_(None), Seat.invite_email.is_(None))
                        .order_by(Game.id.desc(), Seat.id)).all()
    found: dict[int, tuple[Game, list[str]]] = {}
    for game, seat in rows:
        if seat in (game.bots or {}):
            continue
        if game.id not in found and len(found) >= limit:
            break
        found.setdefault(game.id, (game, []))[1].append(seat)
    return list(found.values())


def code_opens(session: Session, game_id: int, code: str) -> str | None:
    """The free seat of the open game ``code`` is the invitation code of, or None."""
    game = session.get(Game, game_id)
    if game is None or game.status != "open" or not code:
        return None
    digest = sha256_hex(code)
    return next((r.seat for r in seat_rows(session, game_id) if r.user_id is None
                 and r.seat not in (game.bots or {}) and r.invite_token_hash == digest), None)


def new_code(session: Session, game_id: int, user: User, seat: str) -> str:
    """A new invitation code for a free seat of an open game (its creator only); the seat's
    old code stops working. Only the code's sha256 is kept, so it is shown this once."""
    try:
        game = _game(session, game_id)
        if game.created_by != user.id:
            raise LobbyError("forbidden", N_("Only the game's creator can make invitation "
                                             "codes."))
        if game.status != "open":
            raise LobbyError("conflict", N_("The game has already started; its seats are taken."))
        row = next((r for r in seat_rows(session, game_id)
                    if r.seat == seat and r.seat not in (game.bots or {})), None)
        if row is None:
            raise LobbyError("invalid", N_("There is no seat '%(seat)s' to invite to."),
                             seat=seat)
        if row.user_id is not None:
            raise LobbyError("conflict", N_("The seat %(seat)s is already taken."), seat=seat)
        code = secrets.token_urlsafe(16)
        done = session.execute(update(Seat).where(Seat.id == row.id, Seat.user_id.is_(None))
                               .values(invite_token_hash=sha256_hex(code)))
        if done.rowcount != 1:
            raise LobbyError("conflict", N_("The seat %(seat)s is already taken."), seat=seat)
        session.commit()
        return code
    except BaseException:
        session.rollback()
        raise


def _random_side(seats: dict, bots: dict, creator: User) -> dict:
    """``seats`` with the creator's seat drawn among those not given to bots: the creator's
    address goes to the drawn seat and that seat's entry to the creator's old one."""
    mine = next((s for s, e in seats.items() if e and normalize_email(e) == creator.email), None)
    free = [s for s in seats if s not in bots]
    if mine is None or len(free) < 2:
        return seats
    drawn = secrets.choice(free)
    swapped = dict(seats)
    swapped[mine], swapped[drawn] = seats[drawn], seats[mine]
    return swapped


def start_if_ready(session: Session, game_id: int) -> bool:
    """Start the open game once every seat has a player (bots included), unless its creator
    starts it by hand (issue 47); True if this call started it. A game another call started
    meanwhile is left as it is."""
    game = session.get(Game, game_id)
    if game is None or game.status != "open" or game.start_by_hand:
        return False
    if any(r.user_id is None and r.seat not in (game.bots or {})
           for r in seat_rows(session, game_id)):
        return False
    try:
        orders.start(session, game)
    except orders.StaleStep:     # another join started it first
        return False
    return True


def start_game(session: Session, game_id: int, user: User) -> Game:
    """Start an open game whose seats are all taken: the opening chance is drawn, the first
    decisions are asked. Only its creator may start it; a game that started by itself when
    its last seat was taken (issue 47) is answered as it is."""
    game = _game(session, game_id)
    if not may_see(session, game, user):
        raise LobbyError("not_found", N_("There is no such game."))
    if game.created_by != user.id:
        raise LobbyError("forbidden", N_("Only the game's creator can start it."))
    if game.status != "open" and not game.start_by_hand:
        return game      # it started by itself: starting it again changes nothing
    if game.status != "open":
        raise LobbyError("conflict", N_("The game has already started."))
    empty = [r.seat for r in seat_rows(session, game_id)
             if r.user_id is None and r.seat not in (game.bots or {})]
    if empty:
        raise LobbyError("conflict", N_("Every seat needs a player before the game starts; "
                                          "still open: %(seats)s."), seats=", ".join(empty))
    return orders.start(session, game)


# The rows that belong to a game, children first (a report belongs to its line); the one row
# that only points at a game (a finished game's rematch offer, ``new_game_id``) forgets it.
# tests/server/api/test_creator_leaves.py checks that every table pointing at a game is here.
_GAME_ROWS = ("StandingOrder", "AutoOrder", "Spectator", "LogEntry", "GameNote", "Order",
              "SeatNote", "GamePause", "Extension", "Retractable", "RatedGame", "ChatReport",
              "ChatRead", "ChatMessage", "GameChat", "RematchOffer", "SeatAbsence", "Seat")


def withdraw(session: Session, game_id: int) -> None:
    """Remove an open game nobody can start any more, with every row of it (in the session's
    transaction, not committed): its creator left before anybody else joined
    (services/account_deletion.py). Its invitations lead nowhere: their mails, not sent yet,
    find no game and are not sent (server/mail/recipients.py)."""
    game = _game(session, game_id)
    if game.status != "open":
        raise LobbyError("conflict", N_("The game has already started."))
    lines = select(models.ChatMessage.id).where(models.ChatMessage.game_id == game_id)
    session.execute(update(models.RematchOffer).where(models.RematchOffer.new_game_id == game_id)
                    .values(new_game_id=None))
    for name in _GAME_ROWS:
        model = getattr(models, name)
        if model is models.ChatReport:
            session.execute(delete(model).where(model.message_id.in_(lines)))
        else:
            session.execute(delete(model).where(model.game_id == game_id))
    session.execute(delete(Game).where(Game.id == game_id))
    session.expunge(game)


def resign(session: Session, game_id: int, seat: str, *, step: int | None = None,
           forfeit: bool = False, losers: list[str] | None = None,
           before_commit=None) -> Game:
    """End the game: the seat concedes. With two seats the other one wins. ``forfeit``: it
    missed a deadline in a game created that way (at ``step``, if given: only if the game is
    still there). ``before_commit(session, game)`` runs in the transaction."""
    try:
        game = _game(session, game_id)
        if game.status != "active" or (step is not None and game.step != step):
            raise LobbyError("conflict", N_("Only a game in play can be resigned."))
        names = [r.seat for r in seat_rows(session, game_id)]
        others = [n for n in names if n not in (losers or [seat])]
        winner = others[0] if len(others) == 1 else None
        state = engine.from_dict(game.state)
        if not forfeit:
            reason = state.msg("{seat} resigned.", seat=seat)
        elif len(losers or [seat]) == 1:
            reason = state.msg("{seat} missed the deadline and forfeits.", seat=(losers or [seat])[0])
        else:
            reason = state.msg("{seats} missed the deadline and forfeit.", seats=losers)
        ended = engine.Termination.FORFEITED if forfeit else engine.Termination.RESIGNED
        result = {"winner": winner, "reason": str(reason), "reason_message": reason.data(),
                  "scores": {}, "termination": ended.value, ended.value: seat}
        # Told the pages once committed (a conflict below rolls back and forgets it).
        live.changed(session, game.id, game.step + 1, "finished")
        done = session.execute(update(Game).where(Game.id == game.id, Game.step == game.step,
                                                  Game.status == "active")
                               .values(step=game.step + 1, status="finished", result=result,
                                       finished_at=utcnow(), updated_at=utcnow(),
                                       deadline_at=None, alarm_at=None))
        if done.rowcount != 1:
            raise LobbyError("conflict", N_("The game changed meanwhile; try again."))
        for order in session.exec(select(Order).where(Order.game_id == game_id,
                                                      Order.status == "pending")).all():
            order.status = "superseded"
            session.add(order)
        session.add(OutboxMessage(kind="game_over", payload={"game_id": game_id}))
        ratings.write_request(session, game_id)  # resigned and forfeited games are rated too
        if before_commit is not None:
            before_commit(session, game)
        session.commit()
        session.refresh(game)
        return game
    except BaseException:
        session.rollback()
        raise


def spectate(session: Session, game_id: int, user: User) -> None:
    """Follow a public game (or a private one the user may already see)."""
    try:
        game = _game(session, game_id)
        if not may_see(session, game, user):
            raise LobbyError("not_found", N_("There is no such game."))
        exists = session.exec(select(Spectator).where(Spectator.game_id == game_id,
                                                      Spectator.user_id == user.id)).first()
        if exists is None and seat_of(session, game_id, user.id) is None:
            session.add(Spectator(game_id=game_id, user_id=user.id))
        session.commit()
    except BaseException:
        session.rollback()
        raise


# --- listing ------------------------------------------------------------------------------
def games_of(session: Session, user: User, status: str | None = None) -> list[Game]:
    """The games the user plays, created, is invited to or follows, newest first."""
    invited_here = (Seat.invite_email == user.email) & Seat.user_id.is_(None) \
        if proven(user) else false()
    seated = select(Seat.game_id).where((Seat.user_id == user.id) | invited_here)
    followed = select(Spectator.game_id).where(Spectator.user_id == user.id)
    query = select(Game).where(Game.id.in_(seated) | (Game.id.in_(followed) & visible_to(user))
                               | (Game.created_by == user.id))
    if status is not None:
        query = query.where(Game.status == status)
    return list(session.exec(query.order_by(Game.id.desc())).all())


def visible_to(reader):
    """The SQL condition of the games ``reader`` (None: anybody) may see: ``may_see``'s rule
    (public; else created, played or invited to a free seat with a proven address)."""
    if reader is None:
        return Game.public.is_(True)
    invited_here = (Seat.invite_email == reader.email) & Seat.user_id.is_(None) \
        if proven(reader) else false()
    theirs = select(Seat.game_id).where((Seat.user_id == reader.id) | invited_here)
    return Game.public.is_(True) | (Game.created_by == reader.id) | Game.id.in_(theirs)


def finished_games_of(session: Session, user_id: int, reader,
                      limit: int = 10) -> list[tuple[Game, str]]:
    """A player's finished games that ``reader`` (None: anybody) may see, newest first, with
    the player's seat: what their public page lists (a private game only to its own)."""
    return list(session.exec(select(Game, Seat.seat).join(Seat, Seat.game_id == Game.id)
                             .where(Seat.user_id == user_id, Game.status == "finished",
                                    visible_to(reader))
                             .order_by(Game.finished_at.desc(), Game.id.desc())
                             .limit(limit)).all())


def public_games(session: Session, status: str | None = None) -> list[Game]:
    """The public games anybody may follow, newest first."""
    query = select(Game).where(Game.public.is_(True))
    if status is not None:
        query = query.where(Game.status == status)
    return list(session.exec(query.order_by(Game.id.desc())).all())

"""Rematches (issue 27 item 6): after a game is over, one of its players offers to play again
with the same options, the roles swapped (the default) or kept; once every other player has
accepted, the new game is made and started at once, and everyone is told.

One offer per game (RematchOffer): a second offer while one is open joins it (it counts as the
second player's yes); an offer may be withdrawn by any of the players (a "no"), and offered
again later. Swapped roles rotate the players over the seats (with two seats, a swap); bots
keep their seats, unless only one person played, who then changes seats with the bot (a
rematch against a bot with the sides swapped). The new game takes the old one's options,
time limits, visibility and bots' pace; its seed is new.

The offer, each acceptance and the withdrawal write a ``rematch`` outbox row in their own
transaction: the mails say what happened, with a signed link to accept (or to the new game).
The refusals are LobbyError, in words (templates extracted into the messages catalogue).
"""

from __future__ import annotations

import hashlib
import secrets

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import update
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import Game, RematchOffer, Seat, UsedLink, User, utcnow
from server.secret_keys import Secret
from server.services import games as orders
from server.services import links
from server.services import outbox
from server.services.account_deletion import is_deleted
from server.services.lobby import LobbyError, may_see, seat_rows
from server.services.users import sha256_hex

SALT = "whistlestop.rematch-link"
ACTIONS = ("offer", "accept")


def _finished(session: Session, game_id: int, user_id: int) -> tuple[Game, list[Seat]]:
    game = session.get(Game, game_id)
    if game is None:
        raise LobbyError("not_found", N_("There is no such game."))
    rows = seat_rows(session, game_id)
    if all(r.user_id != user_id for r in rows):
        if not may_see(session, game, session.get(User, user_id)):
            raise LobbyError("not_found", N_("There is no such game."))
        raise LobbyError("forbidden", N_("Only the game's players can offer or answer a "
                                         "rematch."))
    if game.status != "finished":
        raise LobbyError("conflict", N_("A rematch can be offered once the game is over."))
    return game, rows


def _locked(session: Session, game_id: int, user_id: int) \
        -> tuple[Game, list[Seat], RematchOffer | None]:
    """The finished game, its seats and its offer (None if none was made), the offer's row
    locked until the transaction ends: two answers to one offer are taken one after the
    other (PostgreSQL; SQLite's write lock is taken at BEGIN)."""
    game, rows = _finished(session, game_id, user_id)
    row = session.exec(select(RematchOffer).where(RematchOffer.game_id == game_id)
                       .with_for_update()).first()
    return game, rows, row


def _refuse_made(row: RematchOffer | None) -> None:
    if row is not None and row.status == "made":
        raise LobbyError("conflict", N_("The rematch has been made already: game %(id)s."),
                         id=row.new_game_id)


def current(session: Session, game_id: int) -> RematchOffer | None:
    """The game's offer, whatever its status, or None."""
    return session.exec(select(RematchOffer).where(RematchOffer.game_id == game_id)).first()


def players(rows: list[Seat], game: Game) -> list[int]:
    """The user ids who must say yes: every person seated (bots need not)."""
    return [r.user_id for r in rows if r.user_id is not None and r.seat not in (game.bots or {})]


def offer(session: Session, game_id: int, user_id: int, swap: bool = True) -> RematchOffer:
    """Offer a rematch (or join the open offer: a yes to it); the game is made when every
    player has said yes."""
    try:
        game, rows, row = _locked(session, game_id, user_id)
        _refuse_made(row)
        if row is not None and row.status == "open":
            return _accept(session, game, rows, row, user_id)
        if row is None:
            row = RematchOffer(game_id=game_id, offered_by=user_id)
        row.offered_by, row.swap, row.accepted = user_id, bool(swap), [user_id]
        row.status, row.updated_at = "open", utcnow()
        session.add(row)
        session.flush()
        return _told_or_made(session, game, rows, row, "offered", user_id)
    except BaseException:
        session.rollback()
        raise


def accept(session: Session, game_id: int, user_id: int) -> RematchOffer:
    """Say yes to the open offer (a repeated yes changes nothing)."""
    try:
        game, rows, row = _locked(session, game_id, user_id)
        _refuse_made(row)
        if row is None or row.status != "open":
            raise LobbyError("conflict", N_("No rematch is offered for this game; offer one "
                                            "instead."))
        return _accept(session, game, rows, row, user_id)
    except BaseException:
        session.rollback()
        raise


def withdraw(session: Session, game_id: int, user_id: int) -> RematchOffer:
    """Withdraw (or decline) the open offer: no rematch, until someone offers again."""
    try:
        game, rows, row = _locked(session, game_id, user_id)
        if row is None or row.status != "open":
            raise LobbyError("conflict", N_("No rematch is offered for this game."))
        row.status, row.accepted, row.updated_at = "withdrawn", [], utcnow()
        session.add(row)
        outbox.write(session, "rematch", {"game_id": game.id, "event": "withdrawn",
                                          "by": user_id})
        session.commit()
        session.refresh(row)
        return row
    except BaseException:
        session.rollback()
        raise


def _accept(session, game, rows, row, user_id) -> RematchOffer:
    if user_id in row.accepted:
        session.rollback()
        return row
    row.accepted = [*row.accepted, user_id]
    row.updated_at = utcnow()
    session.add(row)
    session.flush()
    return _told_or_made(session, game, rows, row, "accepted", user_id)


def _told_or_made(session, game, rows, row, event, user_id) -> RematchOffer:
    if set(players(rows, game)) <= set(row.accepted):
        _make(session, game, rows, row)     # commits (with the new game's start)
    else:
        outbox.write(session, "rematch", {"game_id": game.id, "event": event, "by": user_id})
        session.commit()
    session.refresh(row)
    return row


def new_seats(game: Game, rows: list[Seat], swap: bool) -> tuple[dict, dict]:
    """The new game's seats: ({seat: user id}, {seat: bot level}), roles swapped or kept."""
    bots = dict(game.bots or {})
    holders = {r.seat: ("bot", bots[r.seat]) if r.seat in bots else ("user", r.user_id)
               for r in rows}
    names = [r.seat for r in rows]
    if swap:
        people = [n for n in names if n not in bots]
        movers = people if len(people) >= 2 else names
        moved = {movers[(i + 1) % len(movers)]: holders[seat] for i, seat in enumerate(movers)}
        holders = {**holders, **moved}
    return ({s: h[1] for s, h in holders.items() if h[0] == "user"},
            {s: h[1] for s, h in holders.items() if h[0] == "bot"})


def _make(session, game, rows, row) -> None:
    users, bots = new_seats(game, rows, row.swap)
    seed = secrets.token_hex(16)
    new = Game(game_type=game.game_type, options=dict(game.options), status="open", step=0,
               seed=seed, seed_hash=sha256_hex(seed), public=game.public,
               created_by=row.offered_by, bots=bots,
               bot_delay_seconds=game.bot_delay_seconds, decision_hours=game.decision_hours,
               reminder_hours=list(game.reminder_hours or []), on_deadline=game.on_deadline,
               absent_after_missed=game.absent_after_missed)
    session.add(new)
    session.flush()
    for r in rows:
        session.add(Seat(game_id=new.id, seat=r.seat, user_id=users.get(r.seat),
                         joined_at=utcnow()))
    made = session.execute(update(RematchOffer).where(RematchOffer.id == row.id,
                                                      RematchOffer.status == "open")
                           .values(status="made", new_game_id=new.id, updated_at=utcnow(),
                                   accepted=list(row.accepted))
                           .execution_options(synchronize_session=False))
    if made.rowcount != 1:
        raise LobbyError("conflict", N_("The game changed meanwhile; try again."))
    outbox.write(session, "rematch", {"game_id": game.id, "event": "made",
                                      "new_game_id": new.id})
    orders.start(session, new)              # draws the opening, asks the first seats, commits


def rematch_of(session: Session, game_id: int) -> int | None:
    """The game this one is the rematch of, or None."""
    return session.exec(select(RematchOffer.game_id).where(
        RematchOffer.new_game_id == game_id)).first()


# --- signed links in the game-over and rematch mails ---------------------------------------
def make_token(secret: Secret, game_id: int, user_id: int, action: str) -> str:
    """A link's token: good for this game, this player and this action (``ACTIONS``) only."""
    return URLSafeTimedSerializer(secret, salt=SALT).dumps({"g": game_id, "u": user_id,
                                                           "a": action})


def link_url(secret: Secret, base_url: str, game_id: int, user_id: int, action: str) -> str:
    return (f"{base_url.rstrip('/')}/games/{game_id}/rematch?t="
            f"{make_token(secret, game_id, user_id, action)}")


def read_token(session: Session, secret: Secret, token: str, game_id: int,
               max_age: float) -> tuple[int, str, str]:
    """(user id, action, digest) of a link's token for this game; LobbyError in words if it is
    damaged, expired, for another game, or used."""
    try:
        data, signed_at = URLSafeTimedSerializer(secret, salt=SALT).loads(
            token, max_age=max_age, return_timestamp=True)
        user_id, action, for_game = int(data["u"]), str(data["a"]), int(data["g"])
    except SignatureExpired:
        raise LobbyError("forbidden", N_("This link has expired; offer or accept the rematch "
                                         "on the game's result page.")) from None
    except (BadSignature, KeyError, TypeError, ValueError):
        raise LobbyError("forbidden", N_("This link is damaged or was not made by this "
                                         "server: copy the whole link from the mail.")) from None
    if for_game != game_id or action not in ACTIONS:
        raise LobbyError("forbidden", N_("This link is not for this game."))
    # Kept as the digest of what the signature covers (links.canonical_digest): every
    # encoding of one token the signature accepts (padding appended) is the same link. The
    # text's digest too: links used before were kept by it.
    digest = links.canonical_digest(SALT, data, signed_at)
    text = hashlib.sha256(("rematch:" + token).encode()).hexdigest()
    if session.exec(select(UsedLink.id).where(UsedLink.digest.in_([digest, text]))).first():
        raise LobbyError("conflict", N_("This link has been used already."))
    user = session.get(User, user_id)
    if user is None or is_deleted(user):    # a mail of the account, sent before its deletion
        raise LobbyError("forbidden", N_("This link no longer works: its player deleted their "
                                         "account."))
    return user_id, action, digest


def use_token(session: Session, game_id: int, digest: str) -> None:
    """Record that a link acted (before its action's commit: a link acts once)."""
    session.add(UsedLink(digest=digest, game_id=game_id))
    session.flush()

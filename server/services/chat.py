"""Table talk: a chat per game, in two channels that are never mixed (issue 27, item 1).

- "players": the game's seated players post and read it. Spectators do not read it while the
  game runs (table talk may be a negotiation; webDiplomacy's press, Diplicity's channels and
  BGA's in-game chat are the players' own).
- "spectators": only when the game's creator opened it (``GameChat.spectators``, chosen when
  the game is opened, off by default); signed-in readers of the game who hold no seat post and
  read it. Players do not read it while the game runs (as lichess hides the spectators' room
  from the players): a spectator's remark could tell a player what to do.
- After the end both are kept with the game and shown, separately labelled, to anyone who may
  see the replay; nobody posts any more.

A line is 1 to ``MAX_BODY`` characters, kept as written and escaped wherever it is shown. A
user mutes another (``ChatMute``): the muted user's lines are left out of everything the muter
reads (page, API, mail, unread counts). A line may be reported to the operator (``ChatReport``,
an outbox mail to ``OPERATOR_EMAIL`` when it is set, ``whistlestop chat-reports``).

Mail is batched: when a line arrives for a reader who has no table-talk mail waiting
(``ChatRead.mail_outbox_id``), ONE outbox row "table_talk" is written, sent
``CHAT_MAIL_DELAY_SECONDS`` later with every line still unread then; nothing more is mailed to
that reader until they have read (the page, the API's mark-read, or a line of their own: a
reply by mail included), which clears the waiting row.

Game-neutral: nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, update
from sqlmodel import Session, select

from server.catalogue import N_
from server.models import (ChatMessage, ChatMute, ChatRead, ChatReport, Game, GameChat, Seat,
                           Spectator, User, aware, utcnow)
from server.services import account_deletion, export, lobby, outbox, visible_text

PLAYERS, SPECTATORS = "players", "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
MAX_BODY = 4000
PAGE = 50  # lines a listing gives at most
MAX_REASON = 500
MAIL_KIND = "table_talk"
REPORT_KIND = "chat_report"
DEFAULT_MAIL_DELAY = 300.0  # seconds: a burst of lines makes one mail


class ChatRefused(Exception):
    """A refused chat request: ``kind`` "invalid" (422), "forbidden" (403), "conflict" (409) or
    "not_found" (404); ``reason`` its English text, ``template`` % ``values`` (translated where
    shown)."""

    def __init__(self, kind: str, template: str, **values):
        self.kind, self.template, self.values = kind, template, values
        self.reason = template % values if values else template
        super().__init__(self.reason)


@dataclass(frozen=True)
class Line:
    """A line as a reader is shown it."""
    id: int
    channel: str
    user_id: int
    seat: str | None
    body: str
    created_at: datetime
    reported: bool


def _line(row: ChatMessage) -> Line:
    return Line(row.id, row.channel, row.user_id, row.seat, row.body, row.created_at,
                row.reported)


# --- who may read and post --------------------------------------------------------------------
def spectators_open(session: Session, game_id: int) -> bool:
    """Whether the game's creator opened a spectators' channel."""
    row = session.get(GameChat, game_id)
    return bool(row and row.spectators)


def open_spectators(session: Session, game_id: int, allowed: bool) -> None:
    """Record, in the session's transaction, whether the game has a spectators' channel (set
    when the game is opened)."""
    row = session.get(GameChat, game_id)
    if row is None:
        session.add(GameChat(game_id=game_id, spectators=bool(allowed)))
    else:
        row.spectators = bool(allowed)
        session.add(row)


def deleted(user: User | None) -> bool:
    """Whether the account is gone (account_deletion): it neither posts nor is mailed."""
    return user is None or account_deletion.is_deleted(user)


def _export(session: Session, user: User) -> list[dict]:
    """The account's own lines, for "your data" (services/export.py)."""
    rows = session.exec(select(ChatMessage).where(ChatMessage.user_id == user.id)
                        .order_by(ChatMessage.id)).all()
    return [{"game_id": row.game_id, "channel": row.channel, "seat": row.seat,
             "text": row.body, "at": aware(row.created_at).isoformat()} for row in rows]


def _erase(session: Session, user: User) -> None:
    """At the account's deletion (services/account_deletion.py): its read markers and mutes
    (its own and others' of it) go; its lines stay in their games' table talk, as their orders
    and logs do, shown as "a deleted player"'s (README, "Your data")."""
    for model, column in ((ChatRead, ChatRead.user_id), (ChatMute, ChatMute.user_id),
                          (ChatMute, ChatMute.muted_id)):
        session.execute(delete(model).where(column == user.id))


export.register("chat", _export)
account_deletion.register_eraser(_erase)


def channels_for(session: Session, game: Game, user: User | None) -> list[str]:
    """The channels ``user`` may read in ``game``, players' first: while the game runs, a
    seated player reads "players" (when another person holds a seat: against bots alone there
    is nobody to talk to, issue 47), another signed-in reader of the game "spectators" (when
    open); once it is over, anyone who may see the game reads both."""
    if game.status == "finished":
        if not lobby.may_see(session, game, user):
            return []
        return [PLAYERS] + ([SPECTATORS] if spectators_open(session, game.id) else [])
    if user is None:
        return []
    if lobby.seat_of(session, game.id, user.id) is not None:
        return [PLAYERS] if _another_person_seated(session, game, user.id) else []
    if spectators_open(session, game.id) and lobby.may_see(session, game, user):
        return [SPECTATORS]
    return []


def _another_person_seated(session: Session, game: Game, user_id: int) -> bool:
    """Whether a seat of the game other than the user's is a person's (not a bot's)."""
    return any(user is not None and user != user_id and seat not in (game.bots or {})
               for seat, user in session.exec(select(Seat.seat, Seat.user_id)
                                              .where(Seat.game_id == game.id)))


def may_read(session: Session, game: Game, user: User | None, channel: str) -> bool:
    return channel in channels_for(session, game, user)


def check_post(session: Session, game: Game, user: User | None, channel: str) -> str | None:
    """The author's seat (None for a spectator) if ``user`` may post in ``channel``; raise
    ChatRefused saying why not."""
    if channel not in CHANNELS:
        raise ChatRefused("invalid", N_("There is no chat channel “%(channel)s”; the channels "
                                        "are players and spectators."), channel=channel[:40])
    if deleted(user):
        raise ChatRefused("forbidden", N_("This account is deleted: it cannot post."))
    if game.status == "finished":
        raise ChatRefused("conflict", N_("The game is over: its table talk is closed and kept "
                                         "with the replay."))
    seat = lobby.seat_of(session, game.id, user.id)
    if channel == PLAYERS:
        if seat is None:
            raise ChatRefused("forbidden", N_("Only the game's players post in the players' "
                                              "table talk."))
        return seat
    if not spectators_open(session, game.id):
        raise ChatRefused("forbidden", N_("This game has no spectators' chat: its creator did "
                                          "not open one."))
    if seat is not None:
        raise ChatRefused("forbidden", N_("Players do not post in the spectators' chat; use "
                                          "the players' table talk."))
    return None


def check_body(body: str | None) -> str:
    """The line as it will be kept (its outer blank lines removed); ChatRefused when empty or
    too long."""
    text = (body or "").strip("\r\n\t ")
    if not text:
        raise ChatRefused("invalid", N_("The message is empty: write something to send."))
    if len(text) > MAX_BODY:
        raise ChatRefused("invalid", N_("The message is %(length)s characters long; the most "
                                        "is %(most)s."), length=len(text), most=MAX_BODY)
    code = visible_text.hidden(text)
    if code:
        raise ChatRefused("invalid", N_("The message has a character that cannot be shown, "
                                        "%(code)s: control characters and invisible ones "
                                        "(such as direction marks, which reverse the text around "
                                        "them) are refused. Write it again as text."), code=code)
    return text


# --- posting and reading ------------------------------------------------------------------------
def post(session: Session, game: Game, user: User, channel: str, body: str | None,
         mail_delay: float = DEFAULT_MAIL_DELAY) -> ChatMessage:
    """Post a line (not committed): the author has read the channel up to it, and each other
    reader with no table-talk mail waiting gets one outbox row, sent ``mail_delay`` seconds
    later. ChatRefused, and nothing written, when the post is not allowed."""
    seat = check_post(session, game, user, channel)
    text = check_body(body)
    row = ChatMessage(game_id=game.id, channel=channel, user_id=user.id, seat=seat, body=text)
    session.add(row)
    session.flush()
    _read_to(session, game.id, channel, user.id, row.id)
    not_before = (utcnow() + timedelta(seconds=max(0.0, mail_delay))).isoformat()
    muting = set(session.exec(select(ChatMute.user_id).where(ChatMute.muted_id == user.id)))
    for reader in readers(session, game, channel):
        if reader == user.id or reader in muting:
            continue
        marker = _marker(session, game.id, channel, reader)
        if marker.mail_outbox_id is not None:
            continue  # a mail is waiting, or was sent and not read since: nothing more
        marker.mail_outbox_id = outbox.write(session, MAIL_KIND, {
            "game_id": game.id, "channel": channel, "user_id": reader,
            "not_before": not_before})
        session.add(marker)
    return row


def readers(session: Session, game: Game, channel: str) -> list[int]:
    """The users a line in ``channel`` is for, while the game runs: the seated players, or the
    followers of the game who hold no seat."""
    seated = [s for s in session.exec(select(Seat.user_id).where(
        Seat.game_id == game.id, Seat.user_id.is_not(None)).order_by(Seat.id))]
    if channel == PLAYERS:
        return seated
    return [u for u in session.exec(select(Spectator.user_id).where(
        Spectator.game_id == game.id).order_by(Spectator.id)) if u not in seated]


def muted_by(session: Session, user_id: int | None) -> set[int]:
    """The users ``user_id`` mutes."""
    if user_id is None:
        return set()
    return set(session.exec(select(ChatMute.muted_id).where(ChatMute.user_id == user_id)))


def lines(session: Session, game: Game, user: User | None, channel: str,
          before: int | None = None, after: int | None = None, limit: int = PAGE
          ) -> list[Line]:
    """The channel's lines ``user`` may read, newest last: the newest ``limit`` before line
    ``before`` (or after line ``after``), without those of users they mute. ChatRefused
    "not_found" when they may not read the channel."""
    if not may_read(session, game, user, channel):
        raise ChatRefused("not_found", N_("There is no such chat for you in this game."))
    query = select(ChatMessage).where(ChatMessage.game_id == game.id,
                                      ChatMessage.channel == channel)
    hidden = muted_by(session, user.id if user else None)
    if hidden:
        query = query.where(ChatMessage.user_id.not_in(hidden))
    if before is not None:
        query = query.where(ChatMessage.id < before)
    if after is not None:
        query = query.where(ChatMessage.id > after).order_by(ChatMessage.id)
        return [_line(r) for r in session.exec(query.limit(limit))]
    rows = session.exec(query.order_by(ChatMessage.id.desc()).limit(limit)).all()
    return [_line(r) for r in reversed(rows)]


def _marker(session: Session, game_id: int, channel: str, user_id: int) -> ChatRead:
    found = session.exec(select(ChatRead).where(
        ChatRead.game_id == game_id, ChatRead.channel == channel,
        ChatRead.user_id == user_id)).first()
    if found is None:
        found = ChatRead(game_id=game_id, channel=channel, user_id=user_id, read_through=0)
        session.add(found)
        session.flush()
    return found


def _read_to(session: Session, game_id: int, channel: str, user_id: int, through: int) -> None:
    marker = _marker(session, game_id, channel, user_id)
    marker.read_through = max(marker.read_through or 0, through)
    marker.mail_outbox_id = None  # read: the next line may be mailed again
    session.add(marker)


def mark_read(session: Session, game: Game, user: User, channel: str,
              through: int | None = None) -> int:
    """Mark the channel read by ``user`` up to line ``through`` (default: the newest); return
    the line read through. Not committed."""
    if not may_read(session, game, user, channel):
        raise ChatRefused("not_found", N_("There is no such chat for you in this game."))
    newest = session.exec(select(func.max(ChatMessage.id)).where(
        ChatMessage.game_id == game.id, ChatMessage.channel == channel)).one() or 0
    through = newest if through is None else max(0, min(through, newest))
    _read_to(session, game.id, channel, user.id, through)
    return through


def unread(session: Session, user: User, game_ids: list[int] | None = None) -> dict[int, int]:
    """{game id: lines unread by ``user``} for their games that have any (the channel they post
    in, while the game runs; their own lines and muted users' lines are not counted). One
    grouped statement for all the games, however many (the lobby and GET /api/v1/games)."""
    if deleted(user):
        return {}
    seated = {g for g in session.exec(select(Seat.game_id).where(Seat.user_id == user.id))}
    followed = {g for g in session.exec(select(Spectator.game_id).where(
        Spectator.user_id == user.id))} - seated
    wanted = {**dict.fromkeys(seated, PLAYERS), **dict.fromkeys(followed, SPECTATORS)}
    if game_ids is not None:
        wanted = {g: c for g, c in wanted.items() if g in set(game_ids)}
    if not wanted:
        return {}
    hidden = muted_by(session, user.id) | {user.id}
    mark = and_(ChatRead.game_id == ChatMessage.game_id, ChatRead.channel == ChatMessage.channel,
                ChatRead.user_id == user.id)
    rows = session.exec(
        select(ChatMessage.game_id, ChatMessage.channel, func.count(ChatMessage.id))
        .outerjoin(ChatRead, mark)
        .where(ChatMessage.game_id.in_(list(wanted)), ChatMessage.user_id.not_in(hidden),
               ChatMessage.id > func.coalesce(ChatRead.read_through, 0))
        .group_by(ChatMessage.game_id, ChatMessage.channel)).all()
    return {game_id: n for game_id, channel, n in rows if n and wanted[game_id] == channel}


def unread_lines(session: Session, game_id: int, channel: str, user_id: int) -> list[Line]:
    """The lines of the channel ``user_id`` has not read, oldest first, without their own and
    those of users they mute (what a table-talk mail carries)."""
    marker = session.exec(select(ChatRead).where(
        ChatRead.game_id == game_id, ChatRead.channel == channel,
        ChatRead.user_id == user_id)).first()
    hidden = muted_by(session, user_id) | {user_id}
    rows = session.exec(select(ChatMessage).where(
        ChatMessage.game_id == game_id, ChatMessage.channel == channel,
        ChatMessage.id > (marker.read_through if marker else 0),
        ChatMessage.user_id.not_in(hidden)).order_by(ChatMessage.id).limit(PAGE)).all()
    return [_line(r) for r in rows]


def waiting_mail(session: Session, game_id: int, channel: str, user_id: int) -> int | None:
    """The outbox row that is to mail ``user_id`` this channel's unread lines, if any."""
    return session.exec(select(ChatRead.mail_outbox_id).where(
        ChatRead.game_id == game_id, ChatRead.channel == channel,
        ChatRead.user_id == user_id)).first()


# --- mutes and reports -------------------------------------------------------------------------
def mute(session: Session, user: User, muted_id: int, muted: bool = True) -> bool:
    """Mute (or, ``muted`` False, unmute) the user ``muted_id`` for ``user``; return whether
    they are muted now. Not committed."""
    if muted_id == user.id:
        raise ChatRefused("invalid", N_("You cannot mute yourself."))
    if session.get(User, muted_id) is None:
        raise ChatRefused("not_found", N_("There is no such user."))
    row = session.exec(select(ChatMute).where(ChatMute.user_id == user.id,
                                              ChatMute.muted_id == muted_id)).first()
    if muted and row is None:
        session.add(ChatMute(user_id=user.id, muted_id=muted_id))
    elif not muted and row is not None:
        session.delete(row)
    return muted


def message_for(session: Session, user: User | None, message_id: int) -> tuple[ChatMessage,
                                                                                Game]:
    """The line and its game, if ``user`` may read it; ChatRefused "not_found" otherwise."""
    row = session.get(ChatMessage, message_id)
    game = session.get(Game, row.game_id) if row is not None else None
    if game is None or not may_read(session, game, user, row.channel):
        raise ChatRefused("not_found", N_("There is no such message for you."))
    return row, game


def report(session: Session, user: User, message_id: int, reason: str = "",
           operator_email: str | None = None) -> ChatReport:
    """Report a line the user may read to the operator: a ChatReport row, the line flagged,
    and an outbox mail to ``operator_email`` when there is one. Reporting a line again, or
    one's own, is refused. Not committed."""
    row, game = message_for(session, user, message_id)
    if row.user_id == user.id:
        raise ChatRefused("invalid", N_("You cannot report your own message."))
    reason = (reason or "").strip()
    code = visible_text.hidden(reason)
    if code:
        raise ChatRefused("invalid", N_("The reason has a character that cannot be shown, "
                                        "%(code)s: control characters and invisible ones "
                                        "(such as direction marks, which reverse the text around "
                                        "them) are refused. Write it again as text."), code=code)
    if len(reason) > MAX_REASON:
        raise ChatRefused("invalid", N_("The reason is %(length)s characters long; the most is "
                                        "%(most)s."), length=len(reason), most=MAX_REASON)
    if session.exec(select(ChatReport.id).where(ChatReport.message_id == row.id,
                                                ChatReport.user_id == user.id)).first():
        raise ChatRefused("conflict", N_("You have reported this message already."))
    found = ChatReport(message_id=row.id, user_id=user.id, reason=reason)
    session.add(found)
    session.execute(update(ChatMessage).where(ChatMessage.id == row.id).values(
        reported=True, reported_at=utcnow(), reported_by=user.id))
    session.flush()
    if operator_email:
        outbox.write(session, REPORT_KIND, {"report_id": found.id, "address": operator_email})
    return found


def reports(session: Session, resolved: bool = False) -> list[dict]:
    """The open reports (``resolved``: every report), newest first, with their lines: what the
    operator reviews."""
    query = select(ChatReport, ChatMessage).join(ChatMessage,
                                                 ChatMessage.id == ChatReport.message_id)
    if not resolved:
        query = query.where(ChatReport.resolved_at.is_(None))
    out = []
    for rep, msg in session.exec(query.order_by(ChatReport.id.desc())).all():
        out.append({"report": rep.id, "reported_at": rep.created_at, "by_user": rep.user_id,
                    "reason": rep.reason, "message": msg.id, "game": msg.game_id,
                    "channel": msg.channel, "author_user": msg.user_id, "seat": msg.seat,
                    "body": msg.body, "posted_at": msg.created_at,
                    "resolved_at": aware(rep.resolved_at) if rep.resolved_at else None,
                    "resolution": rep.resolution})
    return out


def resolve_report(session: Session, report_id: int, note: str | None) -> ChatReport:
    """Mark a report resolved now with the operator's ``note`` (what was done, 1 to
    ``MAX_REASON`` characters); ChatRefused when there is no such report, it is resolved
    already, or the note is empty or too long (the operator's words, in English: the
    command line is theirs). Not committed."""
    note = (note or "").strip()
    if not note or visible_text.hidden(note):
        raise ChatRefused("invalid", "Say in a short note what was done (plain text).")
    if len(note) > MAX_REASON:
        raise ChatRefused("invalid", "The note is %(length)s characters long; the most is "
                                        "%(most)s.", length=len(note), most=MAX_REASON)
    row = session.get(ChatReport, report_id)
    if row is None:
        raise ChatRefused("not_found", "There is no report %(id)s.", id=report_id)
    # Compare-and-set: two operators resolving at once leave the first one's note.
    done = session.execute(update(ChatReport).where(
        ChatReport.id == report_id, ChatReport.resolved_at.is_(None)).values(
        resolved_at=utcnow(), resolution=note))
    if done.rowcount != 1:
        session.refresh(row)
        raise ChatRefused("conflict", "Report %(id)s was resolved already, at %(at)s: "
                                         "%(note)s", id=report_id,
                          at=aware(row.resolved_at).isoformat(timespec="seconds"),
                          note=row.resolution)
    session.refresh(row)
    return row

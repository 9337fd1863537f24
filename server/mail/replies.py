"""Orders by reply: an inbound mail kept, read, acted on once through the order service, and
answered.

``receive`` keeps the raw mail (InboundMail) and an outbox row asking for its handling in one
transaction; the reply task calls ``handle``, which reads the mail (server/mail/inbound), finds
the seat from the reply address's token, and submits the lines as the seat's order for the step
the replied-to mail asked about (the In-Reply-To/References chain names our Message-ID; a fresh
mail to the address answers the current step). The mail is marked handled, and the answer
written to the outbox, in the order's own transaction - or, for a refusal, in one transaction
of their own - so a repeated task neither applies an order twice nor answers twice.

A reply whose first line is TAKE BACK (server/mail/retract_reply.py, in any of the server's
languages) takes the seat's last move back through the page's service (services/retract.py),
while its hold lasts and the next player has not seen it; the answer to a move by mail offers
it, and the answer to the take back gives the decision again or says why the move is final.

Issue 46, item 3 - how a reply is read, in any of the server's languages (the reader,
server/mail/inbound, has already left out quotes, attributions, signatures, client footers
and sign-offs): its first line decides.
- TAKE BACK: the last move is taken back; no other line is read (the answer quotes them).
- A pause or extension line (server/mail/schedule_reply.py): done alone; the lines after it -
  a sentence to the other player, even an order - are not read (the pause or extension mail
  tells what was done; orders not read are quoted back in an answer).
- A timezone or standing-order line: filed; the lines after such lines are orders when the
  first of them is shaped as an order (``_writers_words``), else the writer's words, quoted
  back as not read. Setting and standing lines may also stand anywhere among orders.
- An order: read as before (a sealed step takes the first legal line).
- Anything else: refused, nothing changed, with the seat's legal orders now and the commands
  a reply may carry (server/mail/reply_commands.py); the engine names only the verbs a seat
  may order with, never chance's (GameState.order_verbs).

A reply to a table-talk mail's address (``r+c<game>-<p|s>-<user>-<mac>``, another purpose
than a seat's ``r+<game>-<seat>-<mac>``: server/mail/chat_address.py) is posted to the game's
chat by server/mail/chat_replies.py and never read as orders; a reply to a seat's address is
read as orders only and never posted to the chat.

What is never answered (RFC 3834: no loops, no backscatter): auto-replies and bounces, mail
with no reply token or a forged one from an address no user has. A user's mail to an address
that is not one of their seats gets a short answer saying so.

An order is applied only when it comes From the seat's player's proven address and the
receiving server's Authentication-Results and Received-SPF report no DMARC, DKIM or SPF
failure (and, where the operator names that server, its aligned pass): the reply
address proves only that its writer saw a mail sent to the seat. Anything else is not
applied and not answered; the seat's player gets a short notice (once a day at most).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import timedelta

from engine.core import ActionError
from engine.core.messages import data, plain
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from server import db
from server.games import presenter
from server.mail import (absence_reply, chat_replies, reply_address, reply_settings,
                         retract_reply, schedule_reply)
from server.mail.inbound import Kind, Reply, read_reply
from server.mail.recipients import MailSettings
from server.models import Game, InboundMail, MailSent, OutboxMessage, Seat, User, utcnow
from server.i18n import times
from server.services import games, outbox, play, retract, seat_view, standing, users
from server.services.pauses import PauseError

log = logging.getLogger("whistlestop.replies")

MAX_RAW = 1024 * 1024  # bytes kept of one inbound mail; the reader looks at far less
MAX_LINES = 20  # lines of one reply taken as actions (an order is short)
FOREIGN_NOTICE_HOURS = 24  # a seat's player is told of orders from elsewhere once this often
# A line shaped as the notation is (``_writers_words``): "fly-to-the-moon" is a mistyped
# order, "Sorry Bob, let's keep it moving." the writer's words.
_NOTATION_SHAPED = re.compile(r"[A-Za-z0-9_\- ]+")
NOTATION_WORDS = 4


_told_unnamed = False  # the log has said what a reply's check rests on without a named MTA


def _say_what_the_check_rests_on(authserv_id: str) -> None:
    """Log once per process, when no receiving MTA is named, what a reply's sender rests on."""
    global _told_unnamed
    if authserv_id or _told_unnamed:
        return
    _told_unnamed = True
    log.warning("WHISTLESTOP_MAIL_AUTHSERV_ID is not set: a reply's sender is taken on its "
                "reply address's token and its From (a user's known address); only a "
                "failure in the topmost Authentication-Results or Received-SPF refuses it, "
                "and no pass is required. Name the receiving MTA's authserv-id to require "
                "its aligned DMARC, DKIM or SPF pass (docs/operating.md, Mail authentication)")


class AlreadyHandled(Exception):
    """Another run of the task handled this mail first."""


def receive(session: Session, raw: bytes, source: str) -> int:
    """Keep a mail and ask for its handling (outbox), in one transaction; return its id."""
    row = InboundMail(raw=raw[:MAX_RAW], source=source)
    session.add(row)
    session.flush()
    inbound_id = row.id
    session.add(OutboxMessage(kind="reply", payload={"inbound_id": inbound_id}))
    session.commit()
    return inbound_id


def handle(engine: Engine, inbound_id: int, message_id: int | None,
           settings: MailSettings) -> str | None:
    """Act on the mail once; return what it was: "order" (answered), "ignored", "unknown",
    "foreign" (not from the seat's player), "duplicate" (handled before) or None (no such
    mail)."""
    with Session(engine) as session:
        db.reading(session)
        row = session.get(InboundMail, inbound_id)
        if row is None:
            _finish(engine, inbound_id, message_id, None, [])
            return None
        if row.handled_at is not None:
            _finish(engine, inbound_id, message_id, None, [])
            return "duplicate"
        reply = read_reply(row.raw, settings.domain, settings.authserv_id)
    _say_what_the_check_rests_on(settings.authserv_id)
    if reply.kind == Kind.ORDER and reply.sender and \
            not _within_limit(reply.sender, reply.auth_failed):
        log.info("inbound #%s ignored: too many mails from its sender", inbound_id)
        _finish(engine, inbound_id, message_id, {"kind": "limited",
                                                  "reason": "too many mails from the sender"},
                [])
        return "ignored"
    if reply.kind != Kind.ORDER:
        log.info("inbound #%s ignored: %s (%s)", inbound_id, reply.kind, reply.reason)
        _finish(engine, inbound_id, message_id, {"kind": str(reply.kind),
                                                  "reason": reply.reason}, [])
        return "ignored"
    if chat_replies.is_chat(reply):  # a table-talk address: posted to the chat, never orders
        try:
            return chat_replies.handle(engine, inbound_id, message_id, reply, settings.secret,
                                       _finish, _mark)
        except AlreadyHandled:
            return "duplicate"
    seat = _seat_of(engine, reply, settings)
    if seat is None:
        return _unknown(engine, inbound_id, message_id, reply, settings)
    why = _not_the_players(engine, reply, seat)
    if why is not None:
        return _foreign(engine, inbound_id, message_id, reply, seat, why)
    return _order(engine, inbound_id, message_id, reply, seat, settings)


def _within_limit(sender: str, disowned: str | None = None) -> bool:
    """Whether the sender is within WHISTLESTOP_RATE_INBOUND_PER_SENDER (server/rate_limits.py):
    past it, the mail is kept but neither read as an order nor answered. Mail the receiving
    server found disowned by the sender's domain (``disowned``) is counted apart, so that
    forgeries of a player's From cannot use up the player's own count."""
    from server import rate_limits
    try:
        rate_limits.hit("inbound_sender", users.normalize_email(sender),
                        "disowned" if disowned else "not disowned")
        return True
    except rate_limits.TooMany:
        return False


def _not_the_players(engine: Engine, reply: Reply, seat: Seat) -> str | None:
    """Why the mail is not the seat's player's own (None: it is). The reply address proves
    only that its writer saw a mail sent to the seat - a forwarded mail, a shared mailbox, a
    leaked thread - so the order must also come From the player's proven address, and the
    receiving server must not have found the sender's domain disowning it (DMARC, DKIM, SPF)."""
    with Session(engine) as session:
        db.reading(session)
        player = session.get(User, seat.user_id) if seat.user_id is not None else None
    if player is None or not users.proven(player):
        return "the seat's player has no proven address"
    if reply.sender is None or users.normalize_email(reply.sender) != player.email:
        return "from another address"
    if reply.auth_failed:
        return f"the receiving server found {reply.auth_failed}"
    return None


def _foreign(engine, inbound_id, message_id, reply: Reply, seat: Seat, why: str) -> str:
    """An order for the seat from somebody else: nothing is applied and the sender gets no
    answer (it may be forged: no backscatter); the seat's player gets one short notice a day
    at most (FOREIGN_NOTICE_HOURS), so forged mail cannot flood the player either."""
    since = utcnow() - timedelta(hours=FOREIGN_NOTICE_HOURS)
    with Session(engine) as session:
        db.reading(session)
        noticed = [o for o in session.exec(select(InboundMail.outcome).where(
            InboundMail.handled_at >= since, InboundMail.id != inbound_id)).all()
            if (o or {}).get("kind") == "foreign" and o.get("game_id") == seat.game_id
            and o.get("seat") == seat.seat and o.get("noticed")]
    notice = seat.user_id is not None and not noticed
    rows = [OutboxMessage(kind="reply_foreign", payload={
        "user_id": seat.user_id, "game_id": seat.game_id, "seat": seat.seat})] if notice else []
    log.info("inbound #%s for game %s seat %s not applied: %s", inbound_id, seat.game_id,
             seat.seat, why)
    _finish(engine, inbound_id, message_id, {"kind": "foreign", "why": why,
                                             "game_id": seat.game_id, "seat": seat.seat,
                                             "noticed": notice}, rows)
    return "foreign"


def _seat_of(engine: Engine, reply: Reply, settings: MailSettings) -> Seat | None:
    parsed = reply_address.parse(reply.token)
    if parsed is None:
        return None
    with Session(engine) as session:
        db.reading(session)
        seat = session.exec(select(Seat).where(Seat.game_id == parsed.game_id,
                                               Seat.seat == parsed.seat)).first()
    if seat is None or not reply_address.verify(settings.secret, parsed, seat.user_id):
        return None
    return seat


def _unknown(engine, inbound_id, message_id, reply: Reply, settings) -> str:
    """No seat answers to this address: tell a user who wrote it, ignore anybody else."""
    with Session(engine) as session:
        db.reading(session)
        user = users.find_user(session, reply.sender) if reply.sender else None
    if user is not None and not users.proven(user):
        user = None     # answers go to proven addresses only: a From can be anybody's
    rows = []
    if user is not None:
        address = f"r+{reply.token}@{settings.domain}" if reply.token else settings.domain
        rows.append(OutboxMessage(kind="reply_unknown",
                                  payload={"user_id": user.id, "address": address}))
    _finish(engine, inbound_id, message_id, {"kind": "unknown", "token": reply.token,
                                             "answered": user is not None}, rows)
    return "unknown"


def _answered_step(engine: Engine, reply: Reply, seat: Seat) -> int | None:
    """The step the replied-to mail asked the seat about (recorded when it was sent), from
    the Message-IDs in the reply's thread headers, newest first; None for a reply to no mail of
    ours that asked something."""
    with Session(engine) as session:
        db.reading(session)
        for sent in _sent_in_thread(session, reply, seat):
            if sent.step is not None:
                return sent.step
    return None


def _sent_in_thread(session: Session, reply: Reply, seat: Seat) -> Iterator[MailSent]:
    """Our mails to the seat that the reply's thread headers name (In-Reply-To, then
    References from the last), newest first."""
    for message in (reply.in_reply_to, *reversed(reply.references)):
        if not message:
            continue
        sent = session.exec(select(MailSent).where(
            MailSent.message_id == message, MailSent.game_id == seat.game_id,
            MailSent.recipient == seat.seat)).first()
        if sent is not None:
            yield sent


def _order(engine, inbound_id, message_id, reply: Reply, seat: Seat, settings) -> str:
    lines = list(reply.lines[:MAX_LINES])
    with Session(engine) as session:
        db.reading(session)
        game = session.get(Game, seat.game_id)
        # As the seat may see the game: a move another seat may still take back is not read
        # (a fresh mail answers the step before it; services/seat_view.py).
        seen = seat_view.of(session, game, seat.seat)
        current, game_type, state = seen.step, game.game_type, seen.state
        held = seen.held_until is not None  # another seat's move, hidden from this one
        player = session.get(User, seat.user_id)
        locale, zone = (player.locale, player.time_zone) if player else ("en", None)
    lines = (lines + [line for line in reply.closing if _names_a_verb(state, line)
                      or retract_reply.is_line(line)])[:MAX_LINES]
    step = _answered_step(engine, reply, seat)
    step = current if step is None else step
    answer = {"game_id": seat.game_id, "seat": seat.seat, "inbound_id": inbound_id,
              "lines": lines, "answered_step": step, "reply_message_id": reply.message_id}
    # Issue 27: "TAKE BACK" takes the seat's last move back, as the page's button does.
    if lines and retract_reply.is_line(lines[0]):
        return _take_back(engine, inbound_id, message_id, answer, reply, seat, current, held)
    # Issue 46, item 1: "claim win", "end game", "bot", "replace <address>" choose what
    # happens to an absent seat, alone (server/mail/absence_reply.py, which answers it).
    if lines and absence_reply.is_line(lines[0]) and not _names_a_verb(state, lines[0]):
        try:
            return absence_reply.handle(engine, inbound_id, message_id, answer, seat,
                                        lines[0], _finish, _mark)
        except AlreadyHandled:
            return "duplicate"
    # Issue 27: a reply of "pause", "pause yes", "extend no"... asks for, answers or ends a
    # pause or an extension (server/mail/schedule_reply.py); issue 46, item 3: when its first
    # line is one, that is done alone and the lines after it (a sentence to the other player,
    # a sign-off, even an order) are not read - the pause or extension mail tells what was done.
    if lines and schedule_reply.is_line(lines[0]):
        return _schedule(engine, inbound_id, message_id, answer, seat, lines[0], current,
                         [line for line in lines[1:] if _names_a_verb(state, line)])
    # A "timezone Asia/Tokyo" line sets the player's zone (server/mail/reply_settings.py):
    # changed with the order, in its transaction, or alone; a zone not taken refuses it all.
    setting_lines, lines = reply_settings.split(lines)
    try:
        settings_ = reply_settings.read(setting_lines)
    except reply_settings.Refused as exc:
        _refusal(engine, inbound_id, message_id, answer,
                 play.Outcome("malformed", current, reason=exc.reason), seat)
        return "order"
    # Standing orders may come in the same reply ("standing trigger helps_me"): filed with
    # the order, in its transaction, or alone.
    policy_lines = [line for line in lines if standing.is_reply_line(line)]
    lines = [line for line in lines if not standing.is_reply_line(line)]
    # Issue 46, item 3: a reply led by setting or standing-order lines, whose next line is the
    # writer's words (a sentence, not an order however mistyped), carries no order: its other
    # lines are not read, and the answer quotes them so.
    if lines and (setting_lines or policy_lines) and _is_command(answer["lines"][0]) \
            and _writers_words(state, lines[0]):
        answer["unread"], lines = lines, []
    try:
        policies = standing.from_reply(policy_lines)
        for kind, value in policies.items():
            if value not in (None, "ask", []):
                standing.check(kind, value, state, seat.seat)
    except standing.StandingOrderError as exc:
        outcome = play.Outcome("malformed", current, reason=exc.args[0],
                               legal=presenter(game_type).standing_examples())
        _refusal(engine, inbound_id, message_id, answer, outcome, seat)
        return "order"
    filed = standing.describe(policies)

    def file_policies(session: Session) -> None:
        for kind, value in policies.items():
            standing.file(session, seat.game_id, seat.seat, kind, value, state)
        reply_settings.file(session, seat.user_id, settings_)

    if (policies or settings_) and not lines:
        with Session(engine) as session:
            try:
                _mark(session, inbound_id, message_id, {"kind": "standing"})
                file_policies(session)
                session.add(OutboxMessage(kind="order_answer", payload={
                    **answer, "status": "standing", "applied": [], "reason": None,
                    "legal": [], "step": current, "standing": filed, **settings_}))
                session.commit()
            except AlreadyHandled:
                session.rollback()
                return "duplicate"
        return "order"
    if not lines:
        outcome = play.Outcome("empty", current, reason=plain("The reply had no order above "
                                                              "the quoted mail."))
        _refusal(engine, inbound_id, message_id, answer, outcome, seat)
        return "order"

    # A sealed step takes one action: the first legal line is the order, and the answer
    # quotes the lines it did not read (a greeting, a remark), instead of refusing them all.
    if step == current and len(lines) > 1 and _sealed_step(state, seat.seat):
        lines, answer["ignored"] = _first_legal(state, seat.seat, lines)

    def before_commit(session: Session, result) -> None:
        status = "sealed" if result.sealed else "applied"
        _mark(session, inbound_id, message_id, {"kind": "order", "status": status})
        file_policies(session)
        session.add(OutboxMessage(kind="order_answer", payload={
            **answer, "status": status, "applied": list(result.applied),
            "reason": _data(result.reason), "legal": list(result.legal), "step": result.step,
            "standing": filed, **settings_}))

    try:
        outcome = play.order(seat.game_id, seat.seat, step, lines, before_commit=before_commit)
    except AlreadyHandled:
        return "duplicate"
    if outcome.status == "held":  # told with its end in the reader's zone
        outcome.reason = games.held_move_reason(outcome.held_by,
                                                times.moment(outcome.held_until, locale, zone))
    if not outcome.accepted:
        if policies:
            outcome.reason = (plain("{reason} Nothing in the reply was done: its standing "
                                    "orders are not filed either.", reason=outcome.reason)
                              if outcome.reason else
                              plain("Nothing in the reply was done: its standing orders are not "
                                    "filed either."))
        _refusal(engine, inbound_id, message_id, answer, outcome, seat)
    return "order"


def _take_back(engine, inbound_id, message_id, answer: dict, reply: Reply, seat: Seat,
               current: int, held: bool = False) -> str:
    """Take the seat's last move back (services/retract.py), the mail handled and answered in
    the retraction's transaction; a refusal (the move is final, or there is none) is answered
    with its reason. The reply's other lines are not read: the answer asks the decision
    again, to be answered by a new reply."""
    step = _receipt_step(engine, reply, seat)
    answer = {**answer, "answered_step": current if step is None else step,
              "unread": answer["lines"][1:]}

    def before_commit(session: Session, taken: retract.Retracted) -> None:
        _mark(session, inbound_id, message_id, {"kind": "retract", "status": "retracted"})
        session.add(OutboxMessage(kind="order_answer", payload={
            **answer, "status": "retracted", "applied": list(taken.actions), "reason": None,
            "legal": [], "step": taken.step}))

    with Session(engine) as session:
        try:
            if held:  # the last move is another seat's, and hidden from this one
                raise retract.refused("nothing")
            retract.retract(session, seat.game_id, seat.seat,
                            current if step is None else step, before_commit=before_commit)
            return "order"
        except AlreadyHandled:
            return "duplicate"
        except retract.RetractRefused as exc:
            code = exc.code
        except games.StaleStep:
            code = "moved_on"  # the receipt's move is no longer the game's last
    _finish(engine, inbound_id, message_id, {"kind": "retract", "status": "final",
                                             "code": code},
            [OutboxMessage(kind="order_answer", payload={
                **answer, "status": "final", "retract": code, "applied": [], "reason": None,
                "legal": [], "step": current})])
    return "order"


def _receipt_step(engine: Engine, reply: Reply, seat: Seat) -> int | None:
    """The step the move of a receipt led to, when the reply answers the answer to an order
    by mail (its newest mail of ours in the thread: the move it offers to take back); None
    for a reply to another mail (then the seat's last move is meant)."""
    with Session(engine) as session:
        db.reading(session)
        for sent in _sent_in_thread(session, reply, seat):
            row = session.get(OutboxMessage, sent.outbox_id) \
                if sent.kind == "order_received" else None
            if row is None or row.payload.get("status") != "applied":
                return None
            return row.payload.get("step")
    return None


def _schedule(engine, inbound_id, message_id, answer: dict, seat: Seat, line: str,
              current: int, orders: list[str] = ()) -> str:
    """Do the reply's pause or extension line; a refusal is answered with its reason. The
    other players are told by the pause or extension mail, and so is an answerer; the asker
    (who gets no such mail of their own ask) is answered that it was asked, and any reply
    whose lines after the command hold orders (``orders``) is answered quoting them as not
    read."""
    asked = schedule_reply.is_ask(line)
    with Session(engine) as session:
        try:
            _mark(session, inbound_id, message_id, {"kind": "schedule", "line": line})
            if orders or asked:  # added before apply(), which commits
                session.add(OutboxMessage(kind="order_answer", payload={
                    **answer, "status": "command", "applied": [line], "reason": None,
                    "legal": [], "step": current, "unread": list(orders), "asked": asked}))
            schedule_reply.apply(session, seat.game_id, seat.seat, line, utcnow())
            return "order"
        except AlreadyHandled:
            session.rollback()
            return "duplicate"
        except PauseError as exc:
            session.rollback()
            reason = exc.message
    _refusal(engine, inbound_id, message_id, answer,
             play.Outcome("malformed", current, reason=plain(reason)), seat)
    return "order"


def _names_a_verb(state, line: str) -> bool:
    """Whether a line starts with a verb a seat may order with ("Pass", "play 5 campaign"):
    a lone capitalised word closing a reply is then an order, capitalised by a phone, not the
    writer; a line after a reply's commands is then an order, not the writer's words."""
    verbs = state.order_verbs() if state is not None else []  # the protocol's notation
    words = line.split()
    return bool(words) and words[0].lower() in verbs


def _writers_words(state, line: str) -> bool:
    """Whether a line is the writer's words rather than an order, even a mistyped one: it
    starts with no verb of the game and is not shaped as the notation is (a few words of
    ASCII letters, digits, hyphens and underscores): it holds a comma, an apostrophe, a full
    stop, a letter of another script, or more than NOTATION_WORDS words."""
    if _names_a_verb(state, line):
        return False
    return not _NOTATION_SHAPED.fullmatch(line) or len(line.split()) > NOTATION_WORDS


def _is_command(line: str) -> bool:
    """Whether a reply's line is a command rather than an order: a setting (timezone), a
    standing order, a pause or extension line, or TAKE BACK."""
    return (reply_settings.is_line(line) or standing.is_reply_line(line)
            or schedule_reply.is_line(line) or retract_reply.is_line(line))


def _sealed_step(state, seat: str) -> bool:
    """Whether the seat's decision now is part of a simultaneous step (committed sealed)."""
    active = state.active() if state is not None else []
    return len(active) > 1 and seat in active


def _first_legal(state, seat: str, lines: list[str]) -> tuple[list[str], list[str]]:
    """The first line that is a legal action for the seat (else the first line, whose refusal
    says why), and the others, not read."""
    for i, line in enumerate(lines):
        try:
            state.parse(seat, line)
        except ActionError:
            continue
        return [line], lines[:i] + lines[i + 1:]
    return lines[:1], lines[1:]


def _refusal(engine, inbound_id, message_id, answer: dict, outcome: play.Outcome,
             seat: Seat) -> None:
    _finish(engine, inbound_id, message_id, {"kind": "order", "status": outcome.status},
            [OutboxMessage(kind="order_answer", payload={
                **answer, "status": outcome.status, "applied": [],
                "reason": _data(outcome.reason),
                "legal": list(outcome.legal), "step": outcome.step})])


def _data(reason) -> list | None:
    """A reason as the outbox keeps it: its message's [template, args], told in the reader's
    language when the answer is written (server/i18n/game_text.py)."""
    return data(reason) if reason else None


def _mark(session: Session, inbound_id: int, message_id: int | None, outcome: dict | None
          ) -> None:
    """Mark the mail handled in this transaction, or raise AlreadyHandled."""
    done = session.execute(update(InboundMail).where(InboundMail.id == inbound_id,
                                                     InboundMail.handled_at.is_(None))
                           .values(handled_at=utcnow(), outcome=outcome))
    if done.rowcount != 1:
        raise AlreadyHandled(inbound_id)
    outbox.mark_delivered(session, message_id)


def _finish(engine: Engine, inbound_id: int, message_id: int | None, outcome: dict | None,
            rows: list[OutboxMessage]) -> None:
    """Mark the mail handled with what it was and write its answers, in one transaction (a
    mail handled meanwhile by another run: only the outbox row is consumed)."""
    with Session(engine) as session:
        try:
            _mark(session, inbound_id, message_id, outcome)
            session.add_all(rows)
        except AlreadyHandled:
            outbox.mark_delivered(session, message_id)
        session.commit()


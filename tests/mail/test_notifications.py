"""The mails of deadlines, resolutions and digests, built from outbox rows and sent to a real SMTP
server: a reminder only while the decision is open, a resolution only to the seats not asked, a
digest only of the games waiting and only to those who chose it, the orders given without asking
told once, the answers to orders by reply in their two templates, and never a card the recipient's
view hides."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import engine.core as engine
from sqlalchemy import update
from sqlmodel import Session, select

from server.mail import delivery
from server.models import (AutoOrder, Game, MailSent, OutboxMessage, Seat, StandingOrder, User,
                           utcnow)
from server.games import presenter
from server.games.tmotp.summary import card_name
from server.services import games as svc
from server.services import links
from tests.mail.test_delivery import SETTINGS, new_game, transport

OTHER = {"kennedy": "nixon", "nixon": "kennedy"}


def write(session, kind: str, payload: dict) -> int:
    row = OutboxMessage(kind=kind, payload=payload)
    session.add(row)
    session.commit()
    return row.id


def deliver(session, db_engine, catcher, row_id: int) -> list:
    """The mails one outbox row sent (the test's session is left with no transaction open:
    SQLite would keep the sender waiting)."""
    session.commit()
    before = len(catcher.received())
    assert delivery.deliver(db_engine, row_id, SETTINGS, transport(catcher)) == "sent"
    return catcher.received()[before:]


def text(mail) -> str:
    return mail.get_body(("plain",)).get_content()


class Now:
    """The game's step now (a plain value: the test's session is left with no transaction
    open)."""

    def __init__(self, step: int):
        self.step = step


def asked_now(session, gid: int) -> tuple[Now, object, list[str]]:
    """The step, the state and the seats asked now."""
    session.expire_all()
    game = session.get(Game, gid)
    state = svc.whole_state(session, game)
    asked = [seat for seat in ("kennedy", "nixon") if svc.your_move(session, game, seat)]
    found = Now(game.step), state, asked
    session.commit()
    return found


def play(session, gid: int, until_simultaneous: bool = False, decisions: int = 400,
         seed: int = 0) -> None:
    """Random legal orders through the service, for ``decisions`` single-seat decisions or to
    the first simultaneous step."""
    rng = random.Random(seed)
    for _ in range(decisions):
        game, state, _ = asked_now(session, gid)
        active = state.active()
        if len(active) != 1:
            assert until_simultaneous, "the game reached a simultaneous step"
            break
        svc.submit_order(session, gid, active[0], game.step,
                         [rng.choice(state.legal_actions(active[0]))], by_player=False)
        session.commit()
    session.expire_all()


def set_mode(session, user_id: int, mode: str) -> None:
    session.execute(update(User).where(User.id == user_id).values(mail_mode=mode))
    session.commit()


def resolve_first_simultaneous(session, gid: int) -> int:
    """Play to the first simultaneous step, seal both orders and resolve it: its step."""
    play(session, gid, until_simultaneous=True)
    game, state, _ = asked_now(session, gid)
    step = game.step
    for seat in state.active():
        svc.submit_order(session, gid, seat, step, [state.legal_actions(seat)[0]])
    session.commit()
    svc.resolve_step(session, gid, step)
    session.commit()
    return step


# --- reminders --------------------------------------------------------------------------------
def test_a_reminder_is_sent_while_the_decision_is_open_and_not_after(db_engine, session,
                                                                     smtp_catcher):
    gid, jack, dick = new_game(session, seed="remind")
    game, state, asked = asked_now(session, gid)
    seat = asked[0]
    address = {"kennedy": jack.email, "nixon": dick.email}[seat]
    session.execute(update(Game).where(Game.id == gid).values(
        deadline_at=utcnow() + timedelta(hours=5, minutes=10)))
    session.commit()
    row = write(session, "reminder", {"game_id": gid, "seat": seat, "step": game.step,
                                      "number": 1, "of": 2})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    # In the game's thread (its subject), the preview line saying it is a reminder
    assert mail["To"] == address and mail["Subject"] == f"1960 game #{gid} · you play " \
        + {"kennedy": "Kennedy", "nixon": "Nixon"}[seat]
    assert text(mail).startswith("Reminder 1 of 2 · Your move: ")
    body = text(mail)
    assert "reminder 1 of 2" in body and "in about 5 hours" in body
    # the default in words, not notation (issue 47)
    assert "the safe default will be applied: " + presenter("tmotp").order_words(
        state.default_action(seat), "en") in body
    assert "Reply to this mail with your order, one of:" in body
    with Session(db_engine) as s:
        sent = s.exec(select(MailSent).where(MailSent.outbox_id == row)).one()
        assert (sent.kind, sent.step) == ("reminder", game.step)  # a reply answers that step

    # The seat files a default order: the next reminder says it will be applied.
    session.add(StandingOrder(game_id=gid, seat=seat, kind="deadline_default",
                              value=[state.legal_actions(seat)[-1]]))
    session.commit()
    row = write(session, "reminder", {"game_id": gid, "seat": seat, "step": game.step,
                                      "number": 2, "of": 2})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    assert ("your filed default order will be applied: " + presenter("tmotp").order_words(
        state.legal_actions(seat)[-1], "en")) in text(mail)

    # A game that forfeits at the deadline says so.
    session.execute(update(Game).where(Game.id == gid).values(on_deadline="forfeit"))
    session.commit()
    row = write(session, "reminder", {"game_id": gid, "seat": seat, "step": game.step,
                                      "number": 2, "of": 2})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    assert "you forfeit the game" in text(mail)

    # The seat decides: a reminder of that step written before is not sent.
    row = write(session, "reminder", {"game_id": gid, "seat": seat, "step": game.step,
                                      "number": 2, "of": 2})
    svc.submit_order(session, gid, seat, game.step, [state.legal_actions(seat)[0]])
    session.commit()
    assert deliver(session, db_engine, smtp_catcher, row) == []
    assert session.get(OutboxMessage, row).delivered_at is not None


def test_a_reminder_honours_the_mail_preference(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="remind-none")
    game, state, asked = asked_now(session, gid)
    user = jack if asked[0] == "kennedy" else dick
    set_mode(session, user.id, "none")
    row = write(session, "reminder", {"game_id": gid, "seat": asked[0], "step": game.step,
                                      "number": 1, "of": 1})
    assert deliver(session, db_engine, smtp_catcher, row) == []


# --- deadlines --------------------------------------------------------------------------------
def test_a_passed_deadline_is_told_with_the_decision_now(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="passed")
    game, state, asked = asked_now(session, gid)
    seat = asked[0]
    user = jack if seat == "kennedy" else dick
    set_mode(session, user.id, "digest")  # told even to a digest reader
    action = state.default_action(seat)
    svc.submit_order(session, gid, seat, game.step, [action])
    session.add(AutoOrder(game_id=gid, seat=seat, step=game.step, actions=[action],
                          source="default", rule="default"))
    session.commit()
    now, state_now, asked_after = asked_now(session, gid)
    row = write(session, "deadline_passed", {
        "game_id": gid, "seat": seat, "step": game.step, "actions": [action],
        "source": "default", "rule": "default"})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    body = text(mail)
    assert "the deadline of your decision has passed" in body
    assert "the safe default for this kind of decision: " + presenter("tmotp").order_words(
        action, "en") in body
    # The order the mail is about is not listed again as done without asking, yet it is told.
    assert "Done for you without asking" not in body
    with Session(db_engine) as s:
        assert all(a.mailed_at is not None for a in s.exec(select(AutoOrder)).all())
        sent = s.exec(select(MailSent).where(MailSent.outbox_id == row)).one()
    if seat in asked_after:
        assert "Your decision now:" in body and sent.step == now.step
    else:
        assert "Reply to this mail" not in body and sent.step is None

    # Forfeit: said in words; no mail at all for a player who wants none.
    row = write(session, "deadline_passed", {"game_id": gid, "seat": seat, "step": game.step,
                                             "actions": [], "source": "forfeit",
                                             "rule": "forfeit"})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    assert "you forfeited the game" in text(mail)
    set_mode(session, user.id, "none")
    row = write(session, "deadline_passed", {"game_id": gid, "seat": seat, "step": game.step,
                                             "actions": [action], "source": "filed",
                                             "rule": "filed"})
    assert deliver(session, db_engine, smtp_catcher, row) == []


# --- resolutions ------------------------------------------------------------------------------
def test_a_resolution_goes_only_to_the_seats_not_asked(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="resolved")
    address = {"kennedy": jack.email, "nixon": dick.email}
    step = resolve_first_simultaneous(session, gid)
    game, state, asked = asked_now(session, gid)
    not_asked = [seat for seat in ("kennedy", "nixon") if seat not in asked]
    assert asked and not_asked, "the test needs one seat asked and one not"
    row = write(session, "step_resolved", {"game_id": gid, "step": step})
    mails = deliver(session, db_engine, smtp_catcher, row)
    assert [m["To"] for m in mails] == [address[s] for s in not_asked]
    body = text(mails[0])
    assert "choices at the same time, and the choices are resolved" in body
    assert "revealed" not in body  # Campaign Strategy's cards stay face down (issue 46)
    assert "Reply to this mail with your order" not in body
    with Session(db_engine) as s:
        sent = s.exec(select(MailSent).where(MailSent.outbox_id == row)).one()
        assert (sent.kind, sent.step) == ("step_resolved", None)
        seat_row = s.exec(select(Seat).where(Seat.game_id == gid,
                                             Seat.seat == not_asked[0])).one()
    # What it showed is not shown again as new.
    assert seat_row.notes_mailed == len(state.view(not_asked[0])["notes"])
    # A digest reader does not get resolutions one by one.
    user = jack if not_asked[0] == "kennedy" else dick
    set_mode(session, user.id, "digest")
    again = write(session, "step_resolved", {"game_id": gid, "step": step})
    assert deliver(session, db_engine, smtp_catcher, again) == []



def test_no_nothing_is_asked_mail_when_the_seats_next_decision_is_already_written(
        db_engine, session, smtp_catcher):
    """A resolution's "nothing is asked of you now" is left out for a seat whose decision mail
    was written after it (the decision mail says what changed); the other seats still get it,
    and a decision written before the resolution takes nothing away."""
    gid, jack, dick = new_game(session, seed="resolve")
    step = resolve_first_simultaneous(session, gid)
    address = {"kennedy": jack.email, "nixon": dick.email}
    game, state, asked = asked_now(session, gid)
    not_asked = [seat for seat in ("kennedy", "nixon") if seat not in asked]
    earlier = write(session, "your_decision", {"game_id": gid, "seat": not_asked[0],
                                               "step": game.step - 1})
    row = write(session, "step_resolved", {"game_id": gid, "step": step})
    other_game = write(session, "your_decision", {"game_id": gid + 1000, "seat": not_asked[0],
                                                  "step": 1})
    assert earlier < row < other_game
    assert [m["To"] for m in deliver(session, db_engine, smtp_catcher, row)] == \
        [address[s] for s in not_asked]
    again = write(session, "step_resolved", {"game_id": gid, "step": step})
    write(session, "your_decision", {"game_id": gid, "seat": not_asked[0],
                                     "step": game.step + 1})
    assert deliver(session, db_engine, smtp_catcher, again) == []


# --- digests ----------------------------------------------------------------------------------
def test_a_digest_lists_only_the_games_waiting_and_only_for_digest_readers(
        db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="digest-1")
    game, state, asked = asked_now(session, gid)
    waiting_seat = asked[0]
    reader = jack if waiting_seat == "kennedy" else dick
    other = dick if reader is jack else jack
    # A second game where the reader's seat is not asked now: the other seat is.
    first = engine.new_game("tmotp", seed="digest-2")
    svc._advance(first)
    (asked_first,) = first.active()
    seats = {OTHER[asked_first]: reader.id, asked_first: other.id}
    second = svc.create_game(session, "tmotp", {}, seats, seed="digest-2").id
    session.commit()
    assert not svc.your_move(session, session.get(Game, second), OTHER[asked_first])
    set_mode(session, reader.id, "digest")
    session.execute(update(Game).where(Game.id == gid).values(
        deadline_at=utcnow() + timedelta(hours=30, minutes=5)))
    session.commit()

    row = write(session, "digest", {"user_id": reader.id, "day": "2026-11-22"})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    body = text(mail)
    assert mail["To"] == reader.email
    assert f"Game #{gid} · you play" in body and f"Game #{second} " not in body
    assert state.prompt(waiting_seat) in body
    assert f"{SETTINGS.base_url}/games/{gid}/decide/" in body  # signed choice links
    assert "in about 30 hours" in body  # the deadline
    assert mail["In-Reply-To"] is None and mail["Reply-To"] is None  # no thread, no reply
    with Session(db_engine) as s:
        sent = s.exec(select(MailSent).where(MailSent.outbox_id == row)).one()
        assert (sent.recipient, sent.kind, sent.game_id) == (f"digest:{reader.id}", "digest",
                                                             None)
    # Not for a player who reads every mail; none when nothing waits.
    assert deliver(session, db_engine, smtp_catcher,
                   write(session, "digest", {"user_id": other.id, "day": "2026-11-22"})) == []
    svc.submit_order(session, gid, waiting_seat, game.step,
                     [state.legal_actions(waiting_seat)[0]])
    session.commit()
    if not svc.your_move(session, session.get(Game, gid), waiting_seat):
        assert deliver(session, db_engine, smtp_catcher,
                       write(session, "digest", {"user_id": reader.id,
                                                 "day": "2026-11-23"})) == []


# --- orders given without asking --------------------------------------------------------------
def test_orders_given_without_asking_are_told_once(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="auto")
    game, state, asked = asked_now(session, gid)
    seat = asked[0]
    session.add_all([
        AutoOrder(game_id=gid, seat=seat, step=game.step - 1, actions=["pass"],
                  source="standing", rule="trigger:helps_me"),
        AutoOrder(game_id=gid, seat=seat, step=game.step - 1, actions=["momentum"],
                  source="standing", rule="second_place:momentum"),
        AutoOrder(game_id=gid, seat=OTHER[seat], step=game.step - 1, actions=["pass"],
                  source="standing", rule="trigger:never")])
    session.commit()
    row = write(session, "your_decision", {"game_id": gid, "seat": seat, "step": game.step})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    body = text(mail)
    assert "Done for you without asking:" in body
    assert "Pass: your standing order: trigger only events that help you" in body
    assert body.index("trigger only events") < body.index("take a Momentum marker")
    assert "never trigger" not in body  # the other seat's
    with Session(db_engine) as s:
        rows = {a.seat + a.rule: a.mailed_at for a in s.exec(select(AutoOrder)).all()}
    assert rows[seat + "trigger:helps_me"] and rows[seat + "second_place:momentum"]
    assert rows[OTHER[seat] + "trigger:never"] is None
    # Told once: the next mail does not list them again.
    row = write(session, "reminder", {"game_id": gid, "seat": seat, "step": game.step,
                                      "number": 1, "of": 1})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    assert "Done for you without asking" not in text(mail)


def test_a_refused_send_does_not_mark_the_orders_told(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="auto-refused")
    game, state, asked = asked_now(session, gid)
    session.add(AutoOrder(game_id=gid, seat=asked[0], step=game.step - 1, actions=["pass"],
                          source="standing", rule="trigger:never"))
    session.commit()
    row = write(session, "your_decision", {"game_id": gid, "seat": asked[0],
                                           "step": game.step})
    smtp_catcher.answer = "550 5.1.1 no such user"
    session.commit()
    delivery.deliver(db_engine, row, SETTINGS, transport(smtp_catcher))
    with Session(db_engine) as s:
        assert s.exec(select(AutoOrder)).one().mailed_at is None


# --- answers to orders by reply ---------------------------------------------------------------
def test_an_order_answer_row_picks_the_received_or_refused_template(db_engine, session,
                                                                    smtp_catcher):
    gid, jack, dick = new_game(session, seed="answer")
    game, state, asked = asked_now(session, gid)
    seat = asked[0]
    base = {"game_id": gid, "seat": seat, "lines": ["x"], "answered_step": game.step}
    refused = write(session, "order_answer", {**base, "status": "illegal", "applied": [],
                                              "reason": "No such order.",
                                              "legal": state.legal_actions(seat)})
    received = write(session, "order_answer", {**base, "status": "applied",
                                               "applied": ["x"], "reason": None})
    (no,) = deliver(session, db_engine, smtp_catcher, refused)
    (yes,) = deliver(session, db_engine, smtp_catcher, received)
    assert "Nothing was changed: No such order." in text(no)
    assert "Done: x." in text(yes)
    with Session(db_engine) as s:
        kinds = {m.outbox_id: m.kind for m in s.exec(select(MailSent)).all()}
    assert (kinds[refused], kinds[received]) == ("order_refused", "order_received")


# --- the preferences link ---------------------------------------------------------------------
def test_every_mail_links_the_recipients_signed_preferences(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="prefs")
    game, state, asked = asked_now(session, gid)
    user = jack if asked[0] == "kennedy" else dick
    row = write(session, "reminder", {"game_id": gid, "seat": asked[0], "step": game.step,
                                      "number": 1, "of": 1})
    (mail,) = deliver(session, db_engine, smtp_catcher, row)
    signed = links.preferences_url(SETTINGS.secret, SETTINGS.base_url, user.id, row)
    assert mail["List-Unsubscribe"].strip() == f"<{signed}>"
    assert signed in text(mail) and signed in mail.get_body(("html",)).get_content()
    assert links.preferences_link(SETTINGS.secret, signed.rsplit("/", 1)[1]) == \
        links.PreferencesLink(user.id, row)


# --- nothing the recipient's view hides -------------------------------------------------------
def _hidden(state, seat: str) -> list[int]:
    """Cards only the other seat holds that the seat's view never shows."""
    shown = json.dumps(state.view(seat))
    return [card for card in state.s["hands"][OTHER[seat]]
            if card not in state.s["hands"][seat] and str(card) not in shown]


def test_no_new_kind_of_mail_shows_the_other_hand(db_engine, session, smtp_catcher):
    gid, jack, dick = new_game(session, seed="leak-new")
    users_of = {"kennedy": jack, "nixon": dick}
    step = resolve_first_simultaneous(session, gid)
    game, state, asked = asked_now(session, gid)
    rows = [write(session, "step_resolved", {"game_id": gid, "step": step})]
    for seat in asked:
        rows.append(write(session, "reminder", {"game_id": gid, "seat": seat,
                                                "step": game.step, "number": 1, "of": 1}))
    for seat in ("kennedy", "nixon"):
        rows.append(write(session, "deadline_passed", {
            "game_id": gid, "seat": seat, "step": step, "actions": ["pass"],
            "source": "default", "rule": "default"}))
    mails = []
    for row in rows:
        mails += deliver(session, db_engine, smtp_catcher, row)
    for user in users_of.values():
        set_mode(session, user.id, "digest")
        mails += deliver(session, db_engine, smtp_catcher,
                         write(session, "digest", {"user_id": user.id, "day": "2026-11-22"}))
    checked = 0
    for mail in mails:
        seat = "kennedy" if mail["To"] == jack.email else "nixon"
        body = text(mail) + mail.get_body(("html",)).get_content()
        hidden = _hidden(state, seat)
        for card in hidden:
            assert card_name(card) not in body, (seat, card)
            checked += 1
        # The check can see cards: the recipient's own hand is in its summary mails.
        if "Your hand" in body:
            assert all(card_name(card) in body for card in state.s["hands"][seat])
    with Session(db_engine) as s:
        sent_kinds = set(s.exec(select(MailSent.kind)).all())
    assert {"step_resolved", "deadline_passed", "digest"} <= sent_kinds
    assert ("reminder" in sent_kinds) == bool(asked)
    assert checked > 0

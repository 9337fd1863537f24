"""Departed and vanished players (issue 46, item 1; server/services/absences.py), on the
service, with the clock a parameter: a player who misses the game's number of deadlines in a
row, or who deletes their account, is absent; the others are told and may claim the win, end
the game unrated, hand the seat to a bot or invite a replacement; with three or four seats a bot
takes the seat at once; a game nobody plays ends, unrated, after the operator's longest life."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from server import db
from server.models import (AutoOrder, Game, GamePause, OutboxMessage, RatedGame, Seat, SeatAbsence, User,
                           aware, utcnow)
from server.services import (absences, account_deletion, bots, deadlines, games, lobby, ratings,
                             reach)
from server.services.absences import AbsenceError
from tests.players import proven_user

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch):
    """The strongest bot (the one a seat is handed to) on a test's budget."""
    monkeypatch.setitem(bots.BUDGETS, "strong", {"iterations": 6})


def _game(engine, game_type="tmotp", options=None, names=("ann", "bob"), **timing):
    with Session(engine) as session:
        people = [proven_user(session, f"{n}@example.org", n.title()) for n in names]
        seats = lobby.seats_of(game_type, options or {})
        game = games.create_game(session, game_type, options or {},
                                 {s: u.id for s, u in zip(seats, people)}, seed="absent",
                                 public=True, timing=lobby.check_timing(timing))
        return game.id, dict(zip(seats, [u.id for u in people]))


def _game_now(engine, gid) -> Game:
    with Session(engine) as session:
        game = session.get(Game, gid)
        session.expunge(game)
        return game


def _kinds(engine, gid, kind) -> list[dict]:
    with Session(engine) as session:
        return [r.payload for r in session.exec(select(OutboxMessage).where(
            OutboxMessage.kind == kind).order_by(OutboxMessage.id))
            if r.payload.get("game_id") == gid]


def _absence(engine, gid, seat) -> SeatAbsence | None:
    with Session(engine) as session:
        row = session.exec(select(SeatAbsence).where(SeatAbsence.game_id == gid,
                                                     SeatAbsence.seat == seat)
                           .order_by(SeatAbsence.id.desc())).first()
        if row is not None:
            session.expunge(row)
        return row


def _advance(engine, gid, silent: set[str], now, *, stop=lambda: False, limit=400):
    """Play the game: the present seats answer at once (their first legal order), the
    ``silent`` ones never, so their deadlines pass (they were mailed: reached); a bot's seat
    answers as its task would; a sealed step resolves as its task would. Stop when ``stop()``
    or the game is over; return the clock."""
    for _ in range(limit):
        if stop():
            return now
        with Session(engine) as session:
            game = session.get(Game, gid)
            if game.status != "active":
                return now
            state = games._load(game)
            owing = deadlines.owing(session, game, state)
            step, robots = game.step, dict(game.bots or {})
            deadline = aware(game.deadline_at)
        if not owing:    # every seat committed: the step's resolution, as its task does
            with Session(engine) as session:
                games.resolve_step(session, gid, step)
            continue
        playing = [s for s in owing if s not in silent or s in robots]
        if playing:
            seat = playing[0]
            now += timedelta(hours=1)   # past the mover's take-back hold
            with Session(engine) as session:
                if seat in robots:
                    bots.play(session, gid, seat, step)
                else:
                    games.submit_order(session, gid, seat, step,
                                       [state.legal_actions(seat)[0]], now=now)
            continue
        with Session(engine) as session:     # the silent seats' mails reached them
            for seat in owing:
                reach.record(db.connection(session), gid, seat, step, "mail", now)
            session.commit()
        now = max(now, deadline)
        assert deadlines.ring(engine, gid, now) in ("defaulted", "extended", "reminded")
    raise AssertionError("the game did not get there")


def _silent_after(engine, gid, seat, now):
    return _advance(engine, gid, {seat}, now,
                    stop=lambda: _absence(engine, gid, seat) is not None)


# --- a player who goes silent ---------------------------------------------------------------
def test_a_player_who_misses_two_deadlines_in_a_row_is_absent_and_the_other_is_told(db_engine):
    gid, users = _game(db_engine)
    now = _silent_after(db_engine, gid, "nixon", utcnow())
    absence = _absence(db_engine, gid, "nixon")
    assert (absence.reason, absence.status, absence.bot) == ("silent", "open", None)
    with Session(db_engine) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == gid,
                                               Seat.seat == "nixon")).one()
        assert seat.missed_in_a_row == 2 and seat.user_id == users["nixon"]
        game = session.get(Game, gid)
        assert absences.choices_for(session, game, absence, "kennedy") == \
            ["claim", "end", "bot", "replace"]
        assert absences.choices_for(session, game, absence, "nixon") == []   # not his own
    told = [p for p in _kinds(db_engine, gid, "absence") if p["event"] == "silent"]
    assert told == [{"game_id": gid, "absence_id": absence.id, "seat": "nixon",
                     "event": "silent", "by": None}]
    assert _game_now(db_engine, gid).status == "active"


def test_one_missed_deadline_then_an_order_starts_the_count_again(db_engine):
    gid, _users = _game(db_engine, absent_after_missed=2)
    now = _advance(db_engine, gid, {"nixon"}, utcnow(),
                   stop=lambda: _missed(db_engine, gid) == 1)
    _advance(db_engine, gid, set(), now,
                   stop=lambda: _missed(db_engine, gid) == 0)
    assert _missed(db_engine, gid) == 0 and _absence(db_engine, gid, "nixon") is None


def _missed(engine, gid, seat="nixon") -> int:
    with Session(engine) as session:
        return session.exec(select(Seat.missed_in_a_row).where(Seat.game_id == gid,
                                                               Seat.seat == seat)).one()


def test_a_silent_player_who_plays_again_is_back_and_the_other_is_told(db_engine):
    gid, _users = _game(db_engine)
    now = _silent_after(db_engine, gid, "nixon", utcnow())
    _advance(db_engine, gid, set(), now,
             stop=lambda: _absence(db_engine, gid, "nixon").status != "open")
    absence = _absence(db_engine, gid, "nixon")
    assert (absence.status, absence.settled_by) == ("returned", "nixon")
    assert _missed(db_engine, gid) == 0
    assert "returned" in [p["event"] for p in _kinds(db_engine, gid, "absence")]
    with Session(db_engine) as session, pytest.raises(AbsenceError):
        absences.choose(session, gid, "kennedy", "claim")   # nothing to claim now


def test_absent_after_missed_zero_never_finds_a_player_absent(db_engine):
    gid, _users = _game(db_engine, absent_after_missed=0)
    _advance(db_engine, gid, {"nixon"}, utcnow(), stop=lambda: _missed(db_engine, gid) >= 4)
    assert _absence(db_engine, gid, "nixon") is None


def test_the_game_option_is_checked_in_the_games_words():
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.check_timing({"absent_after_missed": 11})
    assert "absent_after_missed" in refused.value.reason
    assert lobby.check_timing({})["absent_after_missed"] == 2


# --- the ways out, in a two-player game -----------------------------------------------------
def test_claim_the_win_over_a_silent_player_ends_the_game_as_a_rated_forfeit(db_engine):
    gid, users = _game(db_engine)
    now = _advance(db_engine, gid, set(), utcnow(),
                   stop=lambda: _own_orders(db_engine, gid) >= 8)
    _silent_after(db_engine, gid, "nixon", now)
    with Session(db_engine) as session:
        done = absences.choose(session, gid, "kennedy", "claim")
    assert done.done == "claimed"
    game = _game_now(db_engine, gid)
    assert game.status == "finished" and game.result["winner"] == "kennedy"
    assert game.result["termination"] == "forfeited" and game.result["forfeited"] == "nixon"
    assert "claimed the win" in game.result["reason"]
    assert _absence(db_engine, gid, "nixon").status == "claimed"
    assert _kinds(db_engine, gid, "rate_game") and _kinds(db_engine, gid, "game_over")
    with Session(db_engine) as session:
        assert ratings.rate(session, gid)
        changes = session.get(RatedGame, gid).changes
    assert {c["seat"]: c["won"] for c in changes} == {"kennedy": True, "nixon": False}


def _own_orders(engine, gid) -> int:
    from server.models import Order
    with Session(engine) as session:
        return len(session.exec(select(Order).where(Order.game_id == gid,
                                                    Order.status == "applied")).all())


def test_end_the_game_unrated(db_engine):
    gid, _users = _game(db_engine)
    _silent_after(db_engine, gid, "nixon", utcnow())
    with Session(db_engine) as session:
        assert absences.choose(session, gid, "kennedy", "end").done == "ended"
    game = _game_now(db_engine, gid)
    assert game.status == "finished" and game.result["winner"] is None
    assert game.result["termination"] == "abandoned" and game.result["rated"] is False
    assert _kinds(db_engine, gid, "rate_game") == []


def test_hand_the_seat_to_a_bot_plays_it_and_the_game_is_unrated(db_engine):
    gid, _users = _game(db_engine)
    now = _silent_after(db_engine, gid, "nixon", utcnow())
    with Session(db_engine) as session:
        assert absences.choose(session, gid, "kennedy", "bot").done == "bot"
    absence = _absence(db_engine, gid, "nixon")
    with Session(db_engine) as session:
        game = session.get(Game, gid)
        assert game.bots == {"nixon": absence.bot} and absence.bot_by == "kennedy"
        # claiming after choosing to play on against the bot is not offered
        assert absences.choices_for(session, game, absence, "kennedy") == ["end", "replace"]
    # the game now goes at its pace: the bot answers, no deadline waits for Nixon
    before = _game_now(db_engine, gid).step
    _advance(db_engine, gid, set(), now,
             stop=lambda: _game_now(db_engine, gid).step > before + 20, limit=2000)
    with Session(db_engine) as session:
        game = session.get(Game, gid)
        assert ratings._unrated(session, game)


def test_a_replacement_takes_the_seat_and_is_asked(db_engine):
    gid, users = _game(db_engine)
    now = _silent_after(db_engine, gid, "nixon", utcnow())
    with Session(db_engine) as session:
        done = absences.choose(session, gid, "kennedy", "replace",
                               invite_email="cleo@example.org")
        cleo = proven_user(session, "cleo@example.org", "Cleo")
        dee = proven_user(session, "d@example.org")
        ann = session.get(User, users["kennedy"])
        with pytest.raises(AbsenceError) as refused:   # a player of the game cannot take it
            absences.take_seat(session, gid, done.code, ann)
        assert refused.value.status == 409
        with pytest.raises(AbsenceError):
            absences.take_seat(session, gid, "not-the-code", cleo)
        assert absences.take_seat(session, gid, done.code, cleo) == "nixon"
        cleo_id = cleo.id
        with pytest.raises(AbsenceError) as again:   # the code works once
            absences.take_seat(session, gid, done.code, dee)
        assert again.value.status == 410
    invitation = _kinds(db_engine, gid, "absence_invitation")
    assert [(p["email"], p["seat"]) for p in invitation] == [("cleo@example.org", "nixon")]
    with Session(db_engine) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == gid,
                                               Seat.seat == "nixon")).one()
        assert seat.user_id == cleo_id and seat.missed_in_a_row == 0
    assert _absence(db_engine, gid, "nixon").status == "replaced"
    # Cleo plays on: the count of missed deadlines is hers from 0
    _advance(db_engine, gid, set(), now, stop=lambda: _own_orders(db_engine, gid) >= 30)


def test_refusals_say_why_and_what_may_be_chosen(db_engine):
    gid, _users = _game(db_engine)
    with Session(db_engine) as session, pytest.raises(AbsenceError) as none:
        absences.choose(session, gid, "kennedy", "claim")
    assert "waiting" in none.value.message
    _silent_after(db_engine, gid, "nixon", utcnow())
    with Session(db_engine) as session:
        with pytest.raises(AbsenceError) as unknown:
            absences.choose(session, gid, "kennedy", "surrender")
        assert unknown.value.status == 400
        assert unknown.value.allowed == ["claim", "end", "bot", "replace"]
        with pytest.raises(AbsenceError) as own:
            absences.choose(session, gid, "nixon", "claim")
        assert own.value.status == 403
    assert _game_now(db_engine, gid).status == "active"


# --- a player who leaves -------------------------------------------------------------------
def test_a_departed_1960_player_leaves_the_choice_to_the_other(db_engine):
    gid, users = _game(db_engine)
    with Session(db_engine) as session:
        account_deletion.delete_account(session, users["nixon"], "bob@example.org",
                                        hand_over=True)
    absence = _absence(db_engine, gid, "nixon")
    assert (absence.reason, absence.status, absence.bot) == ("left", "open", None)
    assert [p["event"] for p in _kinds(db_engine, gid, "absence")] == ["left"]
    with Session(db_engine) as session:
        assert absences.choose(session, gid, "kennedy", "claim").done == "claimed"
    game = _game_now(db_engine, gid)
    assert game.result["winner"] == "kennedy" and "left the game" in game.result["reason"]


@pytest.mark.parametrize("players", [3, 4])
def test_a_departed_mr_president_player_is_played_by_a_bot_at_once(db_engine, players):
    names = ("ann", "bob", "cy", "dee")[:players]
    gid, users = _game(db_engine, "mrpresident", {"players": players}, names)
    seats = list(users)
    gone = seats[1]
    with Session(db_engine) as session:
        account_deletion.delete_account(session, users[gone], f"{names[1]}@example.org",
                                        hand_over=True)
    absence = _absence(db_engine, gid, gone)
    assert absence.reason == "left" and absence.bot is not None and absence.bot_by is None
    assert _game_now(db_engine, gid).bots == {gone: absence.bot}
    assert [p["event"] for p in _kinds(db_engine, gid, "absence")] == ["left", "bot"]
    with Session(db_engine) as session:
        game = session.get(Game, gid)
        assert absences.choices_for(session, game, absence, seats[0]) == ["end", "replace"]
        with pytest.raises(AbsenceError) as claim:   # no claimed win among three or four
            absences.choose(session, gid, seats[0], "claim", seat=gone)
        assert claim.value.allowed == ["end", "replace"]
    # the game goes on: the bot plays its seat in every round
    now = _advance(db_engine, gid, set(), utcnow(),
                   stop=lambda: _game_now(db_engine, gid).step > 12)
    assert _game_now(db_engine, gid).status in ("active", "finished")
    # every present player must ask to end it unrated
    others = [s for s in seats if s != gone]
    with Session(db_engine) as session:
        for seat in others[:-1]:
            assert absences.choose(session, gid, seat, "end").done == "asked_end"
        assert _game_now(db_engine, gid).status == "active"
        assert absences.choose(session, gid, others[-1], "end").done == "ended"
    game = _game_now(db_engine, gid)
    assert game.status == "finished" and game.result["rated"] is False


def test_a_replacement_takes_a_mr_president_seat_from_its_bot(db_engine):
    gid, users = _game(db_engine, "mrpresident", {"players": 3}, ("ann", "bob", "cy"))
    with Session(db_engine) as session:
        account_deletion.delete_account(session, users["p3"], "cy@example.org",
                                        hand_over=True)
        code = absences.choose(session, gid, "p1", "replace").code
        dee = proven_user(session, "dee@example.org", "Dee")
        assert absences.take_seat(session, gid, code, dee) == "p3"
    game = _game_now(db_engine, gid)
    assert game.bots == {}
    # the seat's decision now is asked of Dee, not the bot
    asked = [p for p in _kinds(db_engine, gid, "your_decision") if p["seat"] == "p3"]
    assert asked and asked[-1]["step"] == game.step


# --- nobody acts ---------------------------------------------------------------------------
def test_a_game_nobody_plays_ends_unrated_after_the_operators_longest_life(db_engine):
    gid, _users = _game(db_engine)
    start = aware(_game_now(db_engine, gid).created_at)
    now = _advance(db_engine, gid, {"kennedy", "nixon"}, start,
                   stop=lambda: _missed(db_engine, gid, "kennedy") >= 1
                   and _missed(db_engine, gid, "nixon") >= 1)
    assert absences.sweep(db_engine, start + 29 * DAY, days=30) == []
    assert absences.sweep(db_engine, start + 31 * DAY, days=0) == []     # 0: never
    assert absences.sweep(db_engine, start + 31 * DAY, days=30) == [gid]
    game = _game_now(db_engine, gid)
    assert game.status == "finished" and game.result["termination"] == "abandoned"
    assert game.result["rated"] is False and "30 days" in game.result["reason"]
    assert [p["event"] for p in _kinds(db_engine, gid, "absence")][-1] == "abandoned"
    assert absences.sweep(db_engine, start + 32 * DAY, days=30) == []    # once


def test_a_game_played_lately_or_paused_is_not_ended(db_engine):
    """Three games begun 40 days ago: one played today, one paused by its players, one
    nobody played: only the last one ends."""
    played, _ = _game(db_engine)
    paused, _ = _game(db_engine, names=("cy", "dee"))
    idle, _ = _game(db_engine, names=("eve", "fay"))
    now = utcnow()
    with Session(db_engine) as session:
        for gid in (played, paused, idle):
            game = session.get(Game, gid)
            game.created_at = now - 40 * DAY
            session.add(game)
        session.add(GamePause(game_id=paused, asked_by="kennedy", step=1, status="paused",
                              agreed=["kennedy", "nixon"], asked_at=now - 35 * DAY))
        session.commit()
    _advance(db_engine, played, set(), now, stop=lambda: _own_orders(db_engine, played) >= 2)
    assert absences.sweep(db_engine, now + DAY, days=30) == [idle]


def test_a_silent_mr_president_player_is_found_absent_and_a_bot_takes_the_seat(db_engine):
    gid, users = _game(db_engine, "mrpresident", {"players": 3}, ("ann", "bob", "cy"))
    now = _silent_after(db_engine, gid, "p2", utcnow())
    absence = _absence(db_engine, gid, "p2")
    assert (absence.reason, absence.bot is not None) == ("silent", True)
    assert _game_now(db_engine, gid).bots == {"p2": absence.bot}
    assert [p["event"] for p in _kinds(db_engine, gid, "absence")] == ["silent", "bot"]
    # the game goes on without waiting for p2's deadlines: the bot answers
    before = _game_now(db_engine, gid).step
    _advance(db_engine, gid, {"p2"}, now, stop=lambda: _game_now(db_engine, gid).step > before + 6)
    with Session(db_engine) as session:
        assert not session.exec(select(AutoOrder).where(
            AutoOrder.game_id == gid, AutoOrder.seat == "p2",
            AutoOrder.step > before)).all()   # no deadline waited for p2 since
    # the silent player takes the seat back from the bot
    with Session(db_engine) as session:
        bob = session.get(User, users["p2"])
        assert absences.come_back(session, gid, bob) == "p2"
    assert _game_now(db_engine, gid).bots == {}
    assert _absence(db_engine, gid, "p2").status == "returned"


def test_a_bots_moves_keep_no_game_alive(db_engine):
    """A game against a bot whose person stopped playing: the bot's orders and the deadline's
    defaults are nobody's own, so the game ends at the operator's longest life."""
    gid, _users = _game(db_engine)
    with Session(db_engine) as session:
        game = session.get(Game, gid)
        game.bots = {"nixon": "random"}
        game.created_at = utcnow() - 40 * DAY
        session.add(game)
        session.commit()
    _advance(db_engine, gid, {"kennedy"}, utcnow(),
             stop=lambda: _missed(db_engine, gid, "kennedy") >= 1, limit=2000)
    assert _own_orders(db_engine, gid) > 0            # the bot and the defaults played
    assert absences.sweep(db_engine, utcnow() + DAY, days=30) == [gid]


def test_a_replacement_address_is_checked_once_for_every_channel(db_engine):
    """The service refuses an address that is none, or that no mail can reach (a reserved
    domain), whatever channel typed it, changing nothing (issue 46)."""
    gid, _users = _game(db_engine)
    _silent_after(db_engine, gid, "nixon", utcnow())
    for typed, words in (("not an address", "is not a mail address"),
                         ("someone@nowhere.invalid", "reserved domain")):
        with Session(db_engine) as session, pytest.raises(AbsenceError) as refused:
            absences.choose(session, gid, "kennedy", "replace", invite_email=typed)
        assert refused.value.status == 422 and words in str(refused.value)
    assert _absence(db_engine, gid, "nixon").invite_token_hash is None
    assert _kinds(db_engine, gid, "absence_invitation") == []
    with Session(db_engine) as session:
        absences.choose(session, gid, "kennedy", "replace", invite_email=" Cleo@Example.org ")
    assert _kinds(db_engine, gid, "absence_invitation")[0]["email"] == "cleo@example.org"

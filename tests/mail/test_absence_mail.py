"""Departed and vanished players by mail (issue 46, item 1): the "absence" mails over real SMTP,
their signed choice links (GET shows a button, only POST chooses, once), the choices by reply
through the real reply path in en/ja/es, and the replacement's invitation mail.
(The service itself: tests/server/test_absences.py; the rendering: test_templates.py and
test_mail_persons.py.)"""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from server import db
from server.mail import reply_address
from server.models import Game, SeatAbsence, User, utcnow
from server.services import absence_links, absences, account_deletion, bots, lobby
from server.services import games as svc
from tests.mail.test_replies import game, handle, reply  # noqa: F401
from tests.players import proven_user
from tests.web.pages_helpers import csrf, path_of

LINK = re.compile(r"(https?://\S+/games/\d+/absence/[\w.\-]+)")
TAKE_SEAT = re.compile(r"(https?://\S+/games/(\d+)/take-seat/([\w\-]+))")


@pytest.fixture
def app(tmp_path, smtp_catcher):
    """As tests/mail/test_replies.py's, every mail sent at once (no page is watched here:
    PRESENCE_DELAY_SECONDS 0)."""
    from server.app import create_app
    from workers import tasks  # noqa: F401  (the tasks the outbox names, run inline)
    from workers.celery_app import celery

    url = f"sqlite:///{tmp_path / 'absence.db'}"
    db.migrate(url)
    app = create_app({"DATABASE_URL": url, "VAR_DIR": str(tmp_path / "var"),
                      "MAIL_SMTP_PORT": smtp_catcher.port, "BROKER_URL": "filesystem://",
                      "BROKER_DIR": str(tmp_path / "broker"), "PRESENCE_DELAY_SECONDS": 0})
    saved = celery.conf.task_always_eager
    celery.conf.task_always_eager = True
    with app.app_context():
        yield app
    celery.conf.task_always_eager = saved
    app.extensions["whistlestop.db"].dispose()


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch):
    """The strongest bot (the one a seat is handed to) on a test's budget."""
    monkeypatch.setitem(bots.BUDGETS, "strong", {"iterations": 6})


def _text(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def _absence_mails(smtp_catcher, address: str, words: str = "") -> list:
    """The "absence" mails to ``address`` (those with ``words`` in their text)."""
    return [m for m in smtp_catcher.to(address)
            if "/absence/" in _text(m) or words and words in _text(m)]


def _leave(user_id: int, email: str) -> None:
    with Session(db.get_engine()) as s:
        account_deletion.delete_account(s, user_id, email, hand_over=True)


def _absence(gid: int) -> SeatAbsence:
    with Session(db.get_engine()) as s:
        row = s.exec(select(SeatAbsence).where(SeatAbsence.game_id == gid)
                     .order_by(SeatAbsence.id.desc())).first()
        s.expunge(row)
        return row


def _game(gid: int) -> Game:
    with Session(db.get_engine()) as s:
        row = s.get(Game, gid)
        s.expunge(row)
        return row


def _set_locale(user_id: int, locale: str) -> None:
    with Session(db.get_engine()) as s:
        user = s.get(User, user_id)
        user.locale = locale
        s.add(user)
        s.commit()


def _links(mail) -> dict[str, str]:
    """{choice: link} of an absence mail, read from the links' tokens."""
    found = {}
    for url in LINK.findall(_text(mail)):
        data = absence_links._serializer("x").loads_unsafe(url.rsplit("/", 1)[1])[1]
        found[data["c"]] = url
    return found


def _as_jack(app, game, mail):
    """Reply as Kennedy's player (Jack) to ``mail``."""
    return {**game, "seat": "kennedy", "mail": mail,
            "address": reply_address.address(app.config["SECRET_KEY"],
                                             app.config["MAIL_DOMAIN"], game["id"], "kennedy",
                                             game["user"]["kennedy"])}


# --- a departed 1960 player --------------------------------------------------------------------
def test_a_departed_player_s_opponent_gets_the_four_choices_and_each_link_acts_once(
        app, game, smtp_catcher):
    gid, jack = game["id"], game["email"]["kennedy"]
    _leave(game["user"]["nixon"], game["email"]["nixon"])
    [mail] = _absence_mails(smtp_catcher, jack)
    text, html = _text(mail), mail.get_body(("html",)).get_content()
    assert "The player of Nixon has left the game: they deleted their account." in text
    links = _links(mail)
    assert list(links) == ["claim", "end", "bot", "replace"]
    for choice, url in links.items():
        assert url in html.replace("&amp;", "&")
    for words in ("claim win", "end game", "bot", "replace"):
        assert f"(or reply with: {words}" in text
    client = app.test_client()
    # Opening each link (a mail scanner, a preview) changes nothing.
    for url in links.values():
        shown = client.get(path_of(url))
        assert shown.status_code == 200 and "Yes: " in shown.get_data(as_text=True)
    token = csrf(shown.data)   # this browser's, for a post the page no longer offers
    assert _absence(gid).status == "open" and _absence(gid).bot is None
    assert _game(gid).status == "active"

    def post(url, **form):
        page = client.get(path_of(url))
        token = csrf(page.data) if page.status_code == 200 else ""
        return client.post(path_of(url), data={"csrf_token": token, **form})

    # An invitation without an address: the page shows the link to pass on; once only.
    invited = post(links["replace"])
    assert invited.status_code == 200
    [(url, in_game, code)] = TAKE_SEAT.findall(invited.get_data(as_text=True))
    assert int(in_game) == gid
    again = client.post(path_of(links["replace"]), data={"csrf_token": token})
    assert again.status_code == 409 and "has been invited" in again.get_data(as_text=True)
    # A bot for the seat: once.
    assert post(links["bot"]).status_code == 200
    assert _absence(gid).bot is not None
    twice = client.post(path_of(links["bot"]), data={"csrf_token": token})
    assert twice.status_code == 409
    assert "A bot already plays this seat." in twice.get_data(as_text=True)
    # No claimed win while a bot plays the seat; ending it unrated ends it.
    refused = client.get(path_of(links["claim"]))
    assert refused.status_code == 409 and "two-player game" in refused.get_data(as_text=True)
    assert post(links["end"]).status_code == 200
    game_now = _game(gid)
    assert game_now.status == "finished" and game_now.result["rated"] is False
    settled = client.post(path_of(links["end"]), data={"csrf_token": token})
    assert settled.status_code == 409 and "settled already" in settled.get_data(as_text=True)


def test_a_link_for_another_player_s_seat_or_a_damaged_one_is_refused(app, game,
                                                                      smtp_catcher):
    gid = game["id"]
    _leave(game["user"]["nixon"], game["email"]["nixon"])
    [mail] = _absence_mails(smtp_catcher, game["email"]["kennedy"])
    client = app.test_client()
    # Jack's link made out to a seat he does not hold: refused, saying why.
    forged = absence_links.url("", gid, absence_links.make(app.config["SECRET_KEY"],
                               absence_links.Link(gid, _absence(gid).id, "nixon",
                                                  game["user"]["kennedy"], "claim")))
    answer = client.get(forged)
    assert answer.status_code == 403
    assert "the player who held the seat then" in answer.get_data(as_text=True)
    damaged = client.get(path_of(_links(mail)["claim"]) + "x")
    assert damaged.status_code == 400 and "damaged" in damaged.get_data(as_text=True)
    assert _game(gid).status == "active"


# --- a vanished player -------------------------------------------------------------------------
def test_a_silent_player_s_opponent_and_the_player_are_mailed(app, game, smtp_catcher):
    from tests.server.test_absences import _silent_after

    gid = game["id"]
    _silent_after(db.get_engine(), gid, "nixon", utcnow())
    [other] = _absence_mails(smtp_catcher, game["email"]["kennedy"])
    text = _text(other)
    assert "“Dick”, who plays Nixon, has missed 2 deadlines in a row" in text
    assert list(_links(other)) == ["claim", "end", "bot", "replace"]
    [own] = _absence_mails(smtp_catcher, game["email"]["nixon"], "deadlines in a row")
    own_text = _text(own)
    assert "You have missed 2 deadlines in a row in this game" in own_text
    assert "claim the win" in own_text and "you are back" in own_text
    assert "who plays Nixon" not in own_text and "“Dick”" not in own_text
    assert not LINK.search(own_text)   # nothing for the absent player to choose


# --- choices by reply --------------------------------------------------------------------------
@pytest.mark.parametrize("locale,body", [
    ("en", "claim win\n\nThanks for the game, Dick - sorry to see you go."),
    ("ja", "勝利を申告\n\n対局ありがとうございました。またどこかで。"),
    ("es", "Reclamar la victoria\n\nGracias por la partida, Dick. ¡Suerte!"),
])
def test_a_reply_claims_the_win_in_the_reader_s_language(app, game, smtp_catcher, locale,
                                                         body):
    gid, jack = game["id"], game["email"]["kennedy"]
    _set_locale(game["user"]["kennedy"], locale)
    _leave(game["user"]["nixon"], game["email"]["nixon"])
    [mail] = _absence_mails(smtp_catcher, jack)
    before = len(smtp_catcher.to(jack))
    assert handle(app, reply(_as_jack(app, game, mail), body)) == "order"
    game_now = _game(gid)
    assert game_now.status == "finished" and game_now.result["winner"] == "kennedy"
    assert game_now.result["forfeited"] == "nixon"
    answers = [m for m in smtp_catcher.to(jack)[before:]
               if m["In-Reply-To"] and "/games/" in _text(m)
               and ({"en": "You claimed the win", "ja": "勝利を申告しました",
                     "es": "Has reclamado la victoria"}[locale] in _text(m))]
    assert len(answers) == 1


def test_replies_end_the_game_hand_the_seat_to_a_bot_and_invite_a_replacement(
        app, game, smtp_catcher):
    gid, jack = game["id"], game["email"]["kennedy"]
    _leave(game["user"]["nixon"], game["email"]["nixon"])
    [mail] = _absence_mails(smtp_catcher, jack)
    as_jack = _as_jack(app, game, mail)
    # "replace" with an address: the invitation reaches it, with the take-seat URL.
    assert handle(app, reply(as_jack, "replace <ann@example.org>\nAnn is keen to play.")) \
        == "order"
    [invitation] = smtp_catcher.to("ann@example.org")
    text = _text(invitation)
    assert "“Jack” invites you to take over Nixon in 1960 game" in text
    [(url, in_game, code)] = TAKE_SEAT.findall(text)
    assert url == f"{app.config['BASE_URL']}/games/{gid}/take-seat/{code}"
    assert "Kennedy" not in text and "electoral" not in text   # nothing of the game's state
    # "bot": a bot plays the seat; a second "bot" is answered with why not and the choices.
    assert handle(app, reply(as_jack, "bot")) == "order"
    assert _absence(gid).bot is not None
    before = len(smtp_catcher.to(jack))
    assert handle(app, reply(as_jack, "Bot.\nIs it done?")) == "order"
    [refusal] = [m for m in smtp_catcher.to(jack)[before:] if "not done" in _text(m)]
    text = _text(refusal)
    assert "Your reply “Bot.” was not done: A bot already plays this seat." in text
    assert list(_links(refusal)) == ["end", "replace"]
    assert refusal["In-Reply-To"]
    # "end game": ended at once with two seats, unrated.
    assert handle(app, reply(as_jack, "End game")) == "order"
    game_now = _game(gid)
    assert game_now.status == "finished" and game_now.result["rated"] is False
    # The invitation is no longer good.
    with Session(db.get_engine()) as s:
        ann = proven_user(s, "ann@example.org", "Ann")
        with pytest.raises(absences.AbsenceError):
            absences.take_seat(s, gid, code, ann)


def test_an_invited_replacement_takes_the_seat_with_the_mail_s_code(app, game,
                                                                    smtp_catcher):
    gid = game["id"]
    _leave(game["user"]["nixon"], game["email"]["nixon"])
    [mail] = _absence_mails(smtp_catcher, game["email"]["kennedy"])
    assert handle(app, reply(_as_jack(app, game, mail), "replace bea@example.org")) == "order"
    [(_url, _gid, code)] = TAKE_SEAT.findall(_text(smtp_catcher.to("bea@example.org")[0]))
    with Session(db.get_engine()) as s:
        bea = proven_user(s, "bea@example.org", "Bea")
        assert absences.take_seat(s, gid, code, bea) == "nixon"
    assert any("“Bea” plays Nixon from now on" in _text(m)
               for m in smtp_catcher.to(game["email"]["kennedy"]))


# --- Mr. President with three or four seats --------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_mr_president_others_are_told_left_then_bot_and_offered_no_claim(app, smtp_catcher,
                                                                         players):
    names = ("ann", "bob", "cy", "dee")[:players]
    seats = lobby.seats_of("mrpresident", {"players": players})
    with Session(db.get_engine()) as s:
        people = [proven_user(s, f"{n}@example.org", n.title()) for n in names]
        gid = svc.create_game(s, "mrpresident", {"players": players},
                              {seat: u.id for seat, u in zip(seats, people)},
                              seed="absent-mail", created_by=people[0].id).id
        ids = [u.id for u in people]
    _leave(ids[1], "bob@example.org")
    for name in names[:1] + names[2:]:
        mails = [m for m in smtp_catcher.to(f"{name}@example.org")
                 if "has left the game" in _text(m) or "A bot plays" in _text(m)]
        texts = [_text(m) for m in mails]
        assert len(texts) == 2, texts
        assert "The player of Candidate 2 has left the game" in texts[0]
        assert "A bot plays Candidate 2 from now on" in texts[1]
        for mail in mails:
            assert "Claim the win" not in _text(mail)
            assert set(_links(mail)) <= {"end", "replace"}
        assert set(_links(mails[-1])) == {"end", "replace"}


def test_a_silent_player_who_plays_again_is_back_and_the_other_is_told(app, game,
                                                                      smtp_catcher):
    from tests.server.test_absences import _advance, _silent_after

    gid, engine = game["id"], db.get_engine()
    now = _silent_after(engine, gid, "nixon", utcnow())
    _advance(engine, gid, set(), now, stop=lambda: _absence(gid).status != "open")
    assert _absence(gid).status == "returned"
    back = [m for m in smtp_catcher.to(game["email"]["kennedy"])
            if "is back" in _text(m)]
    assert len(back) == 1
    assert "“Dick”, who plays Nixon, is back: the seat is theirs again." in _text(back[0])
    assert not LINK.search(_text(back[0]))   # nothing left to choose
    assert not [m for m in smtp_catcher.to(game["email"]["nixon"]) if "is back" in _text(m)]


def test_a_game_nobody_plays_is_ended_and_every_player_told(app, game, smtp_catcher):
    from datetime import timedelta

    with Session(db.get_engine()) as s:
        absences.abandon(s, s.get(Game, game["id"]), utcnow() + timedelta(days=31), 30)
        s.commit()
    for seat in ("kennedy", "nixon"):
        told = [m for m in smtp_catcher.to(game["email"][seat])
                if "Nobody had given an order in this game for 30 days: it was ended unrated."
                in _text(m)]
        assert len(told) == 1, seat


def test_a_choice_by_reply_with_nobody_absent_is_answered_with_why(app, game, smtp_catcher):
    jack = game["email"]["kennedy"]
    mail = smtp_catcher.to(jack)[-1]
    before = len(smtp_catcher.to(jack))
    assert handle(app, reply(_as_jack(app, game, mail), "claim win")) == "order"
    [answer] = smtp_catcher.to(jack)[before:]
    assert ("Your reply “claim win” was not done: No seat of this game is waiting for its "
            "players' choice.") in _text(answer)
    assert _game(game["id"]).status == "active"

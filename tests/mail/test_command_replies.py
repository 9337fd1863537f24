"""Replies that forgive, for every command (issue 46, item 3): a reply whose first line is a
pause, extension, take-back or settings command, or a reply to a table-talk mail, followed by a
human sentence, a sign-off, a signature or footer and the quoted mail, as Gmail, Outlook, Apple
Mail and Thunderbird write them in English, Japanese and Spanish (and as the corpus's real
mails of each language do: tests/mail/inbound/command_corpus.py), is honoured, and told; the
human text is not read. A reply whose first line is neither an order nor a command is refused,
nothing changed, saying what would be legal and which commands a reply may carry - never
naming a verb only chance uses (over both games). Real SMTP for the answers (the suite's
aiosmtpd catcher), the real reply path (replies.handle)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from sqlmodel import Session, select

from engine.core.driver import advance_chance, play_random
from engine.core import MalformedAction
from engine.core.protocol import CHANCE
from engine.core.registry import new_game
from server import db
from server.i18n import gettext
from server.mail import chat_address, reply_address
from server.mail.inbound import read_reply
from server.models import (ChatMessage, Extension, GamePause, InboundMail, MailSent,
                           User)
from server.services import games as svc
from tests.mail.inbound import command_corpus
from tests.mail.test_replies import app, handle, state_of  # noqa: F401 (fixture)
from tests.players import proven_user

LOCALES = ("en", "ja", "es")
# The commands as a player of each language writes them.
WORDS = {
    "en": {"pause": "pause", "pause no": "Pause no", "extend": "extend",
           "extend yes": "Extend yes.", "take back": "TAKE BACK",
           "timezone": "timezone Asia/Tokyo", "chat": "Good luck to you too!"},
    "ja": {"pause": "中断", "pause no": "中断 いいえ", "extend": "延長",
           "extend yes": "延長　はい", "take back": "取り消し",
           "timezone": "タイムゾーン Asia/Tokyo", "chat": "こちらこそ、よろしく！"},
    "es": {"pause": "pausa", "pause no": "Pausa no", "extend": "prórroga",
           "extend yes": "prorroga si", "take back": "RETIRAR",
           "timezone": "zona horaria Asia/Tokyo", "chat": "¡Suerte a ti también!"},
}
# Each command's test uses each client in turn, so that every language meets every client.
CASES = [(locale, client) for locale in LOCALES for client in command_corpus.CLIENTS]


def _table(app, smtp_catcher, locale: str, game_type: str = "tmotp", options=None) -> dict:
    """A started game whose players read mail in ``locale``; the first seat asked."""
    with Session(db.get_engine()) as s:
        seats = ("kennedy", "nixon") if game_type == "tmotp" else ("p1", "p2", "p3")
        players = {}
        for n, seat in enumerate(seats):
            user = proven_user(s, f"{seat}@example.org", ["Jack", "Dick", "Nelson"][n])
            user.locale = locale
            s.add(user)
            s.commit()
            players[seat] = user.id
        g = svc.create_game(s, game_type, options or {}, players, seed="commands",
                            created_by=players[seats[0]])
        state = svc._load(g)
        emails = {seat: s.get(User, uid).email for seat, uid in players.items()}
        info = {"id": g.id, "step": g.step, "seats": seats, "user": players, "email": emails,
                "active": state.active(), "legal": {seat: state.legal_actions(seat)
                                                     for seat in state.active()}}
    return info


def _mail_to(app, smtp_catcher, table: dict, seat: str):
    """The latest mail to the seat that a reply to the seat's address answers."""
    mails = [m for m in smtp_catcher.to(table["email"][seat])
             if m["Reply-To"] and m["Reply-To"].startswith("r+")]
    return mails[-1]


def _send(app, smtp_catcher, table: dict, seat: str, command: str, locale: str,
          client: str, to: str | None = None, mail=None) -> str:
    mail = mail if mail is not None else _mail_to(app, smtp_catcher, table, seat)
    to = to or reply_address.address(app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"],
                                     table["id"], seat, table["user"][seat])
    raw = command_corpus.reply(client, locale, command, sender=table["email"][seat], to=to,
                               mail=mail)
    return handle(app, raw)


def _refusals(smtp_catcher, table: dict, seat: str, locale: str) -> list[str]:
    """The answers to the seat's replies that changed nothing."""
    nothing = gettext("Nothing was changed: %(reason)s", locale).split("%(reason)s")[0]
    return [t for t in (m.get_body(("plain",)).get_content()
                        for m in smtp_catcher.to(table["email"][seat])) if nothing in t]


def _told_asked(smtp_catcher, table: dict, seat: str, locale: str) -> bool:
    """Whether the seat's reply asking a pause or more time was answered that it was asked."""
    asked = gettext("Asked: %(command)s. The other players are asked to answer; a mail will "
                    "tell you their answer.", locale).split("%(command)s")[0]
    return any(asked in m.get_body(("plain",)).get_content()
               for m in smtp_catcher.to(table["email"][seat]))


def _kinds(table: dict, seat: str) -> list[str]:
    with Session(db.get_engine()) as s:
        return list(s.exec(select(MailSent.kind).where(MailSent.game_id == table["id"],
                                                       MailSent.recipient == seat)
                           .order_by(MailSent.id)).all())


def _outcome() -> dict:
    with Session(db.get_engine()) as s:
        return s.exec(select(InboundMail).order_by(InboundMail.id.desc())).first().outcome


@pytest.mark.parametrize("locale, client", CASES)
def test_the_reader_keeps_the_command_and_the_sentence_only(locale, client):
    """The reply as each client writes it reads as the command and the human sentence: the
    sign-off, the name, the signature or footer and the quote are left out."""
    from email.message import EmailMessage
    ours = EmailMessage()
    ours["From"], ours["Subject"] = "Whistlestop <r+1-kennedy-0@example.org>", "Game #1"
    ours["Message-ID"] = "<ours@example.org>"
    ours.set_content("Your decision now (step 3):\nplay 5 campaign\npass\n")
    raw = command_corpus.reply(client, locale, WORDS[locale]["pause no"],
                               sender="jack@example.org", to="r+1-kennedy-0@example.org",
                               mail=ours)
    reply = read_reply(raw, "example.org")
    sentence = command_corpus.HUMAN[locale][0]
    assert [line.replace("\u3000", " ") for line in reply.lines] == \
        [WORDS[locale]["pause no"].replace("\u3000", " "), sentence], reply.lines


@pytest.mark.parametrize("locale, client", CASES)
def test_a_pause_asked_and_refused_by_replies_with_human_text(app, smtp_catcher, locale,
                                                              client):
    table = _table(app, smtp_catcher, locale)
    asker, other = table["seats"]
    played = state_of({"id": table["id"]})
    assert _send(app, smtp_catcher, table, asker, WORDS[locale]["pause"], locale,
                 client) == "order"
    with Session(db.get_engine()) as s:
        assert s.exec(select(GamePause.status)).one() == "asked"
    assert "pause" in _kinds(table, other)  # the other player is asked to agree
    assert _told_asked(smtp_catcher, table, asker, locale)  # the asker is answered
    assert _send(app, smtp_catcher, table, other, WORDS[locale]["pause no"], locale,
                 client) == "order"
    with Session(db.get_engine()) as s:
        assert s.exec(select(GamePause.status)).one() == "refused"
    assert _kinds(table, asker).count("pause") == 1  # told it was refused
    assert not _refusals(smtp_catcher, table, asker, locale)
    assert not _refusals(smtp_catcher, table, other, locale)
    assert state_of({"id": table["id"]}) == played  # no order was read


@pytest.mark.parametrize("locale, client", CASES)
def test_an_extension_asked_and_granted_by_replies_with_human_text(app, smtp_catcher, locale,
                                                                   client):
    table = _table(app, smtp_catcher, locale)
    asker = table["active"][0]
    other = next(seat for seat in table["seats"] if seat != asker)
    assert _send(app, smtp_catcher, table, asker, WORDS[locale]["extend"], locale,
                 client) == "order"
    assert _told_asked(smtp_catcher, table, asker, locale)
    assert _send(app, smtp_catcher, table, other, WORDS[locale]["extend yes"], locale,
                 client) == "order"
    with Session(db.get_engine()) as s:
        assert s.exec(select(Extension.status)).one() == "granted"
    assert _kinds(table, asker).count("extension") == 1  # told it was granted
    assert not _refusals(smtp_catcher, table, asker, locale)
    assert not _refusals(smtp_catcher, table, other, locale)


@pytest.mark.parametrize("locale, client", CASES)
def test_take_back_with_human_text_is_read_as_take_back(app, smtp_catcher, locale, client):
    table = _table(app, smtp_catcher, locale)
    seat = table["active"][0]
    assert _send(app, smtp_catcher, table, seat, WORDS[locale]["take back"], locale,
                 client) == "order"
    assert _outcome()["kind"] == "retract"  # read as the command (the answer says why)
    [answer] = [t for t in (m.get_body(("plain",)).get_content()
                            for m in smtp_catcher.to(table["email"][seat]))
                if WORDS[locale]["take back"] in t.split("\n", 3)[1]
                or "> " + WORDS[locale]["take back"] in t]
    assert "is not an action" not in answer


@pytest.mark.parametrize("locale, client", CASES)
def test_a_timezone_line_with_human_text_sets_the_zone_and_is_told(app, smtp_catcher, locale,
                                                                   client):
    table = _table(app, smtp_catcher, locale)
    seat = table["active"][0]
    before = state_of({"id": table["id"]})
    assert _send(app, smtp_catcher, table, seat, WORDS[locale]["timezone"], locale,
                 client) == "order"
    with Session(db.get_engine()) as s:
        assert s.get(User, table["user"][seat]).time_zone == "Asia/Tokyo"
    assert state_of({"id": table["id"]}) == before
    told = gettext("Your time zone is now %(zone)s: the times in your mails and on the pages "
                   "are in it (your time now: %(now)s).", locale).split("%(zone)s")[0]
    answers = [m.get_body(("plain",)).get_content()
               for m in smtp_catcher.to(table["email"][seat])]
    assert any(told in t and "Asia/Tokyo" in t for t in answers)
    assert not _refusals(smtp_catcher, table, seat, locale)


@pytest.mark.parametrize("locale, client", CASES)
def test_a_chat_reply_posts_the_words_without_sign_off_footer_or_quote(app, smtp_catcher,
                                                                       locale, client):
    table = _table(app, smtp_catcher, locale)
    seat = table["seats"][0]
    to = chat_address.address(app.config["SECRET_KEY"], app.config["MAIL_DOMAIN"],
                              table["id"], "players", table["user"][seat])
    mail = _mail_to(app, smtp_catcher, table, seat)
    assert _send(app, smtp_catcher, table, seat, WORDS[locale]["chat"], locale, client,
                 to=to, mail=mail) == "chat"
    with Session(db.get_engine()) as s:
        body = s.exec(select(ChatMessage.body)).one()
    # as written, NFKC-normalised as the reader reads every reply ("！" is "!")
    assert body == unicodedata.normalize(
        "NFKC", f"{WORDS[locale]['chat']}\n{command_corpus.HUMAN[locale][0]}")


# --- refusals never name a verb only chance uses -------------------------------------------
def _chance_only_verbs(game_type: str, options_list) -> set[str]:
    """The verbs random games show only chance applying (found by play, not declared)."""
    by = {}
    for options in options_list:
        for seed in range(4):
            state = play_random(game_type, seed, options=options)
            for seat, action, *_ in state.to_dict()["log"]:
                by.setdefault(action.split()[0], set()).add(seat == CHANCE)
    return {verb for verb, chance in by.items() if chance == {True}}


GAMES = [("tmotp", {}, [{}, {"edition": "zman"}]),
         ("mrpresident", {"edition": "dial", "players": 3, "version": "short"},
          [{}, {"edition": "dial"}])]


@pytest.mark.parametrize("game_type, options, played", GAMES, ids=["1960", "mrpresident"])
@pytest.mark.parametrize("locale", LOCALES)
def test_a_first_line_neither_order_nor_command_is_refused_naming_no_chance_verb(
        app, smtp_catcher, game_type, options, played, locale):
    chance = _chance_only_verbs(game_type, played)
    assert chance  # each game has draws
    table = _table(app, smtp_catcher, locale, game_type, options)
    seat = table["active"][0]
    before = state_of({"id": table["id"]})
    text = "pauze please\nSorry Bob, let's keep it moving."
    assert _send(app, smtp_catcher, table, seat, text, locale, "gmail") == "order"
    assert state_of({"id": table["id"]}) == before
    [refusal] = _refusals(smtp_catcher, table, seat, locale)
    decision = gettext("Your decision now:", locale)
    words = set(re.findall(r"[a-z]+", refusal.split(decision)[0]))
    assert not words & chance, words & chance
    # what would be legal, and the commands a reply may carry, in the reader's words
    assert any(action in refusal for action in table["legal"][seat])
    assert gettext("TAKE BACK", locale) in refusal
    assert gettext("pause", locale) in refusal and gettext("extend", locale) in refusal


@pytest.mark.parametrize("game_type, options", [(g, o) for g, o, _ in GAMES])
def test_the_engine_names_no_chance_verb_when_it_refuses_a_word(game_type, options):
    chance = _chance_only_verbs(game_type, [options])
    state = new_game(game_type, seed="refusal", options=options)
    advance_chance(state)
    seat = state.active()[0]
    with pytest.raises(MalformedAction) as refused:
        state.parse(seat, "pauze")
    named = set(re.findall(r"[a-z]+", str(refused.value.reason).split("Actions are:")[1]))
    assert named and not named & chance, named & chance


# --- the rulings for commands and orders in one reply ----------------------------------------
def test_a_pause_line_first_is_done_alone_and_an_order_after_it_is_not_read(app, smtp_catcher):
    table = _table(app, smtp_catcher, "en")
    seat = table["active"][0]
    before = state_of({"id": table["id"]})
    order = table["legal"][seat][0]
    assert _send(app, smtp_catcher, table, seat, f"pause\n{order}", "en", "gmail") == "order"
    with Session(db.get_engine()) as s:
        assert s.exec(select(GamePause.status)).one() == "asked"
    assert state_of({"id": table["id"]}) == before  # the order after it was not read
    [answer] = [m.get_body(("plain",)).get_content()
                for m in smtp_catcher.to(table["email"][seat])
                if "your reply was read as" in m.get_body(("plain",)).get_content()]
    assert "The other lines of your reply were not read" in answer
    assert f"> {order}" in answer.split("were not read")[1]


def test_the_writers_words_after_a_setting_are_quoted_as_not_read(app, smtp_catcher):
    table = _table(app, smtp_catcher, "en")
    seat = table["active"][0]
    assert _send(app, smtp_catcher, table, seat, "timezone Asia/Tokyo", "en",
                 "outlook") == "order"
    [answer] = [m.get_body(("plain",)).get_content()
                for m in smtp_catcher.to(table["email"][seat])
                if "your reply was read as" in m.get_body(("plain",)).get_content()]
    assert "Your time zone is now Asia/Tokyo" in answer
    assert "The other lines of your reply were not read" in answer
    assert f"> {command_corpus.HUMAN['en'][0]}" in answer

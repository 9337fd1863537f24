"""Replies read as people write them, end to end (tests/mail/test_replies.py's game and
handling): a sealed step applies the first legal line and quotes the lines it did not read, a
full-width or bottom-posted order is applied, a capitalised order closing a reply is not taken
for a name, and the answer threads under the player's own reply."""

from __future__ import annotations

import random
from email.message import EmailMessage

import pytest
from sqlmodel import Session, select

import engine.core as game_engine
from server import db
from server.mail import replies
from server.models import Game, MailSent
from server.services import games as svc
from tests.mail.inbound.corpus import fullwidth
from tests.mail.test_replies import (answers, app, game, handle, reply, said,  # noqa: F401
                                     state_of)

NOT_READ = "These lines of your reply were not read"


def _answer_to(smtp_catcher, game, message_id: str):
    return next(m for m in smtp_catcher.to(game["email"][game["seat"]])
                if m["In-Reply-To"] == message_id)


def test_the_answer_threads_under_the_players_reply(app, game, smtp_catcher):
    order = game["legal"][0]
    mine = "<jack.1@example.org>"
    assert handle(app, reply(game, order, headers={"Message-ID": mine})) == "order"
    answer = _answer_to(smtp_catcher, game, mine)
    root = game["mail"]["References"].split()[0]
    assert answer["References"].split() == [root, mine]
    assert f"Done: {said(order)}." in answer.get_body(("plain",)).get_content()


def test_a_malformed_message_id_is_not_echoed(app, game, smtp_catcher):
    before = len(smtp_catcher.to(game["email"][game["seat"]]))
    assert handle(app, reply(game, "fly-to-the-moon",
                             headers={"Message-ID": "<" + "x" * 300 + "@example.org>"})) == "order"
    answer = smtp_catcher.to(game["email"][game["seat"]])[before]
    assert answer["In-Reply-To"] == answer["References"] == game["mail"]["References"].split()[0]


def test_a_full_width_order_is_applied(app, game, smtp_catcher):
    order = game["legal"][-1]
    assert handle(app, reply(game, fullwidth(order))) == "order"
    assert state_of(game)[0] == game["step"] + 1
    assert f"Done: {said(order)}." in answers(smtp_catcher, game)[0]


def test_a_bottom_posted_order_is_applied(app, game, smtp_catcher):
    order = game["legal"][0]
    quoted = "\n".join("> " + line for line in
                       game["mail"].get_body(("plain",)).get_content().splitlines())
    msg = EmailMessage()
    msg["From"], msg["To"] = game["email"][game["seat"]], game["address"]
    msg["Subject"] = "Re: " + game["mail"]["Subject"]
    msg["In-Reply-To"] = msg["References"] = game["mail"]["Message-ID"]
    msg.set_content(f"On Mon, 2 Nov 2026 at 10:00, Whistlestop wrote:\n{quoted}\n\n{order}\n\n"
                    "Thanks,\nJack\n")
    assert handle(app, bytes(msg)) == "order"
    assert state_of(game)[0] == game["step"] + 1


def test_a_sign_off_and_a_name_are_not_read_as_orders(app, game, smtp_catcher):
    order = game["legal"][0]
    assert handle(app, reply(game, f"{order}\n\nCheers,\nJack")) == "order"
    (answer,) = answers(smtp_catcher, game)
    assert f"Done: {said(order)}." in answer and "rest of the order" not in answer


@pytest.mark.parametrize(("line", "verb"), [("Pass", True), ("Trigger", True), ("Jack", False),
                                            ("J.", False), ("-Jack Kennedy", False)])
def test_a_lone_capitalised_word_is_an_order_when_the_game_knows_its_verb(line, verb):
    state = game_engine.new_game("tmotp", seed="names")
    assert replies._names_a_verb(state, line) is verb


# --- sealed steps -----------------------------------------------------------------------------

@pytest.fixture
def sealed(app, game, smtp_catcher):
    """The game played on (orders on the web) to a simultaneous step where Kennedy chooses:
    ``game`` with its seat, step, legal orders and decision mail then."""
    rng = random.Random(7)
    engine = db.get_engine()
    for _ in range(500):
        with Session(engine) as s:
            g = s.get(Game, game["id"])
            state = svc._load(g)
            active = state.active()
            if len(active) > 1 and len(state.legal_actions("kennedy")) > 1:
                break
            seat = next(x for x in active if not svc.sealed_actions(s, g.id, g.step, x))
            svc.submit_order(s, g.id, seat, g.step, [rng.choice(state.legal_actions(seat))],
                             by_player=False)
    else:
        raise AssertionError("no simultaneous step")
    with Session(engine) as s:  # the mail that asked this step (a mail names no step)
        asked = {m.message_id for m in s.exec(select(MailSent).where(
            MailSent.game_id == game["id"], MailSent.recipient == "kennedy",
            MailSent.step == g.step))}
    mail = [m for m in smtp_catcher.to(game["email"]["kennedy"])
            if m["Message-ID"] in asked][-1]
    return {**game, "seat": "kennedy", "step": g.step, "mail": mail,
            "legal": state.legal_actions("kennedy")}


def _pending(game):
    with Session(db.get_engine()) as s:
        return svc.sealed_actions(s, game["id"], game["step"], game["seat"])


def test_a_sealed_step_takes_the_first_legal_line_and_quotes_the_others(
        app, sealed, smtp_catcher):
    order = sealed["legal"][1]
    text = f"Hi all,\n{order}\n{sealed['legal'][0]}\nGood luck!\n\nThanks,\nJack"
    assert handle(app, reply(sealed, text)) == "order"
    assert _pending(sealed) == [order]
    answer = answers(smtp_catcher, sealed)[-1]
    assert NOT_READ in answer
    ignored = answer.split(NOT_READ, 1)[1]
    for line in ("> Hi all,", f"> {sealed['legal'][0]}", "> Good luck!"):
        assert line in ignored
    assert "Thanks" not in ignored and "Jack\n" not in ignored


def test_a_sealed_step_with_no_legal_line_is_refused_and_quotes_the_rest(
        app, sealed, smtp_catcher):
    assert handle(app, reply(sealed, "Hi all,\nfly-to-the-moon")) == "order"
    assert _pending(sealed) is None
    answer = answers(smtp_catcher, sealed)[-1]
    assert "Nothing was changed" in answer and NOT_READ in answer
    assert "> fly-to-the-moon" in answer.split(NOT_READ, 1)[1]


def test_a_sequential_step_still_stops_at_its_first_illegal_line(app, game, smtp_catcher):
    before = state_of(game)
    assert handle(app, reply(game, f"Hi all,\n{game['legal'][0]}")) == "order"
    assert state_of(game) == before
    (answer,) = answers(smtp_catcher, game)
    assert "Nothing was changed" in answer and NOT_READ not in answer

"""The mails of a game of Mr. President, built from outbox rows by the same builders as 1960's and
sent to a real SMTP server: every seat told the start with its variant and opponents, each asked
seat its decision with the one-card plays as signed links and the two-card plays by notation,
how many have sealed their orders counted from the server's orders (never who), the other seats
told the resolution, a digest naming the game, and the names in the reader's language."""

from __future__ import annotations

from sqlmodel import Session, select

from server.i18n import game_text
from server.games import presenter
from server.games.mrpresident.summary import variant
from server.models import Game, MailSent
from server.services import games as svc
from server.services import users
from tests.mail.test_delivery import deliver_all
from tests.mail.test_notifications import deliver, set_mode, write

SEATS = ("p1", "p2", "p3")
OPTIONS = {"edition": "dial", "players": 3, "version": "short"}


def new_game(session, seed: str = "mp-mail", locales=("en", "ja", "es")) -> tuple[int, dict]:
    """A started game of three players (the session left with no transaction open); their
    addresses by seat."""
    ids, address = {}, {}
    for seat, locale in zip(SEATS, locales):
        user = users.create_user(session, f"{seat}-{seed}@example.org", seat.upper(), locale)
        ids[seat], address[seat] = user.id, user.email
    gid = svc.create_game(session, "mrpresident", OPTIONS, ids, seed=seed, created_by=ids["p1"]).id
    session.commit()
    return gid, address


def text(mail) -> str:
    return mail.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_the_start_and_the_first_decisions_in_each_readers_language(db_engine, session,
                                                                    smtp_catcher):
    gid, address = new_game(session)
    deliver_all(db_engine, smtp_catcher)
    mails = smtp_catcher.received()
    started = {m["To"]: text(m) for m in mails if "has started" in text(m)
               or "始まりました" in text(m) or "ha comenzado" in text(m)}
    assert set(started) == set(address.values())
    en = started[address["p1"]]
    assert "your game of Mr. President has started (dial edition, popular vote, short " \
           "version, 3 candidates)" in en and "against Candidate 2, Candidate 3" in en
    assert "候補者1、候補者3" in started[address["p2"]]
    assert "Candidato 1, Candidato 2" in started[address["p3"]]
    # Every seat is asked at once, in its thread and its language.
    asked = {m["To"]: m for m in mails if "Reply to this mail with your order" in text(m)
             or "返信" in text(m) or "Responde" in text(m)}
    assert set(asked) == set(address.values())
    assert all("Mr. President" in str(m["Subject"]) for m in asked.values())
    body = text(asked[address["p1"]])
    assert "reply: play 1\n" in body and "reply: play 13\n" in body and "/decide/" in body
    assert "Business Backing (12) · 120 points" in body  # each card by its name and value
    assert "play 1 2\n" not in body and "for example play 1 13" in body
    assert "Sealed choices: 0 of 3 candidates have chosen." in body
    assert "/help/notation/mrpresident" in body


def test_sealed_orders_are_counted_from_the_servers_orders_never_named(db_engine, session,
                                                                      smtp_catcher):
    gid, address = new_game(session, seed="mp-sealed", locales=("en", "en", "en"))
    deliver_all(db_engine, smtp_catcher)
    game = session.get(Game, gid)
    step = game.step
    session.commit()
    svc.submit_order(session, gid, "p1", step, ["play 13 2"])
    session.commit()
    row = write(session, "reminder", {"game_id": gid, "seat": "p2", "step": step,
                                      "number": 1, "of": 1})
    body = text(deliver(session, db_engine, smtp_catcher, row)[0])
    assert "Sealed choices: 1 of 3 candidates have chosen." in body
    assert "Candidate 1: " not in body.split("Scoreboard")[0]    # no word of who, nor what
    assert "13 Full Party Backing" in body  # in p2's own hand: the check can see names
    # (p2's own cards are its choices, listed after the changes: none of p1's sealed cards
    # is named before them)
    assert "Business Backing" not in body.split("Reply to this mail")[0]


def test_a_resolution_tells_the_seats_not_asked(db_engine, session, smtp_catcher):
    gid, address = new_game(session, seed="mp-resolved", locales=("en", "en", "en"))
    game = session.get(Game, gid)
    step = game.step
    session.commit()
    # p1 lays two cards: the others may answer with a second card, p1 is not asked.
    for seat, order in (("p1", "play 13 2"), ("p2", "play 5"), ("p3", "play 6")):
        svc.submit_order(session, gid, seat, step, [order])
    session.commit()
    svc.resolve_step(session, gid, step)
    session.commit()
    row = write(session, "step_resolved", {"game_id": gid, "step": step})
    mails = deliver(session, db_engine, smtp_catcher, row)
    assert [m["To"] for m in mails] == [address["p1"]]
    body = text(mails[0])
    assert "the candidates made their choices at the same time" in body and "revealed" not in body
    assert "Candidate 1 (you): Full Party Backing (13) · face down: Billboards (2)" in body
    assert "Candidate 2: TV Debates (5)" in body
    with Session(db_engine) as s:
        sent = s.exec(select(MailSent).where(MailSent.outbox_id == row)).one()
        assert (sent.kind, sent.step) == ("step_resolved", None)


def test_a_digest_names_the_game(db_engine, session, smtp_catcher):
    gid, address = new_game(session, seed="mp-digest", locales=("es", "en", "en"))
    deliver_all(db_engine, smtp_catcher)
    game = session.get(Game, gid)
    user_id = game.created_by
    session.commit()
    set_mode(session, user_id, "digest")
    row = write(session, "digest", {"user_id": user_id, "day": "2026-11-22"})
    mail = deliver(session, db_engine, smtp_catcher, row)[0]
    assert "Mr. President" in str(mail["Subject"]) or "Mr. President" in text(mail)
    body = text(mail)
    assert "play 13" in body and "play 1 13" in body


def test_mr_presidents_texts_name_its_parties_candidates_and_cards():
    note = ["{party} nominates {seat} for President and {seat_vice} for Vice President.",
            {"party": "democratic", "seat": "p3", "seat_vice": "p4"}]
    def text(value, locale):
        return game_text.text(value, locale, "mrpresident")
    assert text(note, "en").startswith("Democratic Party nominates Candidate 3")
    assert text(note, "ja").startswith("民主党")
    assert text(["The {party} convention is decided.", {"party": "republican"}], "es") == \
        "La convención del Partido Republicano está decidida."
    assert text(note, "es").startswith("El Partido Demócrata nomina")
    assert text(["{seat} turns up {campaign}.", {"seat": "p2", "campaign": 7}], "ja") == \
        "候補者2が列車遊説を公開しました。"  # issue 47: the cards' names in the reader's words
    assert text(["Round {round}: {states} turned up, {n} electoral votes.",
                 {"round": 1, "states": ["DC"], "n": 3}], "en") == \
        "Round 1: District of Columbia turned up, 3 electoral votes."
    assert variant({**OPTIONS, "count": "popular", "nominee": False}, "en") == \
        "dial edition, popular vote, short version, 3 candidates"


def test_a_decision_lists_one_card_plays_and_explains_two():
    legal = ["play 1", "play 1 2", "play 10", "play 10 1", "play 2", "play 2 1", "play 1 10",
             "play 2 10", "play 10 2"]
    mr_president = presenter("mrpresident")

    def choices(legal, laid=()):
        view = {"game": "mrpresident", "seat": "p1", "legal_actions": legal,
                "plays": {"p1": {"cards": list(laid)}}}
        return mr_president.mail_choices(view, "en")

    found = choices(legal)
    (group,) = found["groups"]
    assert [o["action"] for o in group["options"]] == ["play 1", "play 2", "play 10"]
    assert group["options"][2]["label"] == "The Women's Vote (10) · 100 points"
    assert found["pairs"]["example"] == "play 1 10" and found["pairs"]["ordered"] is True
    assert found["pairs"]["cards"][0].endswith("(1) · 10 points")
    chalkboard = choices(["play 3", "play 3 9", "play 9"])
    assert chalkboard["pairs"]["example"] == "play 3 9" and not chalkboard["pairs"]["ordered"]
    second = choices(["second none", "second 12", "second 3"], laid=[5])["groups"][0]
    assert [o["action"] for o in second["options"]] == ["second none", "second 3", "second 12"]
    assert second["options"][0]["label"] == "No second card"
    assert second["options"][1]["label"].endswith("your cards would total 80 points")
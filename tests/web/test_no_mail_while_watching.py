"""No mail while you watch (issue 46, item 5; services/presence.py), over real SMTP (the suite's
aiosmtpd catcher): Mr. President against two bots played on the game page. A player whose page
is live gets no decision mail; one who leaves before acting gets the decision mail once the
delay has passed (the clock given to the delivery and the relay, no sleeps), and only one for
several rounds played in quick succession; one who acted while watching gets none for that
step; a player who plays without the page gets a mail for every decision, at once."""

from __future__ import annotations

import random
from datetime import timedelta

from sqlmodel import Session, select

from server.mail import delivery, smtp
from server.mail.recipients import MailSettings
from server.models import Game, MailSent, OutboxMessage, aware, utcnow
from server.models import PagePresence
from server.services import outbox, presence
from tests.web.pages_helpers import Reader, csrf, db_engine, pick_answer

MINUTE = timedelta(minutes=1)


def _bot_game(jack) -> int:
    """A game against two bots made (and started) by the lobby's and the game's pages, whose
    script says that their game page will be live (``page_live``: templates/web/_page.html)."""
    answer = jack.post_form("/", "/games/new", {
        "game_type": "mrpresident", "players": "3", "edition": "chalkboard",
        "email_p1": jack.email, "bot_p2": "greedy", "bot_p3": "greedy",
        "bot_delay_seconds": "0", "page_live": "1"})
    assert answer.status_code == 303, answer.data[-2000:]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    with Session(db_engine(jack.client.application)) as s:
        begun = s.get(Game, gid).status == "active"  # (a bot game may begin at once)
    if not begun:
        assert jack.post_form(f"/games/{gid}", f"/games/{gid}/start",
                              {"page_live": "1"}).status_code == 303
    return gid


def _say(reader: Reader, gid: int, left: bool = False) -> int:
    """The page's POST: live now, or (``left``) leaving."""
    page = reader.get(f"/games/{gid}").data
    data = {"csrf_token": csrf(page)}
    if left:
        data["left"] = "1"
    return reader.client.post(f"/games/{gid}/watching", data=data).status_code


def _play(reader: Reader, gid: int, rng, orders: int, watch: bool) -> list[int]:
    """Play ``orders`` decisions from the page (its script saying it is live before each, as
    the page does when it loads, when ``watch``); return the steps answered."""
    answered = []
    for _ in range(orders):
        if watch:
            assert _say(reader, gid) == 204
        page = reader.get(f"/games/{gid}").data.decode()
        fields = pick_answer(page, rng)
        assert fields, "the game asks the player something"
        answer = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", fields)
        assert answer.status_code == 303, (fields, answer.data[-2000:])
        answered.append(fields["step"])
    return answered


def _decisions(app, gid: int) -> list[OutboxMessage]:
    with Session(db_engine(app)) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "your_decision")
                      .order_by(OutboxMessage.id)).all()
        return [r for r in rows if r.payload["game_id"] == gid and r.payload["seat"] == "p1"]


def _deliver_due(app, gid: int, now) -> list[str]:
    """What the worker does with each decision row of the game at ``now`` (the relay sends
    it once due: ``outbox._due``)."""
    engine = db_engine(app)
    settings = MailSettings.from_config(app.config)
    transport = smtp.SmtpSettings.from_config(app.config)
    done = []
    for row in _decisions(app, gid):
        if row.delivered_at is None:
            done.append(delivery.deliver(engine, row.id, settings, transport, now=now))
    return done


def _steps_mailed(app, mails) -> list[int]:
    """The steps the decision mails among ``mails`` ask about, as sent (a mail names no step,
    issue 47: its MailSent row keeps it)."""
    ids = [mail["Message-ID"] for mail in mails]
    with Session(db_engine(app)) as s:
        sent = {m.message_id: m.step for m in s.exec(select(MailSent).where(
            MailSent.message_id.in_(ids), MailSent.kind == "your_decision"))}
    return [sent[i] for i in ids if sent.get(i) is not None]


def _game_step(app, gid: int) -> int:
    with Session(db_engine(app)) as s:
        return s.get(Game, gid).step


def test_a_watching_player_gets_no_decision_mail_and_one_after_leaving(app, jack,
                                                                        smtp_catcher):
    first = len(smtp_catcher.to(jack.email))
    gid = _bot_game(jack)                               # started from its page: live from then
    before = len(smtp_catcher.to(jack.email))
    # (the start's news only)
    assert _steps_mailed(app, smtp_catcher.to(jack.email)[first:]) == []
    _play(jack, gid, random.Random(1), 4, watch=True)  # four rounds against the bots, live
    assert _say(jack, gid) == 204
    assert smtp_catcher.to(jack.email)[before:] == []   # not one mail while watching
    held = [r for r in _decisions(app, gid) if r.delivered_at is None]
    assert held and all(r.not_before is not None for r in held)

    assert _say(jack, gid, left=True) == 204            # the tab is closed before acting
    with Session(db_engine(app)) as s:
        left = aware(s.get(PagePresence, (gid, _user_id(app, jack))).left_at)
    # Within the delay: still nothing, and the relay has nothing due.
    assert set(_deliver_due(app, gid, left + MINUTE)) == {"held"}
    with Session(db_engine(app)) as s:
        due = s.exec(select(OutboxMessage.id).where(outbox._due(60, left + MINUTE),
                                                    OutboxMessage.kind == "your_decision"))
        assert not [i for i in due if i in {r.id for r in held}]
        due = set(s.exec(select(OutboxMessage.id).where(
            outbox._due(60, left + 2 * MINUTE + timedelta(seconds=1)))).all())
        assert {r.id for r in held} & due                  # due once the delay has passed
    assert smtp_catcher.to(jack.email)[before:] == []
    # After the delay: one mail, for the decision open now (the rounds played on the page
    # were never mailed: their rows are about steps gone by).
    _deliver_due(app, gid, left + 2 * MINUTE + timedelta(seconds=1))
    mails = smtp_catcher.wait_for_to(jack.email, before + 1)[before:]
    assert len(mails) == 1
    assert _steps_mailed(app, mails) == [_game_step(app, gid)]
    assert all(r.delivered_at is not None for r in _decisions(app, gid))


def test_a_page_gone_without_a_word_counts_from_its_last_beat(app, jack, smtp_catcher):
    gid = _bot_game(jack)
    before = len(smtp_catcher.to(jack.email))
    _play(jack, gid, random.Random(2), 1, watch=True)
    assert _say(jack, gid) == 204                       # its last beat, then nothing
    with Session(db_engine(app)) as s:
        beat = aware(s.get(PagePresence, (gid, _user_id(app, jack))).seen_at)
    assert set(_deliver_due(app, gid, beat + MINUTE)) == {"held"}
    assert smtp_catcher.to(jack.email)[before:] == []
    _deliver_due(app, gid, beat + 2 * MINUTE + timedelta(seconds=1))
    assert _steps_mailed(app, smtp_catcher.wait_for_to(jack.email, before + 1)[before:]) == \
        [_game_step(app, gid)]


def test_a_player_who_acts_while_watching_gets_no_mail_for_that_step(app, jack, smtp_catcher):
    gid = _bot_game(jack)
    before = len(smtp_catcher.to(jack.email))
    assert _say(jack, gid) == 204
    _play(jack, gid, random.Random(3), 1, watch=True)
    asked = _game_step(app, gid)                        # a decision held while watching
    assert [r for r in _decisions(app, gid)
            if r.delivered_at is None and r.payload["step"] == asked]
    answered = _play(jack, gid, random.Random(4), 1, watch=True)
    assert answered == [asked]                          # acted on the page
    assert _say(jack, gid, left=True) == 204
    _deliver_due(app, gid, utcnow() + 3 * MINUTE)
    mailed = _steps_mailed(app, smtp_catcher.to(jack.email)[before:])
    assert asked not in mailed and mailed == [_game_step(app, gid)]


def test_a_player_who_plays_by_mail_is_mailed_every_decision(app, jack, smtp_catcher):
    """The page the game was started from is closed at once; then the player answers each
    decision minutes after its mail (the clock moved past the delay), never on the page."""
    gid = _bot_game(jack)
    assert _say(jack, gid, left=True) == 204
    rng = random.Random(5)
    for _ in range(5):
        _deliver_due(app, gid, utcnow() + 3 * MINUTE)     # what the relay sends by then
        asked = _game_step(app, gid)
        # mailed before answering
        assert asked in _steps_mailed(app, smtp_catcher.to(jack.email))
        assert _play(jack, gid, rng, 1, watch=False) == [asked]
    _deliver_due(app, gid, utcnow() + 3 * MINUTE)
    assert _game_step(app, gid) in _steps_mailed(app, smtp_catcher.to(jack.email))
    assert all(r.delivered_at is not None for r in _decisions(app, gid))  # nothing waits


def test_a_player_who_never_opened_the_page_is_mailed_at_once(app, jack, smtp_catcher):
    gid = _bot_game(jack)
    with Session(db_engine(app)) as s:  # made long ago, started elsewhere: no page was live
        found = s.get(PagePresence, (gid, _user_id(app, jack)))
        if found is not None:
            s.delete(found)
        s.get(Game, gid).created_at = utcnow() - timedelta(hours=1)
        s.commit()
    for _ in range(3):
        page = jack.get(f"/games/{gid}").data.decode()
        asked = _game_step(app, gid)
        answer = jack.post_form(f"/games/{gid}", f"/games/{gid}/order",
                                pick_answer(page, random.Random(asked)))
        assert answer.status_code == 303
        assert _game_step(app, gid) in _steps_mailed(app, smtp_catcher.to(jack.email))


def test_webhook_free_news_is_not_mailed_to_a_watcher_but_the_end_goes_to_one_who_left(app):
    """The rules of services/presence.screen for news the page shows, with the clock."""
    now = utcnow()
    live = PagePresence(game_id=1, user_id=1, seen_at=now - timedelta(seconds=10))
    assert presence.watching(live, now)
    assert presence.until(live, now, 120) == live.seen_at + 2 * MINUTE
    gone = PagePresence(game_id=1, user_id=1, seen_at=now - MINUTE, left_at=now - MINUTE)
    assert not presence.watching(gone, now)
    assert presence.until(gone, now, 120) == now + MINUTE
    assert presence.until(gone, now + 2 * MINUTE, 120) is None    # gone for the delay
    silent = PagePresence(game_id=1, user_id=1, seen_at=now - 2 * MINUTE)  # no beat since
    assert not presence.watching(silent, now) and presence.until(silent, now, 120) is None
    assert presence.until(live, now, 0) is None                   # no delay: nothing waits
    back = PagePresence(game_id=1, user_id=1, seen_at=now, left_at=now - MINUTE)  # other tab
    assert presence.watching(back, now)


def test_the_page_says_it_is_watched_and_only_a_seated_player_may_say_so(
        app, jack, dick, smtp_catcher):
    gid = _bot_game(jack)
    page = jack.get(f"/games/{gid}").data.decode()
    assert 'id="watching" hidden' in page and "no mail while this page is open" in page
    assert "2 min later" in page and "/watching" in page
    assert jack.client.post(f"/games/{gid}/watching", data={}).status_code == 400
    stranger = dick.get(f"/games/{gid}")
    if stranger.status_code == 200:
        assert 'id="watching"' not in stranger.data.decode()
        assert dick.client.post(f"/games/{gid}/watching",
                                data={"csrf_token": csrf(stranger.data)}).status_code == 403
    with Session(db_engine(app)) as s:
        assert s.get(PagePresence, (gid, _user_id(app, dick))) is None


def _user_id(app, reader: Reader) -> int:
    from server.models import User
    with Session(db_engine(app)) as s:
        return s.exec(select(User.id).where(User.email == reader.email)).one()


def test_the_end_of_a_game_watched_is_not_mailed(app, jack, smtp_catcher):
    gid = _bot_game(jack)
    rng = random.Random(7)
    for _ in range(80):
        assert _say(jack, gid) == 204
        page = jack.get(f"/games/{gid}").data.decode()
        fields = pick_answer(page, rng)
        if not fields:
            break
        assert jack.post_form(f"/games/{gid}", f"/games/{gid}/order", fields).status_code == 303
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).status == "finished"
        over = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "game_over")).all()
        assert [r for r in over if r.payload["game_id"] == gid and r.delivered_at is not None]
    texts = [m.get_body(("plain",)).get_content() for m in smtp_catcher.to(jack.email)]
    assert not [t for t in texts if "The game is over" in t]
    assert not _steps_mailed(app, smtp_catcher.to(jack.email))


def test_news_the_page_shows_goes_to_whoever_is_not_watching(app, jack, dick, smtp_catcher):
    """services/presence.screen, with the clock: a resolved step is not mailed to a reader
    whose page is live or was within the delay; the game's end only not to one watching."""
    from server.mail.recipients import Envelope
    now = utcnow()
    ids = {r: _user_id(app, r) for r in (jack, dick)}
    with Session(db_engine(app)) as s:
        s.add(PagePresence(game_id=9, user_id=ids[jack], seen_at=now - timedelta(seconds=5)))
        s.add(PagePresence(game_id=9, user_id=ids[dick], seen_at=now - MINUTE,
                           left_at=now - MINUTE))
        s.commit()
        found = [Envelope(r, f"{r}@example.org", "en", "x", {}, 9, r, ids[who])
                 for r, who in (("jack", jack), ("dick", dick))]
        for kind, mailed in (("step_resolved", set()), ("game_over", {"dick"}),
                             ("order_answer", {"jack", "dick"}),
                             ("table_talk", {"jack", "dick"})):
            out, held = presence.screen(s, kind, found, now, 120)
            assert held is None and {e.recipient for e in out if e.mail} == mailed, kind
            assert len(out) == 2  # the others still go to their webhooks
        out, held = presence.screen(s, "step_resolved", found, now + 3 * MINUTE, 120)
        assert {e.recipient for e in out if e.mail} == {"jack", "dick"}  # no beat since: gone


def test_a_game_joined_or_started_from_a_page_with_scripts_counts_as_its_page_live(
        app, jack, dick, smtp_catcher):
    """The forms' ``page_live`` (the pages' script adds it): a game joined or started from a
    page with scripts, whose game page opens next; a form without it counts nothing."""
    answer = jack.post_form("/", "/games/new", {
        "game_type": "mrpresident", "players": "3", "edition": "chalkboard",
        "email_p1": jack.email, "email_p2": dick.email, "bot_p3": "greedy",
        "bot_delay_seconds": "0", "start_by_hand": "on"})
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    ids = {r.email: _user_id(app, r) for r in (jack, dick)}
    with Session(db_engine(app)) as s:
        assert s.get(PagePresence, (gid, ids[jack.email])) is None  # made without scripts
    assert dick.post_form(f"/games/{gid}", f"/games/{gid}/join",
                          {"page_live": "1"}).status_code == 303
    with Session(db_engine(app)) as s:
        assert s.get(PagePresence, (gid, ids[dick.email])) is not None
        begun = s.get(Game, gid).status == "active"
    if not begun:
        assert jack.post_form(f"/games/{gid}", f"/games/{gid}/start",
                              {"page_live": "1"}).status_code == 303
        with Session(db_engine(app)) as s:
            assert s.get(PagePresence, (gid, ids[jack.email])) is not None
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).status == "active"

"""Every mail template, rendered with fixed inputs from a fixed game in every locale, compared
with checked-in output (tests/mail/expected/<kind>.<locale>.txt|html). After a deliberate change,
regenerate with WHISTLESTOP_UPDATE_GOLDEN=1 and review the diff."""

from __future__ import annotations

import os
import random
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import engine.core as engine
import pytest
from engine.core.messages import data

from server import i18n
from server.mail import contexts, render
from tests.mail import golden_mrpresident
from server.games.tmotp.summary import card_name
from server.services import links
from server.services.games import _advance

EXPECTED = Path(__file__).with_name("expected")
LINKS = contexts.Links("https://whistlestop.example")
SECRET = "golden-secret"
UPDATE = os.environ.get("WHISTLESTOP_UPDATE_GOLDEN") == "1"


def _game(until_simultaneous: bool):
    """A fixed game: seed and choices fixed, played to its 25th decision or first simultaneous
    step."""
    state = engine.new_game("tmotp", seed="golden")
    _advance(state)
    rng = random.Random(5)
    for _ in range(200 if until_simultaneous else 25):
        active = state.active()
        if len(active) != 1:
            break
        state.apply(active[0], rng.choice(state.legal_actions(active[0])))
        _advance(state)
    return state


def _finished():
    state = engine.new_game("tmotp", seed="golden-end")
    _advance(state)
    rng = random.Random(6)
    while state.active():
        for seat in state.active():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        _advance(state)
    return state


def _resolved():
    """The fixed game just after its first simultaneous step (Campaign Strategy) is resolved:
    Kennedy is not asked anything; and how many notes Kennedy's view had before."""
    state = _game(until_simultaneous=True)
    before = len(state.view("kennedy")["notes"])
    for seat in list(state.active()):
        state.apply(seat, state.legal_actions(seat)[0])
    _advance(state)
    return state, before


MANY = 20  # legal orders: more than any one screen of a phone shows


def _many_choices():
    """The fixed game at its first decision with many legal orders (Campaigning's, say)."""
    state = engine.new_game("tmotp", seed="golden")
    _advance(state)
    rng = random.Random(5)
    while True:
        active = state.active()
        if (len(active) == 1
                and len(state.legal_actions(active[0])) > MANY):
            return state
        for seat in active:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        _advance(state)


def _asked(kind: str):
    """The fixed game at its first decision of ``kind`` (the step the view's ``asks`` names)."""
    state = engine.new_game("tmotp", seed="golden")
    _advance(state)
    rng = random.Random(5)
    while True:
        active = state.active()
        if len(active) == 1 and (state.view(active[0]).get("asks") or {}).get("step") == kind:
            return state
        for seat in active:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        _advance(state)


def _default_action(state, seat: str) -> str:
    """The engine's safe default (the builder computes it; the fixed contexts take its text)."""
    default = getattr(state, "default_action", None)
    return default(seat) if default else state.legal_actions(seat)[0]


def _signed(action: str) -> str:
    return f"{LINKS.base_url}/games/12/decide/signed-" + action.replace(" ", "-")


# The mails go to users 7 (Jack) and 8 (Dick): their footers link to their signed preferences
# (as the mails of outbox row 41 would: each mail has its own link).
PREFS = {name: links.preferences_url(SECRET, LINKS.base_url, user_id, 41)
         for name, user_id in (("Jack", 7), ("Dick", 8))}
NOW = datetime(2026, 11, 22, 21, 40, 12, tzinfo=timezone.utc)
DEADLINE = datetime(2026, 11, 23, 18, 5, 33, tzinfo=timezone.utc)
AUTO = [{"actions": ["pass"], "source": "standing", "rule": "trigger:helps_me"},
        {"actions": ["momentum"], "source": "standing", "rule": "second_place:momentum"}]


def _refusal(state, seat: str, order: str) -> list:
    """The engine's reason for refusing ``order``, as the outbox keeps it ([template, args])."""
    try:
        state.parse(seat, order)
    except engine.ActionError as exc:
        return data(exc.reason)
    raise AssertionError(f"{order!r} was legal")


def contexts_by_kind(locale: str) -> dict[str, dict]:
    sequential = _game(until_simultaneous=False)
    seat = sequential.active()[0]
    simultaneous = _game(until_simultaneous=True)
    over = _finished()
    resolved, seen = _resolved()
    many = _many_choices()
    many_seat = many.active()[0]
    planning = _asked("campaigning")
    jack, dick = PREFS["Jack"], PREFS["Dick"]
    return {
        "your_decision": contexts.your_decision(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, notes_seen=20,
            choice_url=_signed, preferences_url=jack, deadline_at=DEADLINE, now=NOW),
        "your_decision-simultaneous": contexts.your_decision(
            12, "nixon", 61, simultaneous.view("nixon"), "Dick", locale, LINKS, notes_seen=0,
            preferences_url=dick),
        "your_decision-campaigning": contexts.your_decision(
            12, planning.active()[0], 30, planning.view(planning.active()[0]), "Jack", locale,
            LINKS, notes_seen=len(planning.view(planning.active()[0])["notes"]) - 3,
            choice_url=_signed, preferences_url=jack, deadline_at=DEADLINE, now=NOW),
        "your_decision-auto_orders": contexts.your_decision(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, notes_seen=35,
            choice_url=_signed, auto_orders=AUTO, preferences_url=jack),
        "reminder": contexts.reminder(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, DEADLINE, NOW, 1, 2,
            {"source": "default", "actions": [_default_action(sequential, seat)]},
            notes_seen=35, choice_url=_signed, preferences_url=jack),
        "reminder-filed": contexts.reminder(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, DEADLINE,
            DEADLINE - timedelta(minutes=70), 2, 2,
            {"source": "filed", "actions": ["endorsement"]}, notes_seen=35,
            choice_url=_signed, auto_orders=AUTO[:1], preferences_url=jack),
        "reminder-filed_lines": contexts.reminder(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, DEADLINE,
            DEADLINE - timedelta(minutes=20), 1, 1,
            {"source": "filed", "actions": ["trigger", "momentum"]}, notes_seen=35,
            choice_url=_signed, preferences_url=jack),
        "reminder-forfeit": contexts.reminder(
            12, seat, 25, sequential.view(seat), "Jack", locale, LINKS, DEADLINE, NOW, 1, 1,
            {"source": "forfeit"}, notes_seen=35, choice_url=_signed, preferences_url=jack),
        "deadline_passed-default": contexts.deadline_passed(
            12, seat, 24, sequential.view(seat), "Jack", locale, LINKS, ["pass"], "default",
            "default", 25, True, notes_seen=33, choice_url=_signed, deadline_at=DEADLINE,
            now=NOW, preferences_url=jack),
        "deadline_passed-filed": contexts.deadline_passed(
            12, "nixon", 60, simultaneous.view("nixon"), "Dick", locale, LINKS,
            ["momentum"], "filed", "filed", 61, False, notes_seen=0, auto_orders=AUTO[1:],
            preferences_url=dick),
        "deadline_passed-forfeit": contexts.deadline_passed(
            12, "nixon", 130, over.view("nixon"), "Dick", locale, LINKS, [], "forfeit",
            "forfeit", 131, False, notes_seen=len(over.view("nixon")["notes"]) - 2,
            preferences_url=dick),
        "step_resolved": contexts.step_resolved(
            12, "kennedy", 61, resolved.view("kennedy"), "Jack", locale, LINKS,
            notes_seen=seen, auto_orders=AUTO[:1], preferences_url=jack),
        "digest": contexts.digest(
            "Dick", "2026-11-22",
            [{"game_id": 12, "game": "tmotp", "seat": seat, "step": 25,
              "prompt": sequential.view(seat)["prompt"],
              "legal_actions": sequential.view(seat)["legal_actions"], "deadline_at": DEADLINE,
              "choice_url": _signed, "view": sequential.view(seat)},
             {"game_id": 15, "game": "tmotp", "seat": many_seat, "step": 3,
              "prompt": many.view(many_seat)["prompt"],
              "legal_actions": many.view(many_seat)["legal_actions"], "deadline_at": None,
              "view": many.view(many_seat), "choice_url": lambda action: f"{LINKS.base_url}/games/15/decide/signed-"
                                           + action.replace(" ", "-")}],
            locale, LINKS, NOW, preferences_url=dick),
        "game_started": contexts.game_started(12, "kennedy", "Jack", "ab12" * 16, locale,
                                              LINKS, preferences_url=jack, game_type="tmotp",
                                              seats=["kennedy", "nixon"]),
        "game_over": contexts.game_over(12, "nixon", over.view("nixon"),
                                        over.outcome().to_dict(), "golden-end", "cd34" * 16,
                                        "Dick", locale, LINKS, preferences_url=dick),
        "seat_joined": contexts.seat_joined(12, "kennedy", "Jack", "Dick", "nixon", True,
                                            locale, LINKS, preferences_url=jack,
                                            game_type="tmotp"),
        "invitation": contexts.invitation(12, "nixon", "Jack", locale, LINKS,
                                          game_type="tmotp"),
        "order_received-applied": contexts.order_received(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["campaign NY 2"], "status": "applied", "applied": ["campaign NY 2"],
             "answered_step": 24}, 25, notes_seen=20, preferences_url=jack),
        "order_received-sealed": contexts.order_received(
            12, "nixon", {**simultaneous.view("nixon"), "legal_actions": []}, "Dick", locale,
            LINKS, {"lines": ["debate 1"], "status": "sealed", "applied": ["debate 1"],
                    "answered_step": 61}, 61, notes_seen=0, preferences_url=dick),
        "order_received-standing": contexts.order_received(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["standing trigger helps_me", "standing default pass"],
             "status": "standing", "applied": [], "answered_step": 25,
             "standing": ["standing trigger helps_me", "standing default pass"]},
            25, notes_seen=20, preferences_url=jack),
        "order_refused-illegal": contexts.order_refused(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["campaign ZZ 9"], "status": "illegal", "answered_step": 25,
             "reason": _refusal(sequential, seat, "campaign ZZ 9"),
             "legal": sequential.view(seat)["legal_actions"]},
            25, notes_seen=20, preferences_url=jack),
        "order_refused-stale": contexts.order_refused(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": ["pass"], "status": "stale", "answered_step": 22}, 25, notes_seen=20,
            preferences_url=jack),
        "order_refused-empty": contexts.order_refused(
            12, seat, sequential.view(seat), "Jack", locale, LINKS,
            {"lines": [], "status": "empty", "answered_step": 25,
             "reason": "The reply had no order above the quoted mail."}, 25, notes_seen=35,
            preferences_url=jack),
        "reply_unknown": contexts.reply_unknown("Jack", "r+7-nixon-00@whistlestop.example",
                                                locale, LINKS, preferences_url=jack),
        "reply_foreign": contexts.reply_foreign("Jack", 12, "nixon", locale, LINKS,
                                                preferences_url=jack, game_type="tmotp"),
        "webhook_disabled": contexts.webhook_disabled(
            "Jack", "https://discord.com/…abcd", 5, "HTTP 404", locale, LINKS,
            preferences_url=jack),
        "sign_in": contexts.sign_in("Jack", locale, LINKS,
                                    "https://whistlestop.example/sign-in/TOKEN", 60,
                                    preferences_url=jack),
        # Issue 25, item 5: a deadline that waits for a player nothing has reached, and the
        # confirmation of a one-click unsubscribe (each of its three changes).
        "not_reached": contexts.not_reached(
            12, "kennedy", "Jack", locale, LINKS, preferences_url=jack, game_type="tmotp",
            waited_seat="nixon", waited_name="Dick", deadline_at=DEADLINE, grace_hours=24),
        "unsubscribed": contexts.unsubscribed("Jack", "digest", "your_decision", "digest", [],
                                              locale, LINKS, preferences_url=jack),
        "unsubscribed-news": contexts.unsubscribed(
            "Jack", "news", "reminder", "digest", ["invitation", "seat_joined", "game_started",
                                                   "step_resolved", "order_received",
                                                   "game_over"],
            locale, LINKS, preferences_url=jack),
        "unsubscribed-kind": contexts.unsubscribed("Jack", "kind", "step_resolved", "every",
                                                   ["step_resolved"], locale, LINKS,
                                                   preferences_url=jack),
        # Issue 27, item 4: a pause and an extension asked (with the signed answer links),
        # agreed, granted, refused; a mail telling that another player is on vacation.
        "pause": contexts.schedule(
            12, "nixon", "Dick", locale, LINKS, preferences_url=dick, game_type="tmotp",
            kind="pause", event="asked", by_seat="kennedy", by_name="Jack",
            deadline_at=DEADLINE, agree_url="https://whistlestop.example/games/12/answer/YES",
            refuse_url="https://whistlestop.example/games/12/answer/NO"),
        "pause-paused": contexts.schedule(
            12, "kennedy", "Jack", locale, LINKS, preferences_url=jack, game_type="tmotp",
            kind="pause", event="paused", by_seat="kennedy", by_name="Jack", deadline_at=None),
        "pause-resumed": {**contexts.schedule(
            12, "kennedy", "Jack", locale, LINKS, preferences_url=jack, game_type="tmotp",
            kind="pause", event="resumed", by_seat="nixon", by_name="Dick",
            deadline_at=DEADLINE), "away": [{"seat": "Nixon", "until": contexts.when(
                DEADLINE, locale)}]},
        "extension": contexts.schedule(
            12, "nixon", "Dick", locale, LINKS, preferences_url=dick, game_type="tmotp",
            kind="extension", event="asked", by_seat="kennedy", by_name="Jack",
            deadline_at=DEADLINE, hours=72,
            agree_url="https://whistlestop.example/games/12/answer/YES",
            refuse_url="https://whistlestop.example/games/12/answer/NO"),
        # Issue 46, item 4: Nixon's player answers Kennedy's ask; Kennedy's player reads it.
        "extension-granted": contexts.schedule(
            12, "kennedy", "Jack", locale, LINKS, preferences_url=jack, game_type="tmotp",
            kind="extension", event="granted", by_seat="nixon", by_name="Dick",
            asker_seat="kennedy", asker_name="Jack", deadline_at=DEADLINE, hours=72),
        "extension-refused": contexts.schedule(
            12, "kennedy", "Jack", locale, LINKS, preferences_url=jack, game_type="tmotp",
            kind="extension", event="refused", by_seat="nixon", by_name="Dick",
            asker_seat="kennedy", asker_name="Jack", deadline_at=DEADLINE, hours=72),
        # Issue 27 item 6: a rematch offered (with the reader's link to accept), withdrawn and
        # made; the game-over mail's link offering one.
        "rematch": contexts.rematch(
            12, "nixon", "Dick", locale, LINKS, preferences_url=dick, game_type="tmotp",
            event="offered", who="Jack", swap=True,
            accept_url=f"{LINKS.base_url}/games/12/rematch?t=TOKEN", new_game_id=None),
        "rematch-withdrawn": contexts.rematch(
            12, "nixon", "Dick", locale, LINKS, preferences_url=dick, game_type="tmotp",
            event="withdrawn", who="Jack", swap=False, accept_url=None, new_game_id=None),
        "rematch-made": contexts.rematch(
            12, "kennedy", "Jack", locale, LINKS, preferences_url=jack, game_type="tmotp",
            event="made", who="", swap=True, accept_url=None, new_game_id=13),
        "game_over-rematch": {**contexts.game_over(
            12, "nixon", over.view("nixon"), over.outcome().to_dict(), "golden-end",
            "cd34" * 16, "Dick", locale, LINKS, preferences_url=dick),
            "rematch_url": f"{LINKS.base_url}/games/12/rematch?t=TOKEN"},
        # Issue 27: table talk (server/mail/chat_mail.py), escaped, with its reply footer
        **_chat_contexts(locale, jack),
        # Issue 46, item 1: departed and vanished players (server/mail/absence_mail.py)
        **_absence_contexts(locale, jack, dick),
        # Mr. President: every kind about a game, in the same templates
        **golden_mrpresident.contexts_by_kind(
            locale, LINKS, _signed, PREFS, NOW, DEADLINE,
            {"game_id": 12, "game": "tmotp", "seat": seat, "step": 25,
             "prompt": sequential.view(seat)["prompt"],
             "legal_actions": sequential.view(seat)["legal_actions"], "deadline_at": None,
             "choice_url": _signed}),
    }


def _chat_contexts(locale: str, prefs: str) -> dict[str, dict]:
    """Issue 27: the table-talk mails, with a line to escape and one of several lines."""
    from server.games import presenter
    from server.i18n import times
    from server.mail import chat_mail

    # The game's title and seat in the reader's language, as chat_mail.table_talk gives them.
    title = presenter("tmotp").title(locale)
    nixon = presenter("tmotp").seat_names(locale)["nixon"]
    when = times.short(NOW, locale, "Asia/Tokyo", NOW)
    lines = [{"author": "Dick", "seat": nixon, "when": when,
              "body": "Ohio is mine <script>alert(1)</script> & Texas too."},
             {"author": "Dick", "seat": nixon, "when": when, "body": "Line one\nLine two"}]
    talk = chat_mail.talk_context(12, title, locale, False, lines, LINKS)
    watch = chat_mail.talk_context(12, title, locale, True,
                                   [{"author": "Player 9", "seat": "", "when": when,
                                     "body": "Nice move!"}], LINKS)
    return {
        "table_talk": {**talk, "preferences_url": prefs},
        "table_talk-spectators": {**watch, "preferences_url": prefs},
        "chat_answer": {**chat_mail.answer_context(
            12, title, locale, "Jack", "The reply had no text above the quoted mail.", LINKS),
            "preferences_url": prefs},
        "chat_report": chat_mail.report_context(3, 41, 12, "players", 2, 1, "insults",
                                                "<b>rude</b> words", NOW, LINKS),
    }


def _absence_contexts(locale: str, jack: str, dick: str) -> dict[str, dict]:
    """Issue 46, item 1: Nixon's player left (Kennedy's is offered the four choices, each a
    signed link); Nixon's player went silent (told so themselves); a bot plays a seat; a
    Mr. President player asks to end the game; a reply's choice answered, done and refused;
    a replacement invited by address."""
    from server.mail import absence_mail, absence_reply
    from server.services import absence_links

    def offered(*choices):
        return [{"choice": c, "label": i18n.gettext(absence_links.LABELS[c], locale),
                 "url": f"{LINKS.base_url}/games/12/absence/{c.upper()}",
                 "reply": absence_reply.words(c, locale)} for c in choices]

    def made(seat, name, prefs, event, **kw):
        return absence_mail.context(12, seat, name, locale, LINKS, prefs,
                                    game_type=kw.pop("game_type", "tmotp"), event=event, **kw)

    four = offered("claim", "end", "bot", "replace")
    return {
        "absence": made("kennedy", "Jack", jack, "left", absent_seat="nixon", offered=four),
        "absence-silent": made("kennedy", "Jack", jack, "silent", absent_seat="nixon",
                               absent_name="Dick", missed=2, offered=four),
        "absence-silent_own": made("nixon", "Dick", dick, "silent", absent_seat="nixon",
                                   missed=2),
        "absence-bot": made("p1", "Jack", jack, "bot", absent_seat="p3", two=False,
                            game_type="mrpresident", offered=offered("end", "replace")),
        "absence-asked_end": made("p1", "Jack", jack, "asked_end", absent_seat="p3",
                                  by_seat="p2", by_name="Dick", two=False, asked=["p2"],
                                  game_type="mrpresident", offered=offered("end", "replace")),
        "absence-claimed": made("nixon", "Dick", dick, "claimed", absent_seat="nixon",
                                by_seat="kennedy", by_name="Jack"),
        "absence-answer": made("kennedy", "Jack", jack, "answer", absent_seat="nixon",
                               by_seat="kennedy", by_name="Jack",
                               answer={"line": "replace", "done": "invited", "reason": ""},
                               take_seat=f"{LINKS.base_url}/games/12/take-seat/CODE"),
        "absence-refused": made("kennedy", "Jack", jack, "answer", absent_seat="nixon",
                                by_seat="kennedy", by_name="Jack", offered=offered(
                                    "claim", "end", "replace"),
                                answer={"line": "bot", "done": None, "reason": i18n.gettext(
                                    "A bot already plays this seat.", locale)}),
        "absence_invitation": absence_mail.invitation_context(
            12, "nixon", "Jack", locale, LINKS, game_type="tmotp",
            take_seat=f"{LINKS.base_url}/games/12/take-seat/CODE"),
    }


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_template_matches_its_expected_output(locale):
    mismatched = []
    for name, context in contexts_by_kind(locale).items():
        kind = name.split("-")[0]
        rendered = render.render(kind, context, locale)
        for suffix, body in (("txt", f"Subject: {rendered.subject}\n\n{rendered.text}"),
                             ("html", rendered.html)):
            path = EXPECTED / f"{name}.{locale}.{suffix}"
            if UPDATE:
                path.write_text(body, encoding="utf-8")
            elif not path.exists() or path.read_text(encoding="utf-8") != body:
                mismatched.append(path.name)
    assert not mismatched, f"differs from the expected output: {mismatched}"


def test_every_kind_has_both_templates_with_a_subject():
    for kind in render.KINDS:
        for suffix in ("txt", "html"):
            source = (render.TEMPLATES / f"{kind}.{suffix}").read_text(encoding="utf-8")
            assert "{% block subject %}" in source or "{% block title %}" in source, kind


def test_html_has_no_style_block_left_and_text_no_markup():
    context = contexts_by_kind("en")["your_decision"]
    rendered = render.render("your_decision", context)
    assert 'style="' in rendered.html
    # Only the dark colour scheme's at-rules stay in a <style>: they cannot be inlined.
    kept = re.findall(r"<style>(.*?)</style>", rendered.html, re.S)
    assert len(kept) == 1 and kept[0].strip().startswith("@media (prefers-color-scheme: dark)")
    assert "}" not in re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", kept[0])
    assert "<" not in rendered.text.replace("<-", "")


def test_html_escapes_what_players_write():
    context = contexts.seat_joined(3, "kennedy", "Jack", "<script>x</script>", "nixon", False,
                                   "en", LINKS, game_type="tmotp")
    rendered = render.render("seat_joined", context)
    assert "<script>" not in rendered.html and "&lt;script&gt;" in rendered.html
    assert "<script>x</script>" in rendered.text  # plain text is not HTML


def test_unknown_locale_falls_back_to_english():
    assert i18n.supported("fr-CA") == "en"
    assert i18n.supported("es-MX") == "es" and i18n.supported("ja_JP") == "ja"
    assert i18n.supported(None) == "en"


def test_a_view_never_leaks_the_other_hand_into_the_mail():
    state = _game(until_simultaneous=False)
    for seat in ("kennedy", "nixon"):
        other = "nixon" if seat == "kennedy" else "kennedy"
        hidden = [card for card in state.s["hands"][other] if card not in state.s["hands"][seat]]
        assert hidden, "the test needs cards only the other seat holds"
        context = contexts.your_decision(1, seat, 1, state.view(seat), "P", "en", LINKS)
        rendered = render.render("your_decision", context)
        for card in hidden:
            assert card_name(card) not in rendered.text + rendered.html
        mine = state.s["hands"][seat]
        assert all(card_name(card) in rendered.text for card in mine)  # the check can see cards


def test_the_new_kinds_never_leak_the_other_hand_either():
    state = _game(until_simultaneous=False)
    for seat in ("kennedy", "nixon"):
        other = "nixon" if seat == "kennedy" else "kennedy"
        hidden = [card for card in state.s["hands"][other] if card not in state.s["hands"][seat]]
        assert hidden, "the test needs cards only the other seat holds"
        view = state.view(seat)
        asked = bool(view["legal_actions"])
        mails = {
            "reminder": contexts.reminder(1, seat, 1, view, "P", "en", LINKS, DEADLINE, NOW, 1,
                                          1, {"source": "default", "actions": ["pass"]},
                                          auto_orders=AUTO),
            "deadline_passed": contexts.deadline_passed(1, seat, 1, view, "P", "en", LINKS,
                                                        ["pass"], "default", "default", 2,
                                                        asked, auto_orders=AUTO),
            "step_resolved": contexts.step_resolved(1, seat, 1, view, "P", "en", LINKS,
                                                    auto_orders=AUTO),
            "digest": contexts.digest("P", "2026-11-22", [
                {"game_id": 1, "game": "tmotp", "seat": seat, "step": 1, "prompt": view["prompt"],
                 "legal_actions": view["legal_actions"], "deadline_at": DEADLINE}],
                "en", LINKS, NOW),
        }
        for kind, context in mails.items():
            rendered = render.render(kind, context)
            for card in hidden:
                assert card_name(card) not in rendered.text + rendered.html, (kind, card)
            if kind != "digest":  # the check can see cards: a summary shows the seat's hand
                assert all(card_name(card) in rendered.text
                           for card in state.s["hands"][seat]), kind

"""Issue 46, item 4: every mail names the right person. Every kind of mail (server/mail/kinds.py)
is rendered for its reader, in every locale: it never speaks of its own reader in the third
person (their name in quotation marks, "who plays <their seat>"); the pause and extension mails
are rendered for every seat as asker, answerer and bystander, and an answer names who asked
and who answered; the mail after a simultaneous step does not say sealed cards are revealed."""

from __future__ import annotations

import itertools

import pytest

from server import i18n
from server.games import presenter
from server.mail import contexts, kinds, render
from tests.mail.test_templates import DEADLINE, LINKS, contexts_by_kind

LOCALES = ("en", "ja", "es")
NAMES = {"kennedy": "Player 1", "nixon": "Player 2"}


def _who_plays(seat: str, locale: str) -> str:
    """The words "who plays <seat>" in ``locale`` (as the mails translate them)."""
    name = presenter("tmotp").seat_names(locale)[seat]
    return {"en": f"who plays {name}", "ja": f"{name}を担当する",
            "es": f"que juega con {name}"}[locale]


def _third_person(rendered, reader: str, seat: str | None, locale: str) -> list[str]:
    body = rendered.text + rendered.html
    found = [words for words in (i18n.quoted(reader, locale=locale),)
             if words in body]
    if seat in NAMES:
        found += [words for words in (_who_plays(seat, locale),) if words in body]
    return found


@pytest.mark.parametrize("locale", LOCALES)
def test_no_golden_mail_speaks_of_its_reader_in_the_third_person(locale):
    """Every kind's fixed mails (tests/mail/test_templates.py), read by the player they go
    to."""
    every = contexts_by_kind(locale)
    seen = {name.split("-")[0] for name in every}
    assert set(kinds.NEEDED) | set(kinds.INFORMATIONAL) <= seen | {"order_answer"}
    for name, context in every.items():
        kind = name.split("-")[0]
        rendered = render.render(kind, context, locale)
        reader = context.get("player_name") or ""
        if not reader:  # an invitation (no player yet), table talk and its report: unnamed
            assert kind in ("invitation", "table_talk", "chat_report",
                            "absence_invitation"), name
            continue
        assert not _third_person(rendered, reader, context.get("seat"), locale), name


def _schedule(kind, event, reader, by, asker, locale):
    return contexts.schedule(
        12, reader, NAMES[reader], locale, LINKS, game_type="tmotp", kind=kind, event=event,
        by_seat=by, by_name=NAMES[by], asker_seat=asker, asker_name=NAMES[asker],
        deadline_at=DEADLINE, hours=72)


# Which events each seat is told, as server/mail/recipients._schedule sends them: an ask
# goes to the others only; an answer, an expiry, a pause, a resume, to every player.
EVENTS = {"pause": ("asked", "paused", "refused", "expired", "resumed"),
          "extension": ("asked", "granted", "refused", "expired")}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_schedule_mails_for_every_seat(kind, locale):
    seats = list(NAMES)
    for event, reader, asker in itertools.product(EVENTS[kind], seats, seats):
        answerer = next(s for s in seats if s != asker)
        if event == "asked" and reader == asker:
            continue  # never sent to the asker
        by = answerer if event in ("granted", "refused") else asker
        rendered = render.render(kind, _schedule(kind, event, reader, by, asker, locale),
                                 locale)
        assert not _third_person(rendered, NAMES[reader], reader, locale), (
            event, reader, asker)


def test_an_answer_names_who_asked_and_who_answered():
    """Kennedy's player asks, Nixon's answers: the asker is told by whom, the answerer whose
    ask they answered."""
    for event, verb in (("granted", "granted"), ("refused", "refused")):
        asker = render.render("extension", _schedule("extension", event, "kennedy", "nixon",
                                                     "kennedy", "en"), "en").text
        assert (f"Your ask for more time was {verb} by “Player 2”, who plays Nixon"
                in asker), asker
        answerer = render.render("extension", _schedule("extension", event, "nixon", "nixon",
                                                        "kennedy", "en"), "en").text
        assert (f"You {verb} the ask for more time of “Player 1”, who plays Kennedy"
                in answerer), answerer
        assert "Your ask" not in answerer
        third = render.render("extension", contexts.schedule(
            12, "third", "Player 3", "en", LINKS, game_type="tmotp", kind="extension",
            event=event, by_seat="nixon", by_name="Player 2", asker_seat="kennedy",
            asker_name="Player 1", deadline_at=DEADLINE, hours=72), "en").text
        assert (f"The ask for more time of “Player 1”, who plays Kennedy, was {verb} by "
                "“Player 2”, who plays Nixon" in third), third
    pause = render.render("pause", _schedule("pause", "refused", "kennedy", "kennedy",
                                             "nixon", "en"), "en").text
    assert "You refused the pause" in pause


def test_a_resolved_step_does_not_say_sealed_cards_are_revealed():
    """Campaign Strategy's cards stay face down: the mail after it says the step is resolved."""
    for name, context in contexts_by_kind("en").items():
        if name.startswith("step_resolved") and context.get("game_type") == "tmotp":
            text = render.render("step_resolved", context, "en").text
            assert "revealed" not in text, text
            assert "the choices are resolved" in text


# Issue 46, item 1: the "absence" mails (server/mail/absence_mail.py), as its builder sends
# them: every event to every seated reader but the one who did it (an answer: to them only).
ABSENCE_EVENTS = ("left", "silent", "bot", "asked_end", "claimed", "ended", "invited",
                  "replaced", "returned", "abandoned", "answer")
DONE = ("claimed", "ended", "asked_end", "bot", "invited", None)


def _absence(event, reader, by, locale, done=None):
    from server.mail import absence_mail

    absent = "nixon"
    answer = {"line": "bot", "done": done, "reason": "A bot already plays this seat."} \
        if event == "answer" else None
    return absence_mail.context(
        12, reader, NAMES[reader], locale, LINKS, game_type="tmotp", event=event,
        absent_seat=absent, absent_name=NAMES[absent], by_seat=by,
        by_name=NAMES[by] if by else "", missed=2, days=30, asked=[by] if by else [],
        new_name=NAMES[absent], answer=answer,
        offered=[{"choice": "end", "label": "End", "url": "https://x.example/e",
                  "reply": "end game"}])


@pytest.mark.parametrize("locale", LOCALES)
def test_absence_mails_for_every_seat(locale):
    """Nixon's seat is absent: Kennedy's and Nixon's players read every event, done by the
    other, by the server, or (an answer to a reply) by themselves; "mine" speaks to the absent
    player as "you", never as the player of Nixon."""
    seats = list(NAMES)
    for event, reader, by in itertools.product(ABSENCE_EVENTS, seats, seats + [None]):
        if event == "answer":
            if by != reader:
                continue
            for done in DONE if reader != "nixon" else (None,):  # the absent: refused
                rendered = render.render("absence", _absence(event, reader, by, locale, done),
                                         locale)
                assert not _third_person(rendered, NAMES[reader], reader, locale), (
                    event, done, reader)
            continue
        if by == reader:
            continue  # never sent to who did it
        rendered = render.render("absence", _absence(event, reader, by, locale), locale)
        assert not _third_person(rendered, NAMES[reader], reader, locale), (event, reader, by)


def test_the_absent_player_is_told_plainly_and_the_others_who_it_is():
    silent = render.render("absence", _absence("silent", "nixon", None, "en"), "en").text
    assert "You have missed 2 deadlines in a row in this game" in silent
    assert "claim the win" in silent and "you are back" in silent
    other = render.render("absence", _absence("silent", "kennedy", None, "en"), "en").text
    assert "“Player 2”, who plays Nixon, has missed 2 deadlines in a row" in other

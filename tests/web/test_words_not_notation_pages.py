"""Issue 47, item 5: the game page speaks in words, never in the notation of orders
(tests/notation.py finds it), in English, Japanese and Spanish, for each seat, at every decision
of a 1960 game played by its pages' forms and of a Mr. President game; and Japanese and Spanish
pages name the states in their own words ("ニューヨーク州", "Nueva York"). The notation's own help
page is the one place it may show."""

from __future__ import annotations

import html
import random
import re

from sqlmodel import Session, select

from engine.games.tmotp.data import STATES
from server.models import Game, User
from tests.notation import raw_notation
from tests.web.pages_helpers import db_engine, new_game, new_mrpresident_game, pick_answer

LOCALES = ("en", "ja", "es")
HIDDEN = re.compile(r"<(script|style|template|head)\b.*?</\1>", re.S)


def visible(page: str) -> str:
    """The page's text as a reader sees it: no markup, scripts, styles or attribute values."""
    return html.unescape(re.sub(r"<[^>]+>", "\n", HIDDEN.sub(" ", page)))


def speak(app, reader, locale: str) -> None:
    with Session(db_engine(app)) as s:
        user = s.exec(select(User).where(User.email == reader.email)).one()
        user.locale = locale
        s.add(user)
        s.commit()


# The states Spanish names otherwise than English ("Nueva York"); Japanese names them all.
SPANISH_FORMS = ("NY", "NJ", "NH", "NM", "NC", "SC", "ND", "SD", "PA", "LA", "MO", "MS", "HI",
                 "WV", "OR", "MI")


def english_states(text: str, locale: str) -> list[str]:
    """The English names of states a page in ``locale`` shows where its language has names of
    its own ("New York" for "Nueva York"; the codes, AK ... WY, are the map's)."""
    own = {"ja": set(STATES), "es": set(SPANISH_FORMS)}.get(locale, set())
    return [s["name"] for code, s in STATES.items() if code in own
            and re.search(rf"(?<![A-Za-z]){re.escape(s['name'])}(?![A-Za-z])", text)]


def _sweep(app, readers: dict, gid: int, game_type: str, turns: int, seed: int) -> dict:
    rng = random.Random(seed)
    found: dict[str, set] = {}
    for _ in range(turns):
        for locale in LOCALES:
            for seat, reader in readers.items():
                speak(app, reader, locale)
                text = visible(reader.game_page(gid))
                for piece in raw_notation(text, game_type):
                    found.setdefault(f"{locale} {seat}", set()).add(piece)
                for name in english_states(text, locale):
                    found.setdefault(f"{locale} English state", set()).add(name)
        for seat, reader in readers.items():
            page = reader.game_page(gid)
            fields = pick_answer(page, rng)
            if fields:
                answer = reader.post_form(f"/games/{gid}", f"/games/{gid}/order", fields)
                assert answer.status_code == 303, (fields, answer.data[-2000:])
    with Session(db_engine(app)) as s:
        assert s.get(Game, gid).step > turns // 2, "the game went on"
    return found


def test_the_1960_game_page_shows_no_notation_in_any_language(app, jack, dick):
    gid = new_game(jack, dick)
    found = _sweep(app, {"kennedy": jack, "nixon": dick}, gid, "tmotp", 24, 5)
    assert not found, found


def test_the_mr_president_game_page_shows_no_notation_in_any_language(app, jack, dick, lyndon):
    gid = new_mrpresident_game(jack, [dick, lyndon])
    found = _sweep(app, {"p1": jack, "p2": dick, "p3": lyndon}, gid, "mrpresident", 8, 7)
    assert not found, found


def test_the_notation_help_is_where_the_notation_shows(app, jack):
    page = visible(jack.get("/help/notation/tmotp").data.decode())
    assert raw_notation(page, "tmotp"), "the check sees the notation where it is"

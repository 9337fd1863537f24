"""The game's texts (notes, prompts, reasons) in the reader's language: the ``game`` catalogue
holds every template the engine and the order service use (extracted afresh, and seen in random
games), each translated with the same placeholders and the rulebooks' words; names come from the
terms; a text the catalogue does not know stays as it is."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import engine.core as game_engine
from engine.core import ActionError
from engine.core.messages import Message, kind
from engine.games.tmotp.messages import msg
from server import i18n
from server.games import presenter
from server.games.tmotp.words import WORDS
from server.i18n import game_text
from tests.mail.test_translations import extracted, uses

TRANSLATED = [locale for locale in i18n.LOCALES if locale != "en"]
KEYWORDS = {"note": None, "msg": None, "plain": None}
BRACES = re.compile(r"\{(\w+)\}")


EXTRACTED = extracted("babel.game.cfg", KEYWORDS)


def _catalogue(path: Path):
    with path.open("rb") as po:
        return read_po(po)


def _templates(value, into: set) -> None:
    """Every template of a message's data form, nested ones included."""
    template, args = value
    into.add(template)
    for key, arg in args.items():
        if kind(key) in ("prompt", "reason") and isinstance(arg, list):
            _templates(arg, into)


# Random games: 1960's both editions, and Mr. President's variants (plurality, so that an
# election of three or four candidates ends), with the refusals met by orders of other steps.
GAMES = [("tmotp", {"edition": edition}) for edition in ("gmt", "zman")] * 6 + [
    ("mrpresident", options) for options in (
        {"edition": "chalkboard", "players": 3, "plurality": True},
        {"edition": "chalkboard", "players": 4, "nominee": True, "parties": "lot"},
        {"edition": "chalkboard", "players": 2, "version": "long"},
        {"edition": "dial", "players": 3, "version": "short"},
        {"edition": "dial", "players": 4},
        {"edition": "dial", "players": 2, "count": "electoral", "version": "short"},
        {"edition": "dial", "players": 3, "count": "electoral", "plurality": True})]
WRONG = {"tmotp": ["pass", "play 1 event", "momentum", "done", "support NY 1", "accept",
                   "order 1 2 3"],
         "mrpresident": ["play 99", "play 1 1", "play 1 2", "second 3", "upset none", "stop 2",
                         "pass"]}


def _seen_in_random_games() -> set[str]:
    """The templates of every note, prompt and refusal met in random games of both games."""
    seen: set[str] = set()
    rng = random.Random(1960)
    for n, (game, options) in enumerate(GAMES):
        state = game_engine.new_game(game, seed=f"text-{n}", options=options)
        for _ in range(5000):
            active = state.active()
            if not active:
                break
            seat = active[0]
            if seat != game_engine.CHANCE or game == "tmotp":   # no view before the deal
                _templates(state.view(seat)["prompt_message"], seen)
            if rng.random() < 0.05:         # a refusal: an action of another step
                try:
                    state.parse(seat, rng.choice(WRONG[game]))
                except ActionError as exc:
                    _templates(Message.data(exc.reason) if isinstance(exc.reason, Message)
                               else [exc.reason, {}], seen)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for note in state.s["notes"]:
            _templates(note[2:], seen)
    return seen


SEEN = _seen_in_random_games()


def test_extraction_finds_the_engines_and_the_servers_texts():
    assert "Turn {turn} begins." in EXTRACTED
    assert "The reply had no order above the quoted mail." in EXTRACTED
    assert len(EXTRACTED) >= 200


def test_every_text_met_in_random_games_is_extracted():
    missing = sorted(SEEN - set(EXTRACTED))
    assert len(SEEN) >= 90
    assert "Round {round}: {states} turned up, {n} electoral votes." in SEEN   # Mr. President
    assert not missing, ("texts built at run time that pybabel does not find (a template "
                         f"that is not a literal at its call?): {missing[:10]}")


def test_the_pot_is_what_extraction_gives():
    pot = _catalogue(i18n.TRANSLATIONS / "game.pot")
    assert {m.id for m in pot if m.id} == set(EXTRACTED), (
        "game.pot is stale: run the pybabel extract command in server/translations/README.md")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_text_is_translated_with_the_same_placeholders(locale):
    catalogue = _catalogue(i18n.catalogue_path(locale, "game"))
    translated = {m.id: m for m in catalogue if m.id}
    assert set(translated) == set(EXTRACTED), "run pybabel update; translate what is new"
    for msgid, message in translated.items():
        assert message.string and not message.fuzzy, (locale, msgid)
        assert sorted(BRACES.findall(message.string)) == sorted(BRACES.findall(msgid)), msgid


@pytest.mark.parametrize("locale", TRANSLATED)
def test_texts_use_the_rulebooks_words(locale):
    """A text that says "momentum" says the rulebook's word for it (モメンタム, impulso)."""
    words = presenter("tmotp").terms(locale)["words"]
    for message in _catalogue(i18n.catalogue_path(locale, "game")):
        for key in ("momentum", "endorsement", "media", "issue", "campaign_strategy",
                    "debates", "election_day", "electoral_votes", "support_cubes"):
            english = WORDS[key]
            said = BRACES.sub("", message.id or "")     # a placeholder's name is no word
            if said and uses(english, said):
                assert words[key].casefold() in message.string.casefold(), (key, message.id)


def test_a_note_in_japanese_and_spanish_takes_the_rulebooks_names():
    note = msg("{seat} adds {n} state support in {state}.", seat="kennedy", n=2, state="NY")
    assert note == "Kennedy adds 2 state support in New York."
    ja = game_text.text(note, "ja", "tmotp")
    es = game_text.text(note.data(), "es-MX", "tmotp")
    # Issue 47, item 5: the states too take the reader's names (terms.<locale>.json, "states")
    assert "ケネディ" in ja and "ニューヨーク州" in ja and "2" in ja and "adds" not in ja
    assert "New York" not in ja
    assert "Kennedy" in es and "Nueva York" in es and "adds" not in es
    assert game_text.text(note, "en", "tmotp") == game_text.text(note, "fr", "tmotp") == str(note)


def test_nested_prompts_and_lists_are_told_in_the_same_language():
    prompt = msg("Waiting for {seats}: {prompt}", seats=["kennedy", "nixon"],
                 prompt=msg("The Debates: the issue tiles are set on the Debate Board."))
    ja = game_text.text(prompt.data(), "ja", "tmotp")
    assert "ケネディ、ニクソン" in ja and "Waiting" not in ja and "Debate Board" not in ja


def test_a_text_the_catalogue_does_not_know_is_shown_as_it_is():
    assert game_text.text("Something the server said.", "ja", "tmotp") == \
        "Something the server said."
    assert game_text.text(["Nothing {n} here.", {"n": 3}], "es", "tmotp") == "Nothing 3 here."
    assert game_text.text(None, "ja", "tmotp") == ""


def test_a_game_text_inside_a_plain_one_keeps_the_games_names_in_english_too():
    """The order service wraps the engine's prompt in its own reason (``plain``, no names):
    the prompt inside keeps its seats' names in English, and takes the reader's in Japanese."""
    from engine.core.messages import plain
    inner = msg("Waiting for {seats}: {prompt}", seats=["kennedy"], prompt=msg("The game is over."))
    outer = plain("The order stops here: the game moved on to another decision. {prompt}",
                  prompt=inner)
    assert str(outer).endswith("Waiting for Kennedy: The game is over.")
    assert "ケネディ" in game_text.text(outer, "ja", "tmotp")

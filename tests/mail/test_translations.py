"""The catalogues and the terms are complete and say what the rulebooks say: every message of the
mail templates (extracted afresh, so a new untranslated string fails here) is translated in every
locale with the same placeholders; messages.pot is what extraction gives; every term cites the
line of the translated rulebook that prints it, and every message that uses a term uses it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
import engine.games as engine_games
from engine.games.tmotp.data import CARDS

from server import i18n
from server.games import presenter
from server.i18n import terms

# The server's games (engine/games), whose words the terms files translate: a game registered
# from elsewhere (the tests' Sealed Bid) brings its own translations.
BUILT_IN = [presenter(game) for game in engine_games.GAMES]

# Every built-in game's English terms, section by section (the terms files hold every game's).
ENGLISH = {section: {key: word for shown in BUILT_IN
                     for key, word in shown.english_terms().get(section, {}).items()}
           for section in ("seats", "issues", "regions", "words", "parties", "cards",
                           "campaigns")}
from server.games.mrpresident.summary import campaign_name
from server.games.tmotp.summary import card_name

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules"   # the rulebooks every checkout has beside it
TRANSLATED = [locale for locale in i18n.LOCALES if locale != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extracted(config: str = "babel.cfg", keywords: dict | None = None) -> dict[str, set[str]]:
    """msgid -> the files it is used in, extracted now from the sources ``config`` names (with
    ``keywords`` instead of the gettext ones, if given)."""
    with (ROOT / config).open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str, set[str]] = {}
    extra = {"keywords": keywords} if keywords else {}
    for filename, _, message, _, _ in extract_from_dir(ROOT, method_map, options_map, **extra):
        found.setdefault(message, set()).add(filename)
    return found


EXTRACTED = extracted()


def _catalogue(path: Path):
    with path.open("rb") as po:
        return read_po(po)


def test_extraction_finds_the_templates_messages():
    assert "Momentum" in EXTRACTED and "Spectator" in EXTRACTED
    assert len(EXTRACTED) >= 30


def test_the_pot_is_what_extraction_gives():
    pot = _catalogue(i18n.TRANSLATIONS / "messages.pot")
    in_pot = {m.id: {f for f, _ in m.locations} for m in pot if m.id}
    assert in_pot == EXTRACTED, ("messages.pot is stale: run the pybabel extract command in "
                                 "server/translations/README.md, then pybabel update")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(locale):
    catalogue = _catalogue(i18n.catalogue_path(locale))
    translated = {m.id: m for m in catalogue if m.id}
    assert set(translated) == set(EXTRACTED), "run pybabel update; translate what is new"
    for msgid, message in translated.items():
        assert message.string and not message.fuzzy, (locale, msgid)
        assert set(PLACEHOLDER.findall(message.string)) == set(PLACEHOLDER.findall(msgid)), msgid
        # newstyle gettext %-formats every message: a lone % would break the rendering
        assert "%" not in PLACEHOLDER.sub("", message.string).replace("%%", ""), msgid


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_compiled_catalogue_answers_every_message(locale):
    catalogue = _catalogue(i18n.catalogue_path(locale))
    assert all(i18n.gettext(m.id, locale) == m.string for m in catalogue if m.id)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_term_has_a_translation_that_cites_its_rulebook_line(locale):
    entries = terms.entries(locale)
    for section in ("seats", "issues", "regions", "words", "parties"):
        assert set(entries[section]) == set(ENGLISH[section]), (locale, section)
    # Mr. President's every campaign card has its entry: its name, and why (no rulebook names it)
    assert {int(k) for k in entries["campaigns"]} == set(ENGLISH["campaigns"])
    assert all(int(card_id) in CARDS for card_id in entries["cards"])
    rulebook = (RULES / f"1960-gmt-2nd-edition.{locale}.txt").read_text("utf-8").splitlines()
    for section, keyed in entries.items():
        for key, entry in keyed.items():
            assert entry["text"], (locale, section, key)
            if "line" in entry:
                line = rulebook[entry["line"] - 1]
                assert entry["text"].casefold() in line.casefold(), (locale, key, line)
            else:
                assert entry["why"], f"{locale} {key}: neither a rulebook line nor a reason"


# Glossary words in another sense: tied votes "carried over" to the next round (Mr. President)
# are not a state a candidate has carried; a seat handed to a bot is not a hand of cards.
OTHER_SENSES = {"carried": ("carried over", "carried to", "carried into"),
                "turn": ("turns up", "turn up", "turn the text"),  # a name's text reversed
                # Issue 46: an absent seat handed to a bot is no hand of cards.
                "hand": ("hand the seat", "hand your seat", "hand to a bot", "hand it to a bot",
                         "hand a seat")}


def uses(english: str, text: str) -> bool:
    """Whether ``text`` says the glossary word ``english`` (or its plural): "hands" says "hand",
    "turned up" and "handled" do not say "turn" and "hand"."""
    for phrase in OTHER_SENSES.get(english, ()):
        text = re.sub(re.escape(phrase), "", text, flags=re.IGNORECASE)
    return re.search(rf"\b{re.escape(english)}(?:s|es)?\b", text, re.IGNORECASE) is not None


@pytest.mark.parametrize("locale", TRANSLATED)
def test_messages_use_the_rulebooks_words(locale):
    """A message that says "Momentum" says the rulebook's word for it in every translation."""
    words = {key: word for shown in BUILT_IN
             for key, word in shown.terms(locale)["words"].items()}
    catalogue = _catalogue(i18n.catalogue_path(locale))
    for message in catalogue:
        for key, english in ENGLISH["words"].items():
            if message.id and uses(english, message.id):
                assert words[key].casefold() in message.string.casefold(), (key, message.id)


# Our own words (the rulebooks have none for them), one per thing in each language: a player's
# order is 指示 and a standing order 事前指示 in Japanese, never 命令 (a command).
HOUSE_WORDS = {"ja": {"命令": "指示"}}


@pytest.mark.parametrize("locale", sorted(HOUSE_WORDS))
@pytest.mark.parametrize("domain", ["messages", "game"])
def test_translations_keep_to_the_house_words(locale, domain):
    for message in _catalogue(i18n.catalogue_path(locale, domain)):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for avoided, word in HOUSE_WORDS[locale].items():
            assert not any(avoided in s for s in strings), (message.id, f"say {word}")


def test_a_card_the_rulebook_names_takes_its_name_and_every_other_card_its_translation():
    assert card_name(24, "ja") == "東ハーレムの結束 (24)"
    assert card_name(33, "es-MX") == "Electores no comprometidos (33)"
    assert card_name(17, "ja") == "西部での躍進 (17)"
    assert card_name(17, "es") == "Cobrando impulso en la región occidental (17)"
    assert card_name(24) == "East Harlem Pledge (24)"


def test_mr_presidents_cards_seats_and_parties_take_the_readers_words():
    """Mr. President has no translated rulebook: its campaign cards (issue 47, item 5: a player
    reads the whole game in one language), candidates and parties take their languages' words,
    each card with its printed number."""
    assert campaign_name(7) == "Train Tours (7)"
    assert campaign_name(7, "ja") == "列車遊説 (7)"
    assert campaign_name(7, "es") == "Giras en tren (7)"
    mr_president = presenter("mrpresident")
    assert mr_president.terms("ja")["seats"]["p3"] == "候補者3"
    assert mr_president.terms("es")["seats"]["p3"] == "Candidato 3"
    assert mr_president.terms("ja")["parties"]["republican"] == "共和党"
    assert presenter("tmotp").terms("en")["seats"]["kennedy"] == "Kennedy"


def test_names_follow_the_recipients_locale():
    assert presenter("tmotp").terms("ja")["regions"]["west"] == "西部"
    assert presenter("tmotp").terms("es")["issues"]["civil_rights"] == "Derechos civiles"
    assert presenter("tmotp").terms("fr")["seats"]["nixon"] == "Nixon"

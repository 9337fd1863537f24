"""1960's cards in Japanese and Spanish (server/translations/cards.<locale>.json, read by
server/games/tmotp/cards.py): every campaign, candidate and endorsement card of the engine's data
has its name, and every campaign card its event text, in each translated locale; the texts say
what the English says in the translated rulebook's words (the glossary of
server/translations/README.md, as terms.<locale>.json gives it), keep the states' English names
and every number, name another card by its translated name, and keep the names the rulebook
prints for a card itself; and the mails' and pages' names and event texts are these."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.games.tmotp.data import (CANDIDATES, CARDS, ENDORSEMENTS, ISSUE_NAMES, REGION_NAMES,
                                     SEAT_NAMES, STATES)
from server import i18n
from server.games import presenter
from server.games.tmotp import cards
from server.games.tmotp.page_words import Words
from server.games.tmotp.summary import card_name
from server.games.tmotp.words import WORDS
from server.i18n import terms

LOCALES = ("ja", "es")
RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules"

# Names that may read as the English in a language written in Latin letters, because they are
# proper names the glossary keeps as they are (like the seats, Kennedy and Nixon): a person's
# name, a nickname or slogan quoted as it was said, a title, a spacecraft.
PROPER_NAMES = {
    "campaign": {
        11: "a spacecraft's name (Sputnik V)",
        13: "a person's name", 18: "a person's name", 27: "a person's name",
        28: "a person's name", 36: "a person's name", 39: "a person's name",
        41: "a person's name", 42: "a person's name", 54: "a person's name",
        65: "a person's name", 66: "a person's name", 73: "a person's name",
        80: "a cartoonist's pen name", 82: "a person's name", 85: "a person's name",
        86: "a person's name",
        26: "the nickname of Kennedy's campaign plane",
        38: "the title of Kennedy's campaign song",
        58: "Nixon's nickname, quoted as it was said",
        92: "Truman's slogan, quoted as it was said",
    },
    "candidates": {"kennedy": "the candidate's name", "nixon": "the candidate's name"},
    "endorsements": {},
}

# English phrases where a glossary word means something else: a card is turned over or turned to
# a side (not a turn of the game), an event is carried out and a card carries an icon (no state
# is carried).
OTHER_SENSES = ("turn over", "turn it", "carried out", "carries the kennedy icon")

# The singular of a glossary word where the locale writes it otherwise than the plural the terms
# file gives ("1 issue support cube").
SINGULAR = {"ja": {"support cube": "支持キューブ"}, "es": {"support cube": "cubo de apoyo"}}

# The Japanese rulebook's words for the rest of the cards' vocabulary, each with the line of
# ../shared/rules/1960-gmt-2nd-edition.ja.txt that prints it: an English text that says the
# left-hand words says the right-hand ones in Japanese. A region's states are 南部の州 ..., whoever
# leads an issue リードしている (364), Campaigning 選挙運動 (the mails' word, rulebook 33).
JA_WORDS = [
    (r"\bstate support cubes?\b", "州の支持キューブ", 364),
    (r"\bissue support cubes?\b", "争点支持キューブ", 602),
    (r"\bmedia support cubes?\b", "メディア支持キューブ", 427),
    (r"\bmomentum markers?\b", "モメンタムマーカー", 142),
    (r"\bendorsement markers?\b", "組織票マーカー", 145),
    (r"\bissue tiles?\b", "争点タイル", 594),
    (r"\bIssue Track\b", "争点トラック", 491),
    (r"\bsupport checks?\b", "支持チェック", 82),
    (r"\bcandidate token\b", "候補者トークン", 233),
    (r"\bcandidate card\b", "候補者カード", 205),
    (r"\btravel costs?\b", "移動コスト", 417),
    (r"\brest cubes\b", "休息キューブ", 181),
    (r"\bdiscard pile\b", "捨札の山", 338),
    (r"\bCampaign deck\b", "山札", 241),
    (r"\bExhausted side\b", "消耗面", 205),
    (r"\bpreempt\b", "先取り", 352),
    (r"\bDebate event\b", "討論会イベント", 298),
    (r"\bElection Day event\b", "選挙の日イベント", 299),
    (r"\bfinal tally\b", "開票", 627),
    (r"\badvertising box(?:es)?\b", "宣伝ボックス", 733),
    (r"\bCampaign(?:s|ing)?\b(?! deck| Strategy)", "選挙運動", 33),
    (r"\bPositioning\b", "立場の表明", 444),
    (r"\bunplayable\b", "実行できな", 300),
    (r"\bin effect\b", "有効", 306),
    (r"\bCP\b", "CP", 388),
    (r"\blead(?:s|er|ers|ing)?\b", "リード", 364),
    (r"\bcarr(?:y|ies|ying)\b", "所有", 364),
    (r"\bSouthern\b", "南部", 862),
    (r"\bEastern\b", "東部", 862),
    (r"\bWestern\b", "西部", 862),
    (r"\bMidwestern\b", "中西部", 862),
]

# Where a name says a glossary word otherwise, by the rulebook's own name for the card: the
# Japanese rulebook names the four Gathering Momentum cards' family 躍進 (line 675).
NAMED_OTHERWISE = {("ja", "momentum"): {14, 15, 16, 17}}

# A card named in another card's event text is quoted so, with its translated name.
CARD_QUOTES = {"ja": ("「", "」")}


def kept(locale: str) -> dict:
    path = cards.path(locale)
    assert path.is_file(), f"{path.name} is missing: 1960's cards have no {locale} translation"
    return json.loads(path.read_text("utf-8"))


def english() -> dict[str, dict]:
    """The engine's cards, as the file's sections: key (a string) -> {"name", "event"}."""
    return {"campaign": {str(cid): {"name": c["name"], "event": c["effect"]}
                         for cid, c in CARDS.items()},
            "candidates": {seat: {"name": c["name"]} for seat, c in CANDIDATES.items()},
            "endorsements": {str(eid): {"name": c["name"]} for eid, c in ENDORSEMENTS.items()}}


def says(pattern: str, text: str) -> bool:
    for phrase in OTHER_SENSES:
        text = re.sub(re.escape(phrase), "", text, flags=re.IGNORECASE)
    return re.search(pattern, text, re.IGNORECASE) is not None


def glossary(locale: str) -> list[tuple[str, str, str]]:
    """(key, English pattern, the locale's word): the glossary (server/games/tmotp/words.py
    WORDS), the seats, issues and regions, as terms.<locale>.json gives them. A word counts with
    its plural, never inside another word (as tests/mail/test_translations.py counts it)."""
    entries = terms.entries(locale)
    found = []
    for section, english_words in (("words", WORDS), ("seats", SEAT_NAMES),
                                   ("issues", ISSUE_NAMES), ("regions", REGION_NAMES)):
        for key, word in english_words.items():
            found.append((key, rf"\b{re.escape(word)}(?:s|es)?\b", entries[section][key]["text"]))
    for word, translated in SINGULAR[locale].items():
        found.append((word, rf"\b{re.escape(word)}\b", translated))
    return found


def texts(locale: str):
    """(section, key, field, English, translation) for every text of the locale's file."""
    data, source = kept(locale), english()
    for section, keyed in source.items():
        for key, fields in keyed.items():
            for field, text in fields.items():
                yield section, key, field, text, data[section][key][field]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_has_its_name_and_event_and_nothing_else(locale):
    data = kept(locale)
    assert data["locale"] == locale and data["about"].strip()
    for section, keyed in english().items():
        assert set(data[section]) == set(keyed), (locale, section)
        for key, fields in keyed.items():
            assert set(data[section][key]) == set(fields), (locale, section, key)
            for field, text in fields.items():
                translated = data[section][key][field]
                assert isinstance(translated, str) and translated.strip(), (section, key, field)
                assert translated == translated.strip(), (section, key, field)
                if translated == text:
                    assert field == "name" and (
                        int(key) if key.isdigit() else key) in PROPER_NAMES[section], (
                        f"{locale} {section} {key}: {field} is the English")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_texts_use_the_rulebooks_words(locale):
    problems = []
    for section, key, field, text, translated in texts(locale):
        for term, pattern, word in glossary(locale):
            if field == "name" and section == "campaign" and \
                    int(key) in NAMED_OTHERWISE.get((locale, term), ()):
                continue
            if says(pattern, text) and word.casefold() not in translated.casefold():
                problems.append(f"{section} {key} {field}: says {term!r}, not {word!r}")
    assert not problems, "\n".join(problems)


def test_the_japanese_events_use_the_rulebooks_words():
    rulebook = (RULES / "1960-gmt-2nd-edition.ja.txt").read_text("utf-8").splitlines()
    problems = []
    for pattern, word, line in JA_WORDS:
        assert word in rulebook[line - 1], (word, line)
    for section, key, field, text, translated in texts("ja"):
        if field != "event":
            continue
        for pattern, word, _ in JA_WORDS:
            if says(pattern, text) and word not in translated:
                problems.append(f"{key}: {pattern} is not {word}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", LOCALES)
def test_states_numbers_and_other_cards_are_kept(locale):
    data = kept(locale)
    state_names = [s["name"] for s in STATES.values()]
    problems = []
    for section, key, field, text, translated in texts(locale):
        for state in state_names:
            if re.search(rf"\b{re.escape(state)}\b", text) and state not in translated:
                problems.append(f"{section} {key} {field}: {state} not kept")
        missing = set(re.findall(r"\d+", text)) - set(re.findall(r"[0-9]+", translated))
        if missing:
            problems.append(f"{section} {key} {field}: numbers {sorted(missing)} not written")
        if field != "event":
            continue
        for other, card in CARDS.items():
            if str(other) != key and re.search(rf"\b{re.escape(card['name'])}\b", text):
                name = data["campaign"][str(other)]["name"]
                opening, closing = CARD_QUOTES.get(locale, ("", ""))
                if f"{opening}{name}{closing}" not in translated:
                    problems.append(f"{key}: names card {other} otherwise than "
                                    f"{opening}{name}{closing}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_names_the_rulebook_prints_are_kept(locale):
    data = kept(locale)
    for key, entry in terms.entries(locale)["cards"].items():
        assert data["campaign"][key]["name"] == entry["text"], (locale, key)


@pytest.mark.parametrize("locale", LOCALES)
def test_mails_and_pages_name_and_tell_the_cards_in_the_readers_language(locale):
    data = kept(locale)
    shown = presenter("tmotp")
    names = shown.terms(locale)
    for key, entry in data["campaign"].items():
        cid = int(key)
        assert card_name(cid, locale) == f"{entry['name']} ({cid})"
        # the file keeps the states' English names; the reader reads their own (issue 47)
        assert Words(locale).card(cid)["effect"] == cards.event(cid, locale)
        said = {STATES[c]["name"]: n for c, n in names["states"].items()}
        assert cards.event(cid, locale) == re.sub(
            r"(?<![A-Za-z])(" + "|".join(sorted(map(re.escape, said), key=len, reverse=True))
            + r")(?![A-Za-z])", lambda m: said[m.group(1)], entry["event"])
        assert Words(locale).card(cid)["name"] == card_name(cid, locale)
        assert shown.text_names(locale)["card"](cid) == entry["name"]
    assert names["candidates"] == {seat: e["name"] for seat, e in data["candidates"].items()}
    assert names["endorsements"] == {int(k): e["name"] for k, e in data["endorsements"].items()}


@pytest.mark.parametrize("locale", ["en", "fr", "de-DE", None])
def test_english_and_an_untranslated_locale_read_the_printed_cards(locale):
    names = presenter("tmotp").terms(locale)
    for cid, card in CARDS.items():
        assert card_name(cid, locale or "en") == f"{card['name']} ({cid})"
        assert Words(locale or "en").card(cid)["effect"] == card["effect"]
        assert cards.event(cid, locale) == card["effect"]
    assert names["candidates"]["nixon"] == "Richard M. Nixon"
    assert names["endorsements"][13] == "Major Endorsement"


def test_a_locale_without_a_file_or_an_entry_falls_back_to_english(monkeypatch):
    assert i18n.supported("xx") == "en"
    monkeypatch.setattr(cards, "translated", lambda locale: {
        "campaign": {"5": {"name": "ボランティア"}}} if locale == "ja" else {})
    assert cards.name(5, "ja") == "ボランティア"
    assert cards.event(5, "ja") == CARDS[5]["effect"]
    assert cards.name(6, "ja") == CARDS[6]["name"]
    assert cards.candidate_name("kennedy", "ja") == "John F. Kennedy"
    assert cards.endorsement_name(1, "ja") == "Endorsement in the West"
    # a name the file lacks is the terms file's (the rulebook's), else the English
    found = cards.names("ja", printed={"cards": {24: "東ハーレムの結束"}})
    assert found["cards"][24] == "東ハーレムの結束" and found["cards"][6] == "New England"

"""Issue 47, item 5: no raw action notation reaches a player in a decision mail outside its reply
instructions (each choice's "reply: ..." line, a state's range example, the line telling how to
write a range or a pair of cards, the "preempt" suffix, the footer naming the notation) and the
quote of a reply's own lines: every decision mail of the golden set (a decision, a reminder, a
passed deadline, a resolved step, the digest, the answer to an order by reply) and a decision
mail at every kind of decision of random 1960 and Mr. President games, in English, Japanese and
Spanish (tests/notation.py finds the notation)."""

from __future__ import annotations

import html
import re

import pytest

from server import i18n
from server.mail import contexts, render
from tests.mail.test_labelled_choices import _signed, _views
from tests.mail.test_templates import LINKS, contexts_by_kind
from tests.notation import raw_notation

DECISION_KINDS = ("your_decision", "reminder", "deadline_passed", "step_resolved", "digest",
                  "order_received")
# The answer to a reply quotes the lines the player wrote (their own notation, as written).
QUOTED = re.compile(r'<p class="orders"[^>]*>.*?</p>|^[ \t]*> .*$', re.S | re.M)


def _choices(value) -> list[dict]:
    """Every decision's choices a mail context holds (a digest holds one per game)."""
    if isinstance(value, dict):
        if "groups" in value and "suffixes" in value:
            return [value]
        return [c for v in value.values() for c in _choices(v)]
    if isinstance(value, list):
        return [c for v in value for c in _choices(v)]
    return []


def _instructions(context: dict, locale: str) -> list[str]:
    """The reply instructions of a mail: the texts that may name the notation."""
    reply = i18n.gettext("reply: %(order)s", locale)
    found = []
    for choices in _choices(context):
        for group in choices["groups"]:
            found += [reply % {"order": o["action"]} for o in group["options"]]
            found += [r["example"] for r in group["ranges"]]
            found += [group["text"]] if group.get("text") else []
            found += [group["pick"]["label"]] if group.get("pick") else []
        found += [s["label"] for s in choices["suffixes"]]
        if choices.get("pairs"):
            found.append(choices["pairs"]["example"])
    return sorted(found, key=len, reverse=True)


def _visible(rendered, context: dict, locale: str) -> str:
    """The mail's text and its HTML's visible text, the reply instructions and footer left out."""
    page = re.sub(r"<(style|head)\b.*?</\1>", " ", QUOTED.sub(" ", rendered.html), flags=re.S)
    page = html.unescape(re.sub(r"<[^>]+>", "\n", page))
    text = f"{rendered.subject}\n{QUOTED.sub(' ', rendered.text)}\n{page}"
    for instruction in _instructions(context, locale):
        text = text.replace(instruction, " ")
    footer = i18n.gettext("Orders by reply: write the order on the first line of your reply, "
                          "in the notation above (%(url)s).", locale).split("(%(url)s")[0]
    return "\n".join(line for line in text.splitlines() if footer.strip() not in line)


def _leaks(kind: str, context: dict, locale: str, game_type: str) -> list[str]:
    rendered = render.render(kind, context, locale)
    return raw_notation(_visible(rendered, context, locale), game_type)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_no_decision_mail_shows_notation_outside_its_reply_instructions(locale):
    found = {}
    for name, context in contexts_by_kind(locale).items():
        kind = name.split("-")[0]
        if kind not in DECISION_KINDS:
            continue
        game_type = "mrpresident" if "mrpresident" in name else "tmotp"
        leaks = _leaks(kind, context, locale, game_type)
        if leaks:
            found[name] = leaks
    assert not found, found


@pytest.fixture(scope="module")
def decision_views():
    tmotp = _views("tmotp", [{}, {"edition": "zman"}, {"vp_cards": True}], range(3),
                   lambda view: (view.get("asks") or {}).get("step"))
    mrp = _views("mrpresident", [{"edition": "dial", "players": 3},
                                 {"edition": "chalkboard", "players": 2}], range(2),
                 lambda view: ((view.get("asks") or {}).get("step"),
                               len(view["legal_actions"]) > 0))
    return [("tmotp", v) for v in tmotp.values()] + [("mrpresident", v) for v in mrp.values()
                                                      if v["legal_actions"]]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_a_decision_mail_at_every_kind_of_decision_speaks_in_words(decision_views, locale):
    found = {}
    for game_type, view in decision_views:
        context = contexts.your_decision(1, view["seat"], 7, view, "Ann", locale, LINKS,
                                         notes_seen=max(0, len(view["notes"]) - 12),
                                         choice_url=_signed)
        leaks = _leaks("your_decision", context, locale, game_type)
        if leaks:
            found[f"{game_type} {(view.get('asks') or {}).get('step')}"] = leaks
    assert not found, found


def test_the_check_sees_notation():
    assert raw_notation("Just played: Nixon play 63 advertise", "tmotp") == [
        "play 63 advertise"]
    assert raw_notation("plays Suburban Voters for campaign points (campaign)", "tmotp") == [
        "(campaign)"]
    assert raw_notation("Campaign in a state, or stop with 'done'.", "tmotp") == ["'done'"]
    assert raw_notation("Your choice from the mail: trigger", "tmotp") == [": trigger"]
    assert raw_notation("a decision is yours (step 36).", "tmotp") == ["step 36"]
    assert raw_notation("ケネディ（campaign）", "tmotp") == ["（campaign）"]
    assert raw_notation("Nixon plays 2 cards; take 2 cards; play it in New York.", "tmotp") == []
    assert raw_notation("you lay play 3 12.", "mrpresident") == ["play 3 12"]

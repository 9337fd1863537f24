"""A decision mail lists every legal order of the seat, each named in the reader's words: for
every kind of decision 1960 asks (random games from fixed seeds, both editions, the optional
Vice President cards) and every one Mr. President asks (both editions, 2-4 candidates), the
mail's choices are compared with the engine's ``legal_actions``: each legal order is a listed
choice with a label and its signed link, a state's range, one of the cards to pick from, a
listed order with an allowed suffix (``preempt``), or a two-card play its texts explain; and
nothing listed is illegal."""

from __future__ import annotations

import random

import engine.core as engine
import pytest
from engine.core.driver import sample_chance
from engine.core.protocol import CHANCE

from server.mail import contexts, render
from tests.mail.test_templates import LINKS

# Every kind of decision 1960 asks (engine/games/tmotp: the steps a seat answers).
TMOTP_KINDS = {
    "choose_start_player", "activity", "positioning", "trigger", "advertising", "campaigning",
    "choose", "issue_shift", "award_choice", "campaign_strategy", "pick_discard",
    "issue_cubes", "place_support", "gallup_poll", "debate_round", "debate_side",
    "debate_award", "discard_redraw", "remove_support", "election_day_event_order",
    "recount", "major_endorsement", "remove_media", "election_day_strategy_order"}


def _signed(action: str) -> str:
    return "https://whistlestop.example/games/1/decide/signed-" + action.replace(" ", "-")


def _views(game: str, option_sets: list[dict], seeds: range, key) -> dict:
    """The first view with the most legal orders of each kind of decision, from random games."""
    found: dict[str, dict] = {}
    for options in option_sets:
        for seed in seeds:
            state = engine.new_game(game, seed=seed, options=options)
            rng = random.Random(seed)
            while state.active():
                active = state.active()
                if active == [CHANCE]:
                    state._do(CHANCE, sample_chance(state))
                    continue
                seat = active[0]
                view = state.view(seat)
                kind = key(view)
                if kind not in found or len(view["legal_actions"]) > len(
                        found[kind]["legal_actions"]):
                    found[kind] = view
                state._do(seat, rng.choice(state.legal_actions(seat)))
    return found


def _covered(action: str, choices: dict) -> bool:
    words = action.split()
    for group in choices["groups"]:
        if any(o["action"] == action for o in group["options"]):
            return True
        for r in group["ranges"]:
            if words[:2] == [r["verb"], r["object"]] and len(words) == 3 \
                    and 1 <= int(words[2]) <= r["most"]:
                return True
        pick = group["pick"]
        if pick and words[0] == pick["verb"] and len(words) - 1 in pick["sizes"] \
                and {int(w) for w in words[1:]} <= {c["id"] for c in pick["cards"]}:
            return True
    for suffix in choices["suffixes"]:
        if words[-1] == suffix["suffix"] and _covered(" ".join(words[:-1]), choices):
            return True
    pairs = choices["pairs"]
    return bool(pairs) and words[0] == "play" and len(words) == 3


def _check(view: dict, locale: str) -> list:
    """What is wrong with the mail of ``view``: orders not listed, listed orders that are not
    legal or unlabelled, labels or links missing from the rendered mail."""
    legal = list(view["legal_actions"])
    context = contexts.your_decision(1, view["seat"], 7, view, "Ann", locale, LINKS,
                                     choice_url=_signed)
    choices = context["choices"]
    wrong = [("not listed", a) for a in legal if not _covered(a, choices)]
    rendered = render.render("your_decision", context, locale)
    for group in choices["groups"]:
        for option in group["options"]:
            if option["action"] not in legal:
                wrong.append(("listed but not legal", option["action"]))
            if not option["label"] or option["label"] == option["action"]:
                wrong.append(("no label", option["action"]))
            if option["label"] not in rendered.text or option["url"] not in rendered.html:
                wrong.append(("not in the mail", option["label"]))
        for r in group["ranges"]:
            if r["label"] not in rendered.text or r["example"] not in rendered.text:
                wrong.append(("range not in the mail", r["label"]))
    return wrong


@pytest.fixture(scope="module")
def tmotp_views():
    return _views("tmotp", [{}, {"edition": "zman"}, {"vp_cards": True}], range(4),
                  lambda view: (view.get("asks") or {}).get("step"))


@pytest.mark.parametrize("locale", ["en", "ja", "es"])
def test_every_1960_decision_lists_every_legal_order_with_its_label(tmotp_views, locale):
    assert TMOTP_KINDS <= set(tmotp_views), TMOTP_KINDS - set(tmotp_views)
    wrong = {kind: _check(view, locale) for kind, view in tmotp_views.items()}
    assert not {k: w for k, w in wrong.items() if w}


def test_the_activity_phase_lists_every_card_in_hand_once_with_each_way_to_play_it(tmotp_views):
    view = tmotp_views["activity"]
    choices = contexts.your_decision(1, view["seat"], 7, view, "Ann", "en", LINKS,
                                     choice_url=_signed)["choices"]
    hand = view["hands"][view["seat"]]
    cards = [g for g in choices["groups"] if g["options"] and
             g["options"][0]["action"].split()[1].isdigit()]
    assert sorted(int(g["options"][0]["action"].split()[1]) for g in cards) == sorted(hand)
    for group in cards:
        assert " CP" in group["facts"]
        for option in group["options"]:
            assert group["heading"].split(" (")[0] in option["label"]
    labels = [o["label"] for g in cards for o in g["options"]]
    assert any(label.startswith("Advertising with ") and label.endswith(" CP)")
               for label in labels)


def test_a_label_is_in_the_readers_language(tmotp_views):
    view = tmotp_views["activity"]
    labels = {loc: [o["label"] for g in contexts.your_decision(
        1, view["seat"], 7, view, "Ann", loc, LINKS)["choices"]["groups"] for o in g["options"]]
        for loc in ("en", "ja", "es")}
    assert labels["en"] != labels["ja"] and labels["en"] != labels["es"]
    assert not any(label.startswith(("Campaigning", "Advertising", "Event:"))
                   for label in labels["ja"] + labels["es"])


def test_the_check_finds_an_order_left_out(tmotp_views):
    view = dict(tmotp_views["issue_shift"])
    context = contexts.your_decision(1, view["seat"], 7, view, "Ann", "en", LINKS)
    choices = context["choices"]
    dropped = choices["groups"][-1]["options"].pop()
    assert not _covered(dropped["action"], choices)


@pytest.mark.parametrize("options", [
    {"edition": "dial", "players": 2}, {"edition": "dial", "players": 4, "plurality": True},
    {"edition": "chalkboard", "players": 3, "plurality": True}])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_mr_president_decision_lists_its_cards_by_name_and_value(options, locale):
    views = _views("mrpresident", [options], range(3),
                   lambda view: ((view.get("asks") or {}).get("step"),
                                 len(view["legal_actions"]) > 0))
    assert len(views) > 1
    for view in views.values():
        if not view["legal_actions"]:
            continue
        assert not _check(view, locale)
        context = contexts.your_decision(1, view["seat"], 7, view, "Ann", locale, LINKS)
        for group in context["choices"]["groups"]:
            for option in group["options"]:
                if option["action"].split()[-1] != "none":
                    number = option["action"].split()[-1]
                    assert f"({number})" in option["label"], option

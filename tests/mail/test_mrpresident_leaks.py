"""No mail about a game of Mr. President shows a seat what the other seats hold or have laid face
down: over random 3- and 4-player games of both editions, two games that differ only in what a
seat may not see give that seat the same mails.

Every candidate holds the same 13 cards at the start, so a card's name in a mail says nothing
about whose it is (1960's test looks for the other hand's card names): the test changes the hidden
things instead and compares every mail the seat could get. Hidden, as the rules and the view say:
the other candidates' hands and discards (their counts are public); a card laid face down and not
yet turned up (the dial edition's second of two, the chalkboard leader's cards); an order sealed
in a step still open; an upset attempt taken back unseen. The changed game is the same log with
one hidden choice replaced and replayed from the seed (the engine checks it is legal), or the
same state with the other hands replaced by cards of the same number. A mail's context is all its
templates show, so equal contexts are equal mails in every locale; a few are rendered too.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import engine.core as engine
import pytest

from server.mail import contexts, render
from server.services.games import _advance

LINKS = contexts.Links("https://whistlestop.example")
NOW = datetime(2026, 11, 22, 21, 40, tzinfo=timezone.utc)
AUTO = [{"actions": ["play 1"], "source": "default", "rule": "default"}]
NOTES = 12  # the newest notes a mail tells (the rest are the same notes, told before)
CARDS = range(1, 14)

GAMES = [
    ({"edition": "chalkboard", "players": 3}, "leak-1"),
    ({"edition": "chalkboard", "players": 4, "version": "long", "plurality": True}, "leak-2"),
    ({"edition": "chalkboard", "players": 4, "nominee": True, "parties": "lot"}, "leak-3"),
    ({"edition": "dial", "players": 3, "version": "short"}, "leak-4"),
    ({"edition": "dial", "players": 4, "version": "short"}, "leak-5"),
    ({"edition": "dial", "players": 3, "count": "electoral", "version": "short"}, "leak-6"),
    ({"edition": "dial", "players": 4}, "leak-7"),
    ({"edition": "dial", "players": 3}, "leak-8"),
    ({"edition": "chalkboard", "players": 3, "version": "long", "plurality": True}, "leak-9"),
    ({"edition": "chalkboard", "players": 4, "plurality": True}, "leak-10"),
    ({"edition": "dial", "players": 4, "count": "electoral", "plurality": True}, "leak-11"),
    ({"edition": "dial", "players": 3, "version": "short"}, "leak-12"),
]


def mails(state, seat: str, locale: str = "en") -> dict[str, dict]:
    """The context of every kind of mail the seat could get now, from its view."""
    view = state.view(seat)
    seen = max(0, len(view["notes"]) - NOTES)
    asked = bool(view["legal_actions"])
    url = (lambda action: f"{LINKS.base_url}/decide/" + action.replace(" ", "-"))
    found = {
        "step_resolved": contexts.step_resolved(1, seat, 5, view, "P", locale, LINKS,
                                                notes_seen=seen, auto_orders=AUTO),
        "deadline_passed": contexts.deadline_passed(
            1, seat, 4, view, "P", locale, LINKS, ["play 1"], "default", "default", 5, asked,
            notes_seen=seen, choice_url=url, auto_orders=AUTO,
            deadline_at=NOW + timedelta(hours=5), now=NOW),
        "order_received": contexts.order_received(
            1, seat, {**view, "legal_actions": []}, "P", locale, LINKS,
            {"lines": ["play 1"], "status": "sealed", "applied": ["play 1"],
             "answered_step": 5}, 5, notes_seen=seen),
        "order_refused": contexts.order_refused(
            1, seat, view, "P", locale, LINKS,
            {"lines": ["play 99"], "status": "illegal", "answered_step": 5,
             "reason": ["Campaign cards are numbered 1 to 13; your hand: {campaigns}.",
                        {"campaigns": view["hands"].get(seat, [])}],
             "legal": view["legal_actions"]}, 5, notes_seen=seen, choice_url=url),
    }
    if asked:
        found["your_decision"] = contexts.your_decision(1, seat, 5, view, "P", locale, LINKS,
                                                        notes_seen=seen, choice_url=url,
                                                        auto_orders=AUTO)
        found["reminder"] = contexts.reminder(
            1, seat, 5, view, "P", locale, LINKS, NOW + timedelta(hours=5), NOW, 1, 1,
            {"source": "default", "actions": [state.default_action(seat)]}, notes_seen=seen,
            choice_url=url)
        found["digest"] = contexts.digest(
            "P", "2026-11-22", [{"game_id": 1, "game": "mrpresident", "seat": seat, "step": 5,
                                 "prompt": view["prompt_message"],
                                 "legal_actions": view["legal_actions"], "deadline_at": None,
                                 "choice_url": url}], locale, LINKS, NOW)
    if not state.active():
        found["game_over"] = contexts.game_over(1, seat, view, state.outcome().to_dict(),
                                                "seed", "hash", "P", locale, LINKS)
    return found


def _choose(state, seat: str, rng: random.Random) -> str:
    legal = state.legal_actions(seat)
    singles = [a for a in legal if len(a.split()) == 2]
    return rng.choice(singles if singles and rng.random() < 0.75 else legal)


def _hidden_choices(state, seat: str) -> list[tuple[int, str, list[str], bool]]:
    """(log index, who, other actions of the same public footprint, whether the cards lie on
    the table face down) of every choice of another seat that ``seat`` may not see now."""
    s = state.s
    masked = state.view(seat)["log"]
    open_step = state.top["step"] if s["stack"] else None
    found = []
    for i, (who, action) in enumerate(s["log"]):
        if masked[i] != [None, "(sealed)"] or who in (seat, engine.CHANCE):
            continue
        verb, *args = action.split()
        laid = s["plays"].get(who)
        if verb == "play":
            on_table = bool(laid) and laid["cards"][:len(args)] == [int(a) for a in args]
            shown = laid["shown"] if on_table else 0
            if shown >= len(args):
                continue            # turned up: public
            kept = args[:shown]
            others = [c for c in CARDS if str(c) not in args]
            found.append((i, who, [" ".join(["play", *kept, *(str(c) for c in pick)])
                                   for pick in _picks(others, len(args) - shown)], on_table))
        elif verb == "second" and open_step == "answer" or verb == "upset" and (
                open_step == "upset" or i in s["withdrawn"]):
            found.append((i, who, [f"{verb} {c}" for c in ["none", *CARDS]
                                   if f"{verb} {c}" != action], False))
    return found


def _picks(cards: list[int], n: int) -> list[tuple]:
    return [(c,) for c in cards] if n == 1 else [(a, b) for a in cards for b in cards if a != b]


def _replaced(state, index: int, action: str):
    """The game with log entry ``index`` replaced by ``action`` (the same seat), replayed from
    its seed; None when that is not legal there."""
    log = [list(entry) for entry in state.s["log"]]
    log[index][1] = action
    try:
        return engine.replay("mrpresident", state.seed, log, options=state.s["options"])
    except engine.ActionError:
        return None


def _other_hands(state, seat: str, rng: random.Random):
    """The same state, every other candidate's hand and discards replaced by as many other
    cards."""
    changed = engine.from_dict(state.to_dict())
    for x in changed.seats:
        if x != seat:
            for pile in ("hands", "discards"):
                n = len(changed.s[pile][x])
                changed.s[pile][x] = sorted(rng.sample(list(CARDS), n))
    return changed


def _differing(a: dict, b: dict) -> list[str]:
    return [kind for kind in a if a[kind] != b.get(kind)] + [k for k in b if k not in a]


@pytest.mark.parametrize("options,seed", GAMES, ids=[seed for _, seed in GAMES])
def test_a_seat_gets_the_same_mails_whatever_the_others_hide(options, seed):
    state = engine.new_game("mrpresident", seed=seed, options=options)
    _advance(state)
    rng = random.Random(seed)
    checked = laid = seen_by_owner = 0
    look = 0.15 if state.s["options"]["version"] == "short" else 0.08
    while state.active():
        active = list(state.active())
        for n, seat in enumerate(active):
            if rng.random() < look:         # a look now: some seats have sealed, some not
                for reader in state.seats:
                    hidden = _hidden_choices(state, reader)
                    if not hidden:
                        continue
                    index, owner, others, on_table = rng.choice(hidden)
                    for action in rng.sample(others, min(3, len(others))):
                        changed = _replaced(state, index, action)
                        if changed is None:
                            continue
                        assert changed.s != state.s
                        differ = _differing(mails(state, reader), mails(changed, reader))
                        assert not differ, (seed, reader, state.s["log"][index], action, differ)
                        if on_table:    # laid face down: the owner's mails show it
                            laid += 1
                            seen_by_owner += mails(state, owner) != mails(changed, owner)
                        checked += 1
                        break
                reader = rng.choice(state.seats)
                differ = _differing(mails(state, reader), mails(_other_hands(state, reader, rng),
                                                                reader))
                assert not differ, (seed, reader, "other hands", differ)
            state.apply(seat, _choose(state, seat, rng))
            if state.active() != active[n + 1:]:
                break
        _advance(state)
    for reader in state.seats:     # the end: the result, every card turned up
        assert mails(state, reader)["game_over"]["summary"]["over"]
    assert checked >= 5, "the game hid too little to check"
    # The check can see a change: the candidate who laid the card gets other mails.
    assert seen_by_owner == laid, "a change of one's own face-down card did not show to one"


def test_the_mails_show_the_seat_its_own_hand_and_face_down_card():
    """What the comparison relies on: a seat's mails do show its own hidden cards (so a leak of
    another's would show too), rendered."""
    state = engine.new_game("mrpresident", seed="own", options={"edition": "dial", "players": 3})
    _advance(state)
    state.apply("p1", "play 13 2")
    state.apply("p2", "play 5")
    state.apply("p3", "play 6")
    _advance(state)
    assert state.top["step"] == "answer"
    mine = render.render("step_resolved", mails(state, "p1")["step_resolved"])
    assert "Full Party Backing (13)" in mine.text and "face down: Billboards (2)" in mine.text
    context = mails(state, "p2")["your_decision"]
    theirs = render.render("your_decision", context)
    assert "Full Party Backing (13) · 1 card(s) face down" in theirs.text
    # Their own cards are their choices (from their legal orders); the rest of the mail, up to
    # their own hand, names none of mine.
    assert "Billboards (2)" in theirs.text.split("Reply to this mail")[1]
    rest = render.render("your_decision", {**context, "choices": {**context["choices"],
                                                                  "any": False}})
    assert "Billboards (2)" not in rest.text.split("Your hand")[0]

"""Fixed games of Mr. President and the contexts of every kind of mail about them, for the golden
test (tests/mail/test_templates.py): seeds and choices fixed, so the mails are the same at every
run. The views are the seats' own; a sealed order's count is the server's (``committed``, as
server/mail/recipients.py sets it)."""

from __future__ import annotations

import random
from datetime import datetime

import engine.core as engine
from engine.core.messages import data

from server.mail import contexts
from server.services.games import _advance

DIAL = {"edition": "dial", "players": 3, "version": "short"}
CHALKBOARD = {"edition": "chalkboard", "players": 3}
NOMINEE = {"edition": "chalkboard", "players": 4, "nominee": True}


def choose(state, seat: str, rng: random.Random) -> str:
    """A random legal order; one card rather than two four times in five, as players do."""
    legal = state.legal_actions(seat)
    singles = [a for a in legal if len(a.split()) == 2]
    return rng.choice(singles if singles and rng.random() < 0.8 else legal)


def play(options: dict, seed: str, until, rng_seed: int = 7, limit: int = 2000):
    """A game played with random choices (every seat asked commits in turn, as the server's
    sealed orders do) until ``until(state)`` holds before a decision; the state there."""
    state = engine.new_game("mrpresident", seed=seed, options=options)
    _advance(state)
    rng = random.Random(rng_seed)
    for _ in range(limit):
        if until(state):
            return state
        active = state.active()
        if not active:
            break
        for seat in active:
            state.apply(seat, choose(state, seat, rng))
        _advance(state)
    if until(state):
        return state
    raise AssertionError(f"no state found for {seed}")


def step_of(state) -> str | None:
    return state.top["step"] if state.s["stack"] else None


def at_round(n: int, step: str = "play"):
    return lambda s: step_of(s) == step and s.s["round"] >= n and len(s.active()) > 1


def _with_history(pred):
    return lambda s: pred(s) and s.s["history"]


def over(state) -> bool:
    return not state.active()


def upset_open(state) -> bool:
    """An upset offered to some candidates: first place is not asked (a resolution mail)."""
    return step_of(state) == "upset" and len(state.active()) < len(state.seats)


def refusal(state, seat: str, order: str) -> list:
    try:
        state.parse(seat, order)
    except engine.ActionError as exc:
        return data(exc.reason)
    raise AssertionError(f"{order!r} was legal")


def committed(view: dict, n: int) -> dict:
    """The view as the server shows it when ``n`` seats have sealed their orders."""
    return {**view, "committed": n}


def contexts_by_kind(locale: str, links: contexts.Links, signed, prefs: dict, now: datetime,
                     deadline: datetime, tmotp_waiting: dict) -> dict[str, dict]:
    dial = play(DIAL, "golden-mp", _with_history(at_round(5)))
    second = play({**DIAL, "players": 4, "version": "long"}, "golden-mp-2",
                  lambda s: step_of(s) == "answer")
    chalk = play(CHALKBOARD, "golden-mp-3", _with_history(at_round(3)))
    conventions = play(NOMINEE, "golden-mp-4",
                       lambda s: at_round(3)(s) and s.s["stage"] == "convention"
                       and "p2" in s.active()
                       and any(c["pots"] for c in s.s["contests"].values()))
    upset = play({**DIAL, "players": 4}, "golden-mp-5", upset_open)
    finished = play(DIAL, "golden-mp-end", over)
    nominated = play(NOMINEE, "golden-mp-end-2", over)
    jack, dick = prefs["Jack"], prefs["Dick"]
    first = next(x for x in upset.seats if x not in upset.active())
    answering = second.active()[0]
    twice = "play {0} {0}".format(dial.view("p1")["hands"]["p1"][0])  # the same card twice
    return {
        "your_decision-mrpresident": contexts.your_decision(
            12, "p1", 40, committed(dial.view("p1"), 1), "Jack", locale, links,
            notes_seen=len(dial.view("p1")["notes"]) - 9, choice_url=signed,
            preferences_url=jack),
        "your_decision-mrpresident_chalkboard": contexts.your_decision(
            12, "p2", 18, chalk.view("p2"), "Dick", locale, links,
            notes_seen=len(chalk.view("p2")["notes"]) - 6, choice_url=signed,
            preferences_url=dick),
        "reminder-mrpresident": contexts.reminder(
            12, answering, 23, committed(second.view(answering), 1), "Jack", locale, links,
            deadline, now, 1, 2, {"source": "default",
                                  "actions": [second.default_action(answering)]},
            notes_seen=len(second.view(answering)["notes"]) - 5, choice_url=signed,
            preferences_url=jack),
        "deadline_passed-mrpresident": contexts.deadline_passed(
            12, "p2", 51, conventions.view("p2"), "Dick", locale, links, ["play 1"],
            "default", "default", 52, True,
            notes_seen=len(conventions.view("p2")["notes"]) - 7, choice_url=signed,
            deadline_at=deadline, now=now, preferences_url=dick),
        "step_resolved-mrpresident": contexts.step_resolved(
            12, first, 33, upset.view(first), "Jack", locale, links,
            notes_seen=len(upset.view(first)["notes"]) - 8, preferences_url=jack),
        "digest-mrpresident": contexts.digest(
            "Dick", "2026-11-22",
            [{"game_id": 14, "game": "mrpresident", "seat": "p1", "step": 40,
              "prompt": dial.view("p1")["prompt_message"],
              "legal_actions": dial.view("p1")["legal_actions"], "deadline_at": deadline,
              "choice_url": signed}, tmotp_waiting],
            locale, links, now, preferences_url=dick),
        "game_started-mrpresident": contexts.game_started(
            12, "p2", "Dick", "ab12" * 16, locale, links, preferences_url=dick,
            game_type="mrpresident", seats=["p1", "p2", "p3"], options=DIAL),
        "invitation-mrpresident": contexts.invitation(
            12, "p3", "Jack", locale, links, game_type="mrpresident", options=NOMINEE),
        "seat_joined-mrpresident": contexts.seat_joined(
            12, "p1", "Jack", "Dick", "p2", False, locale, links, preferences_url=jack,
            game_type="mrpresident"),
        "game_over-mrpresident": contexts.game_over(
            12, "p2", finished.view("p2"), finished.outcome().to_dict(), "golden-mp-end",
            "cd34" * 16, "Dick", locale, links, preferences_url=dick),
        "game_over-mrpresident_nominee": contexts.game_over(
            12, "p1", nominated.view("p1"), nominated.outcome().to_dict(), "golden-mp-end-2",
            "ef56" * 16, "Jack", locale, links, preferences_url=jack),
        "order_received-mrpresident_sealed": contexts.order_received(
            12, "p1", {**committed(dial.view("p1"), 2), "legal_actions": []}, "Jack", locale,
            links, {"lines": ["play 12 3"], "status": "sealed", "applied": ["play 12 3"],
                    "answered_step": 40}, 40, notes_seen=len(dial.view("p1")["notes"]),
            preferences_url=jack),
        "order_refused-mrpresident_illegal": contexts.order_refused(
            12, "p1", dial.view("p1"), "Jack", locale, links,
            {"lines": [twice], "status": "illegal", "answered_step": 40,
             "reason": refusal(dial, "p1", twice),
             "legal": dial.view("p1")["legal_actions"]},
            40, notes_seen=len(dial.view("p1")["notes"]), choice_url=signed,
            preferences_url=jack),
    }


"""One final tally (issue 22): at the end of a game of 1960 every place that shows the
electoral votes - the game page, the result page, the replay's last position, the game-over mail
and the API - shows the tally of the engine's outcome, with the states of Unpledged Electors
counted for nobody (the game page once said 397 where the result page said 368: the header
counted the states Kennedy led but the electors denied him).

Each edition's game is played through the order service to an end where Unpledged Electors
took at least one state from Kennedy: the players' choices come from a policy that depends only
on the seed, the position and the seat, so the engine finds such a game first and the server
plays the same one (its chance draws depend on the seed and the position only).
"""
from __future__ import annotations

import random
import re

import pytest
from sqlmodel import Session, select

import engine.core as engine
from engine.core import CHANCE, sample_chance
from engine.games.tmotp.data import STATES
from server.models import Game, Order
from server.services import games as svc
from tests.web.pages_helpers import Reader, db_engine

SCORE = re.compile(r'<p class="score">(.*?)</p>', re.S)
TALLY = re.compile(r'<p class="tally">(.*?)</p>', re.S)
EV = re.compile(r"(\d+) electoral votes")
TILE = re.compile(r'<g class="state ([a-z ]+)" data-state="([A-Z]{2})">(.*?)</g>', re.S)


def choice(seed: str, state, seat: str) -> str:
    """The policy: a legal action drawn from the seed, the position and the seat only."""
    legal = state.legal_actions(seat)
    return random.Random(f"{seed}/{len(state.s['log'])}/{seat}").choice(legal)


def play_locally(seed: str, options: dict):
    g = engine.new_game("tmotp", seed=seed, options=options)
    while g.active():
        active = g.active()
        if active == [CHANCE]:
            g.apply(CHANCE, sample_chance(g))
            continue
        picks = {seat: choice(seed, g, seat) for seat in active}   # sealed: from one position
        for seat, action in picks.items():
            g.apply(seat, action)
    return g


def seed_with_unpledged_electors(edition: str) -> str:
    for k in range(200):
        seed = f"tally-{edition}-{k}"
        g = play_locally(seed, {"edition": edition})
        if g.s["result"].get("unawarded"):
            return seed
    raise AssertionError("no random game ended with Unpledged Electors")


def play_on_server(app, gid: int, seed: str) -> None:
    """Every order through the game service, in the app's context: each commit publishes its
    outbox rows, and the (eager) tasks run against this app's database."""
    with app.app_context(), Session(db_engine(app)) as session:
        for _ in range(5000):
            game = session.get(Game, gid)
            session.refresh(game)
            if game.status != "active":
                return
            state = svc.whole_state(session, game)
            active = state.active()
            sealed = set(session.exec(select(Order.seat).where(
                Order.game_id == gid, Order.step == game.step,
                Order.status == "pending")).all())
            step = game.step
            for seat in active:
                if seat not in sealed:
                    svc.submit_order(session, gid, seat, step, [choice(seed, state, seat)],
                                     by_player=False)
            if len(active) > 1:
                svc.resolve_step(session, gid, step)
    raise AssertionError("the game did not end")


def numbers(fragment: str) -> list[int]:
    return [int(n) for n in EV.findall(re.sub(r"<[^>]+>", " ", fragment))]


@pytest.mark.parametrize("edition", ["gmt", "zman"])
def test_every_place_shows_the_engines_final_tally(app, client, store, players, smtp_catcher,
                                                   edition):
    seed = seed_with_unpledged_electors(edition)
    ann, bob = players["kennedy"], players["nixon"]
    gid = client.open_game(ann, {"kennedy": ann.email, "nixon": bob.email}, public=True,
                           options={"edition": edition})["game"]["id"]
    store.set_seed(gid, seed)
    assert client.post(f"/games/{gid}/join", bob, json={}).status_code == 200
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    play_on_server(app, gid, seed)

    game = store.game(gid)
    state = store.state(gid)
    outcome = state.outcome()
    expected = [outcome.scores["kennedy"], outcome.scores["nixon"]]
    unawarded = state.s["result"]["unawarded"]
    assert unawarded, "the game must end with states denied to Kennedy"
    board = {x: 0 for x in ("kennedy", "nixon")}
    for code, support in state.s["support"].items():
        if support:
            board["kennedy" if support > 0 else "nixon"] += STATES[code]["ev"]
    assert board["kennedy"] > expected[0], "the board alone would count the denied states"

    reader = Reader(app, smtp_catcher, ann.email)
    reader.sign_in()
    page = reader.get(f"/games/{gid}").data.decode()
    assert numbers(SCORE.search(page).group(1)) == expected
    result = reader.get(f"/games/{gid}/result").data.decode()
    assert numbers(TALLY.search(result).group(1)) == expected
    assert numbers(SCORE.search(result).group(1)) == expected
    tiles = {code: (classes, inner) for classes, code, inner in TILE.findall(result)}
    for code in unawarded:                 # on the map: nobody's, and said why
        classes, inner = tiles[code]
        assert "kennedy" not in classes.split() and "nobody (unpledged electors)" in inner
    replay = reader.get(f"/games/{gid}/replay?at={len(state.s['log'])}").data.decode()
    assert numbers(SCORE.search(replay).group(1)) == expected

    over = [m for m in smtp_catcher.to(ann.email) if "is over" in m.get_body(("plain",))
            .get_content()]
    assert over, "no game-over mail"
    text = over[-1].get_body(("plain",)).get_content()
    assert numbers(text.split("THE CAMPAIGN", 1)[1])[:2] == expected

    api = client.get(f"/games/{gid}", ann).get_json()
    assert [api["result"]["scores"][s] for s in ("kennedy", "nixon")] == expected
    votes = api["view"]["result"]["electoral_votes"]
    assert [votes["kennedy"], votes["nixon"]] == expected

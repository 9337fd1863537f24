"""Every game of Mr. President ends (RULINGS.md, "Every game ends: the third election is the
last"), and its stored state stays bounded.

Every variant the options allow (both editions, 2-4 players, short and long, electoral and
popular vote, with and without plurality, the Nominee version with parties by seats and by lot)
is played 500 times with uniformly random legal actions - the policy that, before the ruling, went
through hundreds of elections of the dial edition without a winner. Each game must end within
``MAX_LOG`` logged actions, with at most three elections, and its stored state (``to_dict()`` as
JSON, what the server keeps) under ``MAX_STATE_BYTES``. The bounds are about twice the largest
measured (the four-player long chalkboard game: about 720 actions and 200 kB).

Scenario tests below reach the ruling's three endings on purpose: the third election won by
the most votes without a majority, a tie in it decided over all the elections, and a tie in
that drawn by lot; and the dial edition's state card tied a second time after it was buried.
"""
from __future__ import annotations

import json

import pytest

from engine.core import CHANCE, new_game, play_random
from engine.games.mrpresident.election import LAST_ELECTION, end_election
from engine.games.mrpresident.state import check_options

GAMES = 500
CHUNKS = 2                   # each variant's 500 games as two tests, for pytest -n 2
MAX_LOG = 1500
MAX_STATE_BYTES = 400_000


def variants() -> dict:
    """Every combination of options that check_options accepts, by a readable name."""
    out = {}
    for edition in ("chalkboard", "dial"):
        for players in (2, 3, 4):
            for version in ("short", "long"):
                for count in ("electoral", "popular"):
                    for plurality in (False, True):
                        for nominee, parties in ((False, "seats"), (True, "seats"),
                                                 (True, "lot")):
                            options = {"edition": edition, "players": players,
                                       "version": version, "count": count,
                                       "plurality": plurality, "nominee": nominee,
                                       "parties": parties}
                            try:
                                check_options(options)
                            except ValueError:
                                continue
                            name = "-".join([edition, f"{players}p", version, count,
                                             "plurality" if plurality else "majority",
                                             f"nominee-{parties}" if nominee else "national"])
                            out[name] = options
    return out


VARIANTS = variants()


def test_the_variants_cover_every_option():
    assert len(VARIANTS) == 44          # chalkboard 20 (Nominee: 4 players), dial 24
    for key, values in (("edition", {"chalkboard", "dial"}), ("players", {2, 3, 4}),
                        ("version", {"short", "long"}), ("count", {"electoral", "popular"}),
                        ("plurality", {False, True}), ("nominee", {False, True}),
                        ("parties", {"seats", "lot"})):
        assert {v[key] for v in VARIANTS.values()} == values


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_random_game_ends_bounded(name, chunk):
    _play_bounded(name, range(chunk, GAMES, CHUNKS))


SAMPLE = 6  # the fast tier's games per variant (scripts/test --fast); the full suite plays GAMES


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_sample_of_random_games_ends_bounded(name):
    _play_bounded(name, range(GAMES, GAMES + SAMPLE))


def _play_bounded(name, seeds):
    options = VARIANTS[name]
    longest = largest = 0
    for seed in seeds:
        g = play_random("mrpresident", seed, options=options,
                        check=lambda state: _bounded(state, name, seed))
        assert g.outcome() is not None and g.s["result"]["winner"]
        assert g.s["election"] <= LAST_ELECTION
        size = len(json.dumps(g.to_dict()))
        assert size < MAX_STATE_BYTES, (name, seed, size)
        longest, largest = max(longest, len(g.s["log"])), max(largest, size)
    assert longest > 0 and largest > 0


def _bounded(state, name, seed):
    assert len(state.s["log"]) <= MAX_LOG, (name, seed, state.s["election"])


# --- the ruling's endings, reached on purpose -------------------------------------------------

def at_election_end(options, election, tally, past=(), seed=3):
    """A game whose ``election`` just ran out of cards with ``tally`` (and ``past`` tallies)."""
    g = new_game("mrpresident", seed=seed, options=options)
    s = g.s
    s["election"] = election
    s["past"] = [{"election": i + 1, "tally": dict(t), "ev": dict(t)} for i, t in enumerate(past)]
    contest = s["contests"]["national"]
    contest["tally"] = dict(tally)
    contest["ev"] = dict(tally)
    s["deck"] = []
    s["stack"] = []
    end_election(g)
    return g


def test_a_majority_is_still_needed_before_the_last_election():
    g = at_election_end({"edition": "dial", "count": "electoral"}, 2, {"p1": 260, "p2": 250})
    assert g.s["result"] is None and g.s["election"] == 3
    assert "election 3, the last" in g.s["notes"][-1][1]


def test_the_last_election_goes_to_the_most_votes():
    g = at_election_end({"edition": "dial", "count": "electoral"}, 3, {"p1": 260, "p2": 250})
    assert g.s["result"]["winner"] == "p1"
    assert g.outcome().winner == "p1"


def test_a_tie_in_the_last_election_goes_to_the_most_votes_over_all():
    g = at_election_end({"edition": "chalkboard", "players": 3}, 3,
                        {"p1": 200, "p2": 200, "p3": 100},
                        past=[{"p1": 250, "p2": 200, "p3": 88}, {"p1": 100, "p2": 160, "p3": 0}])
    assert g.s["result"]["winner"] == "p2"           # 560 against 550 over the three


def test_a_tie_over_all_the_elections_is_drawn_by_lot():
    g = at_election_end({"edition": "chalkboard", "players": 2, "plurality": True}, 3,
                        {"p1": 260, "p2": 260}, past=[{"p1": 200, "p2": 200}] * 2)
    assert g.active() == [CHANCE] and g.s["result"] is None
    assert sorted(a for a, _ in g.chance_outcomes()) == ["lot p1 p2", "lot p2 p1"]
    g.apply(CHANCE, "lot p2 p1")
    assert g.s["result"]["winner"] == "p2" and not g.active()
    assert "By lot" in g.s["notes"][-2][1]


def test_the_nominee_version_draws_a_party_by_lot():
    options = {"edition": "chalkboard", "players": 4, "nominee": True}
    g = new_game("mrpresident", seed=5, options=options)
    s = g.s
    s["parties"] = {"republican": ["p1", "p2"], "democratic": ["p3", "p4"]}
    s["nominees"] = {"republican": {"president": "p1", "vice": "p2"},
                     "democratic": {"president": "p4", "vice": "p3"}}
    s["stage"], s["election"] = "national", 3
    s["past"] = [{"election": 1, "tally": {"republican": 250, "democratic": 250}, "ev": {}}] * 2
    s["contests"] = {"national": {"sides": {}, "tally": {"republican": 1, "democratic": 1},
                                  "ev": {"republican": 1, "democratic": 1}, "won": {},
                                  "pots": [], "leaders": [], "decided": False}}
    s["deck"], s["stack"] = [], []
    end_election(g)
    g.apply(CHANCE, "lot democratic republican")
    assert g.s["result"]["president"] == "p4" and g.outcome().winner == "p4"


def test_a_state_card_is_buried_once_in_an_election():
    """Dial edition, electoral vote: two candidates tie on a state card (both lay card 13): it is
    buried. When it comes back and they tie on it again, nobody wins it."""
    g = new_game("mrpresident", seed=11, options={"edition": "dial", "count": "electoral"})
    first = g.chance_outcomes()[0][0]
    g.apply(CHANCE, first)
    state = first.split()[1]
    g.apply("p1", "play 13")
    g.apply("p2", "play 13")
    _no_more(g)
    assert state in g.s["deck"] and state in g.s["buried"]
    g.apply(CHANCE, f"turn {state}")
    g.apply("p1", "play 13")
    g.apply("p2", "play 13")
    _no_more(g)
    assert state not in g.s["deck"] and g.s["history"][-1]["set_aside"] == ["p1", "p2"]
    assert g.s["contests"]["national"]["tally"] == {"p1": 0, "p2": 0}
    assert "buried once already" in g.s["notes"][-1][1] or \
        any("buried once already" in n[1] for n in g.s["notes"][-3:])


def _no_more(g):
    """Answer 'none' to any second card, upset or stop asked after the reveal."""
    while g.active() and g.active() != [CHANCE]:
        for seat in g.active():
            nones = [a for a in g.legal_actions(seat) if a.endswith(" none")]
            assert nones, g.legal_actions(seat)
            g.apply(seat, nones[0])

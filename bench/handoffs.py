"""Hand-offs per turn of a two-person game of 1960, asking everything against the default
standing orders (issue 26, item 3).

Run from the repository root:
    python bench/handoffs.py [--games N] [--bot random|greedy] [--seed-prefix S]

Plays N seeded games (seeds ``S-0`` .. ``S-(N-1)``), both seats played by the same kind of bot,
through the server's order service on a throwaway SQLite database (server/services/games.py:
``create_game``, ``submit_order``, ``resolve_step``; no HTTP): forced choices and chance are
applied by the server, and so are the seats' standing orders (server/services/standing.py, the
AutoOrders recorded as for a player). Each game is played twice, with the same seed and the same
bots' draws: once with no standing order filed (every decision asked), once with the values a
new game offers first (each game presenter's ``suggested``; engine/games/tmotp/standing.py
SUGGESTED says why), filed for both seats as the lobby files them.

A decision is a point where the server stops and asks one seat (or both, at a simultaneous
step). It prints, per turn of play:
- **hand-offs**: seats asked that are not the one whose order led there (a mail to a person who
  did not just act; the actor reads the next decision in the answer to its own order);
- **asked**: seats asked (each a question to a person: a mail or a page to answer);
- the ratio of the defaults' figure to the asking-everything one, and which decisions (by the
  engine's step name) the hand-offs went to.
No assertions: it always exits 0.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT  # noqa: F401  (puts the repository on sys.path)

import engine.core as engine  # noqa: E402
from engine import bots as engine_bots  # noqa: E402
from sqlmodel import Session, select  # noqa: E402

import server.games.tmotp  # noqa: E402,F401  (registers 1960's presenter)
from server import db  # noqa: E402
from server.games import presenter  # noqa: E402
from server.models import AutoOrder, Game, Order  # noqa: E402
from server.services import games as service  # noqa: E402
from server.services import standing  # noqa: E402

SEATS = ("kennedy", "nixon")


def suggested(game_type: str) -> dict[str, str]:
    """{kind: value} a new game offers first, "ask" left out (it files nothing)."""
    return {p["kind"]: p["suggested"] for p in presenter(game_type).standing_orders("en")
            if p["suggested"] != "ask"}


def play(eng, seed: str, level: str, policies: dict[str, str]) -> dict:
    """One game through the order service; what was asked, turn by turn."""
    bot = engine_bots.make("tmotp", level)
    with Session(eng) as session:
        gid = service.create_game(session, "tmotp", {}, {s: None for s in SEATS}, seed=seed).id
        for seat in SEATS:
            for kind, value in policies.items():
                standing.file(session, gid, seat, kind, value)
        session.commit()
    handoffs, asked = collections.Counter(), collections.Counter()
    turns, last = set(), None
    while True:
        with Session(eng) as session:
            game = session.get(Game, gid)
            if game.status != "active":
                given = len(session.exec(select(AutoOrder).where(
                    AutoOrder.game_id == gid, AutoOrder.source == "standing")).all())
                break
            state, step = engine.from_dict(game.state), game.step
            active = state.active()
            name = state.top["step"]
            turns.add(state.s["turn"])
            asked[name] += len(active)
            handoffs[name] += len(set(active) - {last})
            sealed = {o.seat for o in session.exec(select(Order).where(
                Order.game_id == gid, Order.step == step, Order.status == "pending")).all()}
            for seat in active:
                if seat in sealed:
                    continue
                rng = engine_bots.decision_rng(seed, state.log_length(), seat)
                action = bot.choose(state.view(seat), rng)
                result = service.submit_order(session, gid, seat, step, [action])
                assert result.stopped_at is None, (seed, seat, action, result)
                last = seat
            if len(active) > 1:
                service.resolve_step(session, gid, step)
    return {"handoffs": handoffs, "asked": asked, "turns": len(turns), "given": given}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--bot", default="greedy", choices=["random", "greedy"])
    parser.add_argument("--seed-prefix", default="handoffs")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="handoffs-"))
    url = f"sqlite:///{folder / 'bench.db'}"
    db.migrate(url)
    eng = db.make_engine(url)
    runs = {"asking everything": {}, "default standing orders": suggested("tmotp")}
    print(f"{args.games} two-person games of 1960 (GMT), both seats {args.bot} bots; "
          f"defaults filed for both seats: {runs['default standing orders']}")
    totals = {}
    for label, policies in runs.items():
        t0 = time.perf_counter()
        h, a, turns, given = collections.Counter(), collections.Counter(), 0, 0
        for i in range(args.games):
            out = play(eng, f"{args.seed_prefix}-{i}", args.bot, policies)
            h += out["handoffs"]
            a += out["asked"]
            turns += out["turns"]
            given += out["given"]
        totals[label] = (sum(h.values()) / turns, sum(a.values()) / turns)
        top = ", ".join(f"{k} {v / turns:.2f}" for k, v in h.most_common(6))
        top_asked = ", ".join(f"{k} {v / turns:.2f}" for k, v in a.most_common(8)
                              if k not in ("activity", "campaigning"))
        print(f"\n{label}: {turns} turns, {time.perf_counter() - t0:.0f} s; "
              f"answers given by standing orders: {given / turns:.2f} a turn")
        print(f"  hand-offs a turn: {totals[label][0]:.2f}   asked a turn: {totals[label][1]:.2f}")
        print(f"  hand-offs a turn by decision: {top}")
        print(f"  asked a turn by decision (besides the plays and Campaigning): {top_asked}")
    (h0, a0), (h1, a1) = totals.values()
    print(f"\nratio (defaults / asking everything): hand-offs {h1 / h0:.2f}, asked {a1 / a0:.2f}")
    eng.dispose()


if __name__ == "__main__":
    sys.exit(main())

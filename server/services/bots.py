"""Bot seats: a bot answers its seat's decisions through the same order service as a player.

A game's ``bots`` maps seats to bot levels (engine/bots). When a bot's seat is asked, the order
service writes a ``bot_move`` outbox row in the same transaction (games._write_progress); its
task (workers/tasks.py) calls ``play`` here, which re-reads the game, asks the bot with the
seat's view only, and submits the answer as an order for that step. A repeat, or a row whose
step has moved on, changes nothing; the row is consumed in the order's transaction.

The bot's generator comes from the game's secret seed, the log's length and the seat
(engine.bots.decision_rng), so a retried task decides the same.
"""

from __future__ import annotations

import logging

from engine import bots
from sqlmodel import Session

from server.models import Game
from server.services import games, outbox
from server.services.games import StaleStep

log = logging.getLogger(__name__)

# The budget the server gives a bot, by level (keyword arguments of the game's bot factory,
# engine.bots.make). None in service: each game's bots play with the budget their game sets
# (engine/games/<game>/bots.py; bench/bot_strength.py measures them). A test lowers it to play
# fast.
BUDGETS: dict[str, dict] = {}


def play(session: Session, game_id: int, seat: str, step: int,
         message_id: int | None = None) -> str | None:
    """The bot of ``seat`` answers the decision of ``step``; return its order, or None when there
    is nothing (left) to answer."""
    try:
        return _play(session, game_id, seat, step, message_id)
    except BaseException:
        session.rollback()
        raise


def _play(session, game_id, seat, step, message_id):
    game = session.get(Game, game_id)
    level = (game.bots or {}).get(seat) if game is not None else None
    if level is None or game.status != "active" or game.step != step:
        return _nothing(session, message_id)
    state = games.whole_state(session, game)   # the bot reads the seat's view
    active = state.active()
    if seat not in active or (len(active) > 1
                              and seat in games.pending_seats(session, game_id, step)):
        return _nothing(session, message_id)
    bot = bots.make(game.game_type, level, **BUDGETS.get(level, {}))
    try:
        action = bot.choose(state.view(seat),
                            bots.decision_rng(game.seed, state.log_length(), seat))
    except Exception:   # a bot's bug must not stop the game: it plays the safe default
        log.exception("bot %s of game %s, seat %s, step %s failed; the default is played",
                      level, game_id, seat, step)
        action = state.default_action(seat)
    try:
        games.submit_order(session, game_id, seat, step, [action],
                           before_commit=lambda s, _result: outbox.mark_delivered(s, message_id),
                           by_player=False)  # a bot's seat is always reached (services/reach)
    except StaleStep:       # a deadline or a resolution got there first
        return _nothing(session, message_id)
    return action


def _nothing(session, message_id) -> None:
    session.rollback()
    outbox.mark_delivered(session, message_id)
    session.commit()
    return None

"""issue 46, item 6: the Z-Man edition's Election Day card order is the players' choice
(engine/games/tmotp/RULINGS.md, "Election Day Campaign Strategy"). A game of 1960 in the Z-Man
edition begun before that ruling was played, and logged, with the cards resolved in the order
placed: it gets the option ``strategy_order: false``, in its options and in its cached state's,
so that its log replays exactly as it was played. Games begun after it ask (the option's
default). The downgrade takes the option away again.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0026'
down_revision: Union[str, Sequence[str], None] = '0025'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_GAME = sa.table('game', sa.column('id', sa.Integer), sa.column('game_type', sa.String),
                 sa.column('options', sa.JSON), sa.column('state', sa.JSON))


def _zman_games(bind):
    rows = bind.execute(sa.select(_GAME.c.id, _GAME.c.options, _GAME.c.state)
                        .where(_GAME.c.game_type == 'tmotp')).all()
    return [row for row in rows if (row.options or {}).get('edition') == 'zman']


def _with(options: dict | None, placed: bool | None) -> dict | None:
    if options is None:
        return None
    out = {key: value for key, value in options.items() if key != 'strategy_order'}
    if placed is not None:
        out['strategy_order'] = placed
    return out


def _set(placed: bool | None) -> None:
    bind = op.get_bind()
    for row in _zman_games(bind):
        state = row.state
        if isinstance(state, dict) and isinstance(state.get('options'), dict):
            state = {**state, 'options': _with(state['options'], placed)}
        bind.execute(_GAME.update().where(_GAME.c.id == row.id)
                     .values(options=_with(row.options, placed), state=state))


def upgrade() -> None:
    _set(False)


def downgrade() -> None:
    _set(None)

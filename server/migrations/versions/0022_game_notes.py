"""issue 28: a game's history out of the state an order loads. The notes (the history in
words) move to rows of their own (gamenote); Game.state keeps the state without its log (in
logentry rows already) and notes, and says how many of each come before it
(engine.core.history). A late game's state was four times larger with them, and an order read,
parsed and wrote it all.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27
"""
import json
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0022'
down_revision: Union[str, Sequence[str], None] = '0021'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_GAME = sa.table('game', sa.column('id', sa.Integer), sa.column('state', sa.JSON))
_LOG = sa.table('logentry', sa.column('game_id', sa.Integer), sa.column('seq', sa.Integer),
                sa.column('seat', sa.String), sa.column('action', sa.String),
                sa.column('retraction', sa.String))
_HISTORY, _COUNTS = ('log', 'notes'), ('log_from', 'notes_from')


def _pending_commits(state: dict) -> int:
    stack = state.get('stack') or []
    return len(stack[-1].get('commits', {})) if stack else 0


def upgrade() -> None:
    notes = op.create_table(
        'gamenote',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('note', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('game_id', 'seq'))
    # The states as engine.core.history.split leaves them (written out here: a migration does
    # not change when the code does).
    conn = op.get_bind()
    for game_id, state in conn.execute(sa.select(_GAME.c.id, _GAME.c.state)
                                       .where(_GAME.c.state.isnot(None))).all():
        state = json.loads(state) if isinstance(state, str) else state
        if 'log_from' in state:
            continue
        log, game_notes = state['log'], state['notes']
        keep = min(_pending_commits(state), len(log))
        rest = {k: v for k, v in state.items() if k not in _HISTORY}
        rest.update(log=log[len(log) - keep:], notes=[], log_from=len(log) - keep,
                    notes_from=len(game_notes))
        if game_notes:
            op.bulk_insert(notes, [{'game_id': game_id, 'seq': i, 'note': note}
                                   for i, note in enumerate(game_notes)])
        conn.execute(_GAME.update().where(_GAME.c.id == game_id).values(state=rest))


def downgrade() -> None:
    conn = op.get_bind()
    notes = sa.table('gamenote', sa.column('game_id', sa.Integer), sa.column('seq', sa.Integer),
                     sa.column('note', sa.JSON))
    for game_id, state in conn.execute(sa.select(_GAME.c.id, _GAME.c.state)
                                       .where(_GAME.c.state.isnot(None))).all():
        state = json.loads(state) if isinstance(state, str) else state
        if 'log_from' not in state:
            continue
        log = [[seat, action] for seat, action in conn.execute(
            sa.select(_LOG.c.seat, _LOG.c.action)
            .where(_LOG.c.game_id == game_id, _LOG.c.retraction.is_(None))
            .order_by(_LOG.c.seq)).all()]
        game_notes = [note for (note,) in conn.execute(
            sa.select(notes.c.note).where(notes.c.game_id == game_id)
            .order_by(notes.c.seq)).all()]
        whole = {k: v for k, v in state.items() if k not in _HISTORY and k not in _COUNTS}
        whole.update(log=log, notes=game_notes)
        conn.execute(_GAME.update().where(_GAME.c.id == game_id).values(state=whole))
    op.drop_table('gamenote')

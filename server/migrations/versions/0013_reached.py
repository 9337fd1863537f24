"""whether a channel has reached each seat's player (deadlines wait for it), and the mail
kinds a user stopped by one-click unsubscribe

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0013'
down_revision: Union[str, Sequence[str], None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('user') as batch:
        batch.add_column(sa.Column('muted_kinds', sa.JSON(), nullable=False,
                                   server_default='[]'))
    with op.batch_alter_table('seat') as batch:
        batch.add_column(sa.Column('reached_step', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('reached_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('reached_by', sa.String(length=20), nullable=True))
        batch.add_column(sa.Column('waited_step', sa.Integer(), nullable=True))
    with op.batch_alter_table('webhooksent') as batch:
        batch.add_column(sa.Column('reach', sa.JSON(), nullable=True))
    # The decisions already mailed: a mail the SMTP server took reached its seat's player at
    # the step it asked about (mailsent.step), so a game under way keeps its deadlines.
    op.execute(_REACHED_STEP)
    op.execute(_REACHED_AT)


_SENT = ("FROM mailsent m WHERE m.game_id = seat.game_id AND m.recipient = seat.seat "
         "AND m.status = 'sent' AND m.step IS NOT NULL")
_REACHED_STEP = (f"UPDATE seat SET reached_step = (SELECT MAX(m.step) {_SENT}), "
                 f"reached_by = 'mail' WHERE EXISTS (SELECT 1 {_SENT})")
_REACHED_AT = (f"UPDATE seat SET reached_at = (SELECT MIN(m.sent_at) {_SENT} "
               "AND m.step = seat.reached_step) WHERE reached_step IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table('webhooksent') as batch:
        batch.drop_column('reach')
    with op.batch_alter_table('seat') as batch:
        batch.drop_column('waited_step')
        batch.drop_column('reached_by')
        batch.drop_column('reached_at')
        batch.drop_column('reached_step')
    with op.batch_alter_table('user') as batch:
        batch.drop_column('muted_kinds')

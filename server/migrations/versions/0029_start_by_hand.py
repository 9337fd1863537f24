"""issue 47, item 4: a game starts by itself when its last seat is taken, unless its creator
chose to start it by hand (``Game.start_by_hand``). Games opened before keep the way they were
made: started by hand.

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0029'
down_revision: Union[str, Sequence[str], None] = '0028'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column('game', sa.Column('start_by_hand', sa.Boolean(), nullable=False,
                                    server_default=sa.false()))
    # The open games of before were opened to be started by their creator's button.
    op.execute(sa.text("UPDATE game SET start_by_hand = :yes WHERE status = 'open'")
               .bindparams(yes=True))


def downgrade() -> None:
    op.drop_column('game', 'start_by_hand')

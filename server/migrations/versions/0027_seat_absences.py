"""issue 46, item 1: departed and vanished players. A seat whose player left or missed the
game's ``absent_after_missed`` deadlines in a row (default 2) is recorded as a SeatAbsence, and
the other players choose what happens (services/absences.py). ``Seat.missed_in_a_row`` counts
the deadlines a seat's player let pass.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0027'
down_revision: Union[str, Sequence[str], None] = '0026'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column('game', sa.Column('absent_after_missed', sa.Integer(), nullable=False,
                                    server_default='2'))
    op.add_column('seat', sa.Column('missed_in_a_row', sa.Integer(), nullable=False,
                                    server_default='0'))
    op.create_table(
        'seatabsence',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(length=50), nullable=False),
        sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('since', sa.DateTime(timezone=True), nullable=False),
        sa.Column('bot', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
        sa.Column('bot_by', sqlmodel.sql.sqltypes.AutoString(length=50), nullable=True),
        sa.Column('wants_end', sa.JSON(), nullable=False),
        sa.Column('invite_token_hash', sqlmodel.sql.sqltypes.AutoString(length=64),
                  nullable=True),
        sa.Column('invite_email', sqlmodel.sql.sqltypes.AutoString(length=320), nullable=True),
        sa.Column('invited_by', sqlmodel.sql.sqltypes.AutoString(length=50), nullable=True),
        sa.Column('settled_by', sqlmodel.sql.sqltypes.AutoString(length=50), nullable=True),
        sa.Column('settled_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_seatabsence_game_id', 'seatabsence', ['game_id'])


def downgrade() -> None:
    op.drop_index('ix_seatabsence_game_id', table_name='seatabsence')
    op.drop_table('seatabsence')
    # ALTER TABLE ... DROP COLUMN on both (SQLite has it since 3.35): a batch would copy the
    # game table, and dropping the old copy fails on the rows that refer to it.
    op.drop_column('seat', 'missed_in_a_row')
    op.drop_column('game', 'absent_after_missed')

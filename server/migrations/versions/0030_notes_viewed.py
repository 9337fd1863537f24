"""issue 47, item 1: the game page says, at the top, what happened since its player last
looked: how many of the game's notes the page had shown them then (``Seat.notes_viewed``,
None before their first look).

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-08
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0030'
down_revision: Union[str, Sequence[str], None] = '0029'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column('seat', sa.Column('notes_viewed', sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column('seat', 'notes_viewed')

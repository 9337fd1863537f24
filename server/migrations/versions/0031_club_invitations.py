"""issue 48, item 1: a members-only club; a member's invitation to the club is a link that
works once, of which only the sha256 is kept (``club_invitation``).

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-08
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0031'
down_revision: Union[str, Sequence[str], None] = '0030'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'clubinvitation',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('invited_by', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'),
    )
    op.create_index(op.f('ix_clubinvitation_invited_by'), 'clubinvitation', ['invited_by'],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_clubinvitation_invited_by'), table_name='clubinvitation')
    op.drop_table('clubinvitation')

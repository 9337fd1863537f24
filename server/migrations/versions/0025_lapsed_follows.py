"""issue 45, L4 and L15: what the rows kept from before lapses. A taken seat's invitation code
is used up (services/lobby.join_game now drops its hash as the seat is taken): the hashes kept
by taken seats go. A follow of a private game rests on an invitation to a free seat
(services/lobby.may_see): the follows of private games whose followers may no longer see them
(neither its creator, a player, nor invited to a free seat with a proven address) go. Nothing to
put back on a downgrade: the rows dropped granted nothing any more.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0025'
down_revision: Union[str, Sequence[str], None] = '0024'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_SEAT = sa.table('seat', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                 sa.column('user_id', sa.Integer), sa.column('invite_email', sa.String),
                 sa.column('invite_token_hash', sa.String))
_GAME = sa.table('game', sa.column('id', sa.Integer), sa.column('public', sa.Boolean),
                 sa.column('created_by', sa.Integer))
_USER = sa.table('user', sa.column('id', sa.Integer), sa.column('email', sa.String),
                 sa.column('email_verified_at', sa.DateTime))
_SPECTATOR = sa.table('spectator', sa.column('id', sa.Integer),
                      sa.column('game_id', sa.Integer), sa.column('user_id', sa.Integer))


def upgrade() -> None:
    op.execute(_SEAT.update().where(_SEAT.c.user_id.is_not(None))
               .values(invite_token_hash=None))
    played = sa.exists().where(_SEAT.c.game_id == _SPECTATOR.c.game_id,
                               _SEAT.c.user_id == _SPECTATOR.c.user_id)
    invited = sa.exists().where(_SEAT.c.game_id == _SPECTATOR.c.game_id,
                                _SEAT.c.user_id.is_(None),
                                _USER.c.id == _SPECTATOR.c.user_id,
                                _USER.c.email_verified_at.is_not(None),
                                _SEAT.c.invite_email == _USER.c.email)
    created = sa.exists().where(_GAME.c.id == _SPECTATOR.c.game_id,
                                _GAME.c.created_by == _SPECTATOR.c.user_id)
    private = sa.exists().where(_GAME.c.id == _SPECTATOR.c.game_id,
                                _GAME.c.public == sa.false())
    op.execute(_SPECTATOR.delete().where(private, ~played, ~invited, ~created))


def downgrade() -> None:
    pass

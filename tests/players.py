"""Players as the tests need them: accounts whose address is proven, as signing in by a mailed
link (or the sign-up's link) proves it. Only a proven address may order by reply or claim the
seat reserved for it (server/services/users.py)."""

from __future__ import annotations

from sqlmodel import Session

from server.models import User
from server.services import users


def proven_user(session: Session, email: str, name: str = "") -> User:
    user = users.create_user(session, email, name)
    users.prove_address(session, user)
    session.commit()
    session.refresh(user)
    return user

"""Following a private game lasts only as long as what allowed it (issue 45, finding L15),
written as the attack: invited to a seat of a private game, one follows it, somebody else
takes the seat (by its code) and the game goes on, and the follower kept reading it (its
page, its moves, its chat) as if still invited."""
from __future__ import annotations

import sqlalchemy as sa

from sqlmodel import Session, select

from server import db
from server.models import Game, Seat, Spectator, User, utcnow
from tests.server.conftest import empty_db_url  # noqa: F401
from tests.server.api.helpers import is_problem


def listed(client, player) -> list[int]:
    body = client.get("/games", player).get_json()
    return [g["id"] for g in (body["games"] if isinstance(body, dict) else body)]


def test_a_follow_ends_when_the_invitation_it_rested_on_lapses(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carol = client.signup("carol@example.org")
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": carol.email})
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/spectate", carol).status_code == 200
    assert client.get(f"/games/{gid}", carol).status_code == 200      # invited: may watch
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    is_problem(client.get(f"/games/{gid}", carol), 404)                # no longer invited
    assert gid not in listed(client, carol)
    is_problem(client.post(f"/games/{gid}/spectate", carol), 404)
    with store.session() as s:
        assert s.exec(select(Spectator).where(Spectator.game_id == gid)).all() == []


def test_a_follow_of_a_public_game_stays(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carol = client.signup("carol@example.org")
    body = client.open_game(ann, {"kennedy": ann.email, "nixon": carol.email}, public=True)
    gid, code = body["game"]["id"], body["invitations"]["nixon"]
    assert client.post(f"/games/{gid}/spectate", carol).status_code == 200
    assert client.post(f"/games/{gid}/join", bob, json={"code": code}).status_code == 200
    assert client.get(f"/games/{gid}", carol).status_code == 200
    assert gid in listed(client, carol)


def test_a_follow_left_from_before_the_fix_grants_and_lists_nothing(client, store, players):
    ann, bob = players["kennedy"], players["nixon"]
    carol = client.signup("carol@example.org")
    gid = client.two_player_game(store, ann, bob)               # private
    with store.session() as s:       # a follow whose invitation lapsed before the fix
        s.add(Spectator(game_id=gid, user_id=carol.id))
        s.commit()
    is_problem(client.get(f"/games/{gid}", carol), 404)
    assert gid not in listed(client, carol)


def _insert(session, name: str, **values) -> int:
    """A row of table ``name`` as the database has it now (not as the models say)."""
    table = sa.Table(name, sa.MetaData(), autoload_with=session.connection())
    if name == "game":
        now = utcnow()
        values = {"game_type": "tmotp", "seed": "s", "seed_hash": "h", "options": {},
                  "status": "open", "step": 0, "public": False, "created_at": now,
                  "updated_at": now, **values}
    return session.execute(table.insert().values(**values).returning(table.c.id)).scalar_one()


def test_the_migration_drops_what_lapsed_before_the_fix(empty_db_url):  # noqa: F811
    """0025 on rows written before the fix: the follows of a private game by those who may
    no longer see it go, and so do the codes of taken seats; the others stay."""
    db.migrate(empty_db_url, "0024")
    engine = db.make_engine(empty_db_url)
    try:
        with Session(engine) as s:
            ann, bob, carol, dave, erin = (User(email=f"{n}@example.org", email_verified_at=(
                None if n == "erin" else utcnow())) for n in ("ann", "bob", "carol", "dave",
                                                              "erin"))
            s.add_all([ann, bob, carol, dave, erin])
            s.flush()
            # The game and seat rows as their tables were at 0024 (the models have columns
            # of later migrations).
            private = _insert(s, "game", created_by=ann.id)
            public = _insert(s, "game", created_by=ann.id, public=True)
            _insert(s, "seat", game_id=private, seat="kennedy", user_id=ann.id,
                    invite_token_hash="a" * 64)
            _insert(s, "seat", game_id=private, seat="nixon", invite_email="carol@example.org",
                    invite_token_hash="c" * 64)
            _insert(s, "seat", game_id=public, seat="kennedy", user_id=bob.id,
                    invite_token_hash="b" * 64)
            follows = {(private, u.id) for u in (ann, carol)}   # they may see it
            s.add_all([Spectator(game_id=g, user_id=u) for g, u in follows])
            s.add_all([Spectator(game_id=private, user_id=dave.id),   # lapsed
                       Spectator(game_id=private, user_id=erin.id),   # never proven
                       Spectator(game_id=public, user_id=dave.id)])   # public: stays
            kept, game_id = follows | {(public, dave.id)}, private
            s.commit()
        db.migrate(empty_db_url)
        with Session(engine) as s:
            assert {(r.game_id, r.user_id) for r in s.exec(select(Spectator))} == kept
            assert {r.seat: r.invite_token_hash for r in s.exec(select(Seat).where(
                Seat.game_id == game_id))} == {"kennedy": None, "nixon": "c" * 64}
    finally:
        engine.dispose()

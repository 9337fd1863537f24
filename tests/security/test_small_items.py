"""The audit's smaller items (issue 23, item 9), each written as what the audit did:

- sealing an order again and again after every seat has committed queued one more resolve
  task each time (a cheap way to load the workers): the step is asked to resolve once;
- ``GET /api/v1/games/bots`` is documented as it behaves (no token needed, the levels by game).
"""
from __future__ import annotations

from sqlmodel import func, select

from server.models import Game, OutboxMessage
from server.services import games as svc
from tests.server.conftest import db_engine, db_url, empty_db_url, session  # noqa: F401
from tests.server.test_game_service import _to_simultaneous


def resolve_rows(session, gid) -> int:
    return sum(1 for p in session.exec(select(OutboxMessage.payload).where(
        OutboxMessage.kind == "resolve_step")).all() if p["game_id"] == gid)


def test_resealing_after_everybody_committed_asks_to_resolve_once(session):
    gid, state = _to_simultaneous(session)
    step = session.get(Game, gid).step
    k, n = state.legal_actions("kennedy"), state.legal_actions("nixon")
    svc.submit_order(session, gid, "kennedy", step, [k[0]])
    assert svc.submit_order(session, gid, "nixon", step, [n[0]]).all_committed
    assert resolve_rows(session, gid) == 1
    for i in range(6):                     # both change their minds, again and again
        svc.submit_order(session, gid, "kennedy", step, [k[(i + 1) % len(k)]])
        svc.submit_order(session, gid, "nixon", step, [n[(i + 1) % len(n)]])
    assert resolve_rows(session, gid) == 1
    assert svc.resolve_step(session, gid, step)
    assert session.exec(select(func.count()).select_from(OutboxMessage)).one() > 0


def test_the_bot_levels_are_documented_as_open_to_all(tmp_path):
    from server.app import create_app
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}",
                      "VAR_DIR": str(tmp_path / "var")})
    client = app.test_client()
    spec = client.get("/api/v1/openapi.json").get_json()
    assert spec["paths"]["/api/v1/games/bots"]["get"]["security"] == []
    r = client.get("/api/v1/games/bots")
    assert r.status_code == 200 and "tmotp" in r.get_json()["games"]

"""Set-ups of departed and vanished players (issue 46, item 1) for the API and page tests: a
player who left (their account deleted, as the deletion does it) or went silent (the deadline
sweep's count reached, as services/absences.missed finds it)."""

from __future__ import annotations

from sqlmodel import Session, select

from server.models import Game, Seat, SeatAbsence
from server.services import absences, account_deletion


def leaves(engine, user_id: int, email: str) -> None:
    """The player deletes their account, handing their seats over."""
    with Session(engine) as session:
        account_deletion.delete_account(session, user_id, email, hand_over=True)


def goes_silent(engine, gid: int, seat: str) -> None:
    """The seat misses the game's absent_after_missed deadlines in a row."""
    with Session(engine) as session:
        game = session.get(Game, gid)
        for _ in range(game.absent_after_missed):
            absences.missed(session, game, seat)
        session.commit()


def absence(engine, gid: int, seat: str) -> SeatAbsence | None:
    with Session(engine) as session:
        row = session.exec(select(SeatAbsence).where(SeatAbsence.game_id == gid,
                                                     SeatAbsence.seat == seat)
                           .order_by(SeatAbsence.id.desc())).first()
        if row is not None:
            session.expunge(row)
        return row


def seat_user(engine, gid: int, seat: str) -> int | None:
    with Session(engine) as session:
        return session.exec(select(Seat.user_id).where(Seat.game_id == gid,
                                                       Seat.seat == seat)).one()


def mrpresident(client, store, players: int, seed: str = "absence-mp"):
    """A started game of Mr. President with ``players`` seats (p1 the creator); its players
    by seat."""
    emails = ["ann@example.org", "bob@example.org", "cy@example.org", "dee@example.org"]
    people = {f"p{i + 1}": client.signup(email, email.split("@")[0].title())
              for i, email in enumerate(emails[:players])}
    body = client.open_game(people["p1"], {s: p.email for s, p in people.items()},
                            options={"players": players}, game_type="mrpresident")
    gid = body["game"]["id"]
    store.set_seed(gid, seed)
    for seat, player in people.items():
        if seat != "p1":
            assert client.post(f"/games/{gid}/join", player, json={}).status_code == 200
    r = client.post(f"/games/{gid}/start", people["p1"])
    assert r.status_code == 200, r.get_json()
    return gid, people

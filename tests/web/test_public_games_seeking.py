"""Issue 47, item 4: the lobby lists the open public games that seek players (a free seat
nobody is invited to): the game, its variant in words, who opened it, the free seats and the
time limits, with a Join button (44 px) per free seat that takes it; private games, full games
and seats kept for an invited address are never listed; a second join of the taken seat is
refused 409 with the reason, nothing changed; the section speaks en/ja/es."""

from __future__ import annotations

from sqlalchemy import update
from sqlmodel import Session, select

from server.models import Game, Seat, User
from tests.web.pages_helpers import db_engine


def _open(jack, opponent: str = "", public: bool = True, **extra) -> int:
    """A game Jack opens from the lobby's form (Kennedy), Nixon's seat open or invited."""
    form = {"game_type": "tmotp", "opponent": opponent, "seat": "kennedy", "edition": "zman",
            "decision_hours": "48", **extra}
    if public:
        form["public"] = "on"
    answer = jack.post_form("/", "/games/new", form)
    assert answer.status_code in (201, 303), answer.status_code
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def _seeking(page: str) -> str:
    return page.split('id="seeking-h"', 1)[1].split('id="public-h"', 1)[0]


def _row(page: str, gid: int) -> str:
    return _seeking(page).split(f'data-seeking="{gid}"', 1)[1].split("</li>", 1)[0]


def _name(app, reader, name: str) -> None:
    with Session(db_engine(app)) as s:
        s.execute(update(User).where(User.email == reader.email).values(display_name=name))
        s.commit()


def test_the_lobby_lists_public_games_seeking_players_and_no_other(app, jack, dick, lyndon):
    _name(app, jack, "Jack")
    seeking = _open(jack)
    private = _open(jack, public=False)
    invited = _open(jack, opponent=dick.email)
    page = dick.get("/").data.decode()
    section = _seeking(page)
    assert f'data-seeking="{seeking}"' in section
    assert f'data-seeking="{private}"' not in section and f'data-seeking="{invited}"' not in section
    row = _row(page, seeking)
    assert "1960" in row and "Opened by Jack" in row and "Free seats: Nixon" in row
    assert "Z-Man" in row                                     # the edition in words
    assert "Each decision: 48 hours." in row and "forfeits" not in row
    strict = _open(jack, on_deadline="forfeit")
    assert "Each decision: 48 hours. A missed deadline forfeits the game." in \
        _row(dick.get("/").data.decode(), strict)
    assert f'action="/games/{seeking}/join"' in row and 'name="seat" value="nixon"' in row
    assert ">Join as Nixon</button>" in row
    style = page.split(".game-row .join", 1)[1].split("}", 1)[0]
    assert "min-height: 44px" in style
    # The creator is seated: no button for him; a visitor is asked to sign in.
    assert "Join as" not in _row(jack.get("/").data.decode(), seeking)
    assert "Sign in to join" in _row(app.test_client().get("/").data.decode(), seeking)


def test_the_join_button_takes_the_seat_and_a_second_join_is_refused(app, jack, dick, lyndon):
    gid = _open(jack)
    answer = dick.post_form("/", f"/games/{gid}/join", {"seat": "nixon"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/games/{gid}")
    with Session(db_engine(app)) as s:
        holder = s.exec(select(Seat.user_id).where(Seat.game_id == gid,
                                                   Seat.seat == "nixon")).one()
        dick_id = s.exec(select(User.id).where(User.email == dick.email)).one()
        assert holder == dick_id
        assert s.get(Game, gid).status == "active"        # the last seat taken: it begins
    assert f'data-seeking="{gid}"' not in lyndon.get("/").data.decode()
    refused = lyndon.post_form("/", f"/games/{gid}/join", {"seat": "nixon"})
    assert refused.status_code == 409
    assert "The game has already started; its seats are taken." in refused.data.decode()
    with Session(db_engine(app)) as s:
        assert s.exec(select(Seat.user_id).where(Seat.game_id == gid,
                                                 Seat.seat == "nixon")).one() == dick_id


def test_a_seat_taken_while_the_game_waits_for_its_start_is_refused_by_name(app, jack, dick,
                                                                          lyndon):
    gid = _open(jack, start_by_hand="on")
    assert dick.post_form("/", f"/games/{gid}/join", {"seat": "nixon"}).status_code == 303
    refused = lyndon.post_form("/", f"/games/{gid}/join", {"seat": "nixon"})
    assert refused.status_code == 409
    assert "The seat nixon is already taken." in refused.data.decode()


def test_the_section_speaks_the_readers_language(app, jack, dick):
    gid = _open(jack)
    words = {"ja": ("募集", "参加"), "es": ("buscan", "Unirse")}
    for loc, (heading, button) in words.items():
        with Session(db_engine(app)) as s:
            s.execute(update(User).where(User.email == dick.email).values(locale=loc))
            s.commit()
        page = dick.get("/").data.decode()
        row = _row(page, gid)
        assert "Games seeking players" not in page and "Join as" not in row
        assert heading in page.split('id="seeking-h"', 1)[1].split("</h2>", 1)[0]
        assert button in row


def test_the_join_page_of_a_public_game_offers_its_free_seat(app, jack, dick, lyndon):
    gid = _open(jack)
    page = dick.get(f"/games/{gid}").data.decode()
    form = page.split('class="join-open"', 1)[1].split("</form>", 1)[0]
    assert 'name="seat" value="nixon"' in form and "Join as Nixon" in form
    assert "Or join with an invitation code:" in page
    invited = _open(jack, opponent=lyndon.email)
    assert 'class="join-open"' not in dick.get(f"/games/{invited}").data.decode()
    answer = dick.post_form(f"/games/{gid}", f"/games/{gid}/join", {"seat": "nixon"})
    assert answer.status_code == 303
    with Session(db_engine(app)) as s:
        assert s.exec(select(User.email).join(Seat, Seat.user_id == User.id).where(
            Seat.game_id == gid, Seat.seat == "nixon")).one() == dick.email

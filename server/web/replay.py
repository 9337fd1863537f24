"""The pages of a finished game: its replay, position by position, and its printable result.

Both exist only once the game is over: the replay shows both hands and every draw, which would
leak during play. The replay rebuilds the game from its stored log and seed (the log is the
source of truth; DESIGN.md, Orders) and renders the position from views only, as the game page
does. A long game is about 500 log entries (chance draws included); replaying all of them
takes 30-45 ms and the whole page at the last position 45-60 ms (measured on random games), so
every request replays from the opening: no cache of checkpoints to keep right. The game's
presenter (server/games/presenter.py) gives its board and hands (its parts board.html and
hand.html), where its turns begin and its heading; the result page is the game's part
result.html (on templates/web/_result_base.html).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from flask import Blueprint, abort, request

import engine.core as game_engine
from server import db
from server.games import presenter
from server.i18n import game_text
from server.models import Game, User
from server.services import display_names, lobby, seat_view
from server.web.board import _result, _seat_and_game
from server.web import rematch
from server.web import ratings as rating_pages
from server.web.notes_section import replay_notes
from server.web import chat_section
from server.web.pages import page, reader
from server.web.seats import names as seat_names
from server.web.words import _, locale

bp = Blueprint("replay", __name__)

RECENT = 20  # lines of what happened before the position
REPLAY_CHAT = 2000  # lines of each chat channel the replay shows at most


@dataclass
class Position:
    """A finished game after its first ``at`` log entries, as views (deep copies)."""

    at: int
    total: int
    view: dict  # the spectators' view
    hands: dict[str, list[int]]  # each seat's hand, from that seat's view
    entry: list | None  # [seat, action], the entry applied last (None at the opening)
    fresh: list = field(default_factory=list)  # note messages that entry produced
    turn_starts: list[tuple] = field(default_factory=list)  # (position, turn)


def _copy(data):
    return json.loads(json.dumps(data))


def replay(game: Game, log: list[list[str]], at: int) -> Position:
    """The game at position ``at`` (0 <= at <= len(log)), and where its turns begin, in one
    pass over the log from the seed and options, every entry validated by ``apply``."""
    state = game_engine.new_game(game.game_type, seed=game.seed, options=game.options)
    turn_of = presenter(game.game_type).turn_of

    def capture(entry, notes_before: int) -> Position:
        view = _copy(state.view(None))
        hands = {s: list(state.view(s)["hands"].get(s, [])) for s in state.seats}
        return Position(at, len(log), view, hands, entry,
                        view["note_messages"][notes_before:])

    found = capture(None, 0) if at == 0 else None
    # The turn the views show (the presenter's, read from the state itself: one view per log
    # entry, only to find where turns begin, would cost 2 ms each).
    starts, turn = [], turn_of(state)
    for k, (seat, action) in enumerate(log, 1):
        notes_before = len(state.view(None)["note_messages"]) if k == at else 0
        state.apply(seat, action)
        if k == at:
            found = capture([seat, action], notes_before)
        if turn_of(state) != turn:
            turn = turn_of(state)
            starts.append((k, turn))
    found.turn_starts = starts
    return found


def _finished_game(session, game_id: int) -> Game:
    """The game if the reader may see it and it is over; else 404 (a game in play has no
    replay and no result: they would show what is still hidden)."""
    game, _seat = _seat_and_game(session, game_id)
    if game.status != "finished" or game.state is None:
        abort(404)
    return game


def _at(total: int) -> tuple[int, str | None]:
    """The position asked for, clamped to 0..total; a position that is not a number is
    refused (400) with what would do, and the opening is shown."""
    raw = (request.args.get("at") or "").strip()
    if not raw:
        return 0, None
    try:
        return max(0, min(int(raw), total)), None
    except ValueError:
        return 0, _("The position is a whole number, from 0 to %(n)s.", n=total)


@bp.get("/games/<int:game_id>/replay")
def show_replay(game_id: int):
    loc = locale()
    with db.reading(db.session()) as session:
        game = _finished_game(session, game_id)
        log = seat_view.of(session, game, None).record()  # finished: the whole log in play
        at, refusal = _at(len(log))
        position = replay(game, log, at)
        shown = presenter(game.game_type)
        return page("replay.html", 400 if refusal else 200, loc, game=game, refusal=refusal,
                    part=shown.part, **shown.public_board(position.view, loc),
                    your_notes=replay_notes(session, game),
                    # issue 27: the table talk, kept with the game, shown after its end
                    chat_channels=chat_section.channels(session, game, reader(),
                                                        limit=REPLAY_CHAT),
                    **_replay_context(game.game_type, position, loc))


def _replay_context(game_type: str, p: Position, loc: str) -> dict:
    shown = presenter(game_type)
    names = seat_names(game_type, loc)
    view = p.view
    back = [s for s in p.turn_starts if s[0] < p.at]
    ahead = [s for s in p.turn_starts if s[0] > p.at]
    earlier = len(view["note_messages"]) - len(p.fresh)
    entry = None
    if p.entry is not None:
        entry = {"seat": p.entry[0], "action": p.entry[1],
                 "who": names.get(p.entry[0]) or _("Chance"),
                 "words": shown.action_words(p.entry[0], p.entry[1], loc)}
    return {
        "at": p.at, "total": p.total, "entry": entry,
        "fresh": game_text.texts(p.fresh, loc, game_type),
        # The notes before the entry just played, numbered as in the whole game's history.
        "recent": list(reversed(game_text.texts(view["note_messages"][:earlier], loc,
                                                game_type)))[:RECENT],
        "recent_start": earlier,
        "heading": shown.replay_heading(view, loc),
        "many": len(p.hands) > 2,
        "hands": [{"seat": s, "name": names.get(s, s), "cards": shown.hand(cards, loc)}
                  for s, cards in p.hands.items()],
        "turn_back": {"at": back[-1][0], **shown.turn_link(back[-1][1], True)}
        if back else None,
        "turn_ahead": {"at": ahead[0][0], **shown.turn_link(ahead[0][1], False)}
        if ahead else None,
    }


@bp.get("/games/<int:game_id>/result")
def show_result(game_id: int):
    loc = locale()
    with db.reading(db.session()) as session:
        game = _finished_game(session, game_id)
        view = seat_view.of(session, game, None).state.view(None)
        shown = presenter(game.game_type)
        return page(shown.part("result.html"), 200, loc, part=shown.part, game=game,
                    result=_result(game, view, loc), players=_players(session, game, loc),
                    **shown.result(view, loc),
                    rematch=rematch.section(session, game, reader()),
                    rating_changes=rating_pages.changes(session, game, loc),
                    replay_url=f"{request.url_root.rstrip('/')}/games/{game.id}/replay")


def _players(session, game: Game, loc: str) -> list[dict]:
    """Each seat and who played it (the name they chose, else "Player <id>"; never their
    address: display_names.shown)."""
    names = seat_names(game.game_type, loc)
    out = []
    for row in lobby.seat_rows(session, game.id):
        user = session.get(User, row.user_id) if row.user_id is not None else None
        name = display_names.shown(user, _) if user else "–"
        out.append({"seat": row.seat, "seat_name": names.get(row.seat, row.seat), "name": name})
    return out

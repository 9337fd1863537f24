"""The pages of a finished game: its replay, position by position, and its printable result.

Both exist only once the game is over: the replay shows both hands and every draw, which would
leak during play. The replay rebuilds the game from its stored log and seed (the log is the
source of truth; DESIGN.md, Orders) and renders the position from views only, as the game page
does. A whole game of 1960 is about 500 log entries (chance draws included); replaying all of
them takes 30-45 ms and the whole page at the last position 45-60 ms (measured on random
games), so every request replays from the opening: no cache of checkpoints to keep right.
A game of Mr. President is shown the same way, its table and hands in its own partials
(mrpresident_board.py), its rounds for turns; its result is the final scoreboard.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from flask import Blueprint, abort, request

import engine.core as game_engine
from engine.games.tmotp.data import SEAT_NAMES, STATES
from server import db
from server.games.mrpresident import summary as summary_mrpresident
from server.games.tmotp import summary as summary_tmotp
from server.i18n import game_text
from server.games import presenter
from server.models import Game, User
from server.services import display_names, games, lobby
from server.web import mrpresident_board, seats
from server.web import mrpresident_words as words_mp
from server.web.board import (_card, _result, _seat_and_game, board_context, public_board,
                              round_name)
from server.web.pages import page
from server.web.words import _, locale

bp = Blueprint("replay", __name__)

RECENT = 20  # lines of what happened before the position


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


def _turn(state):
    """The turn number the views show (``view["turn"]``; Mr. President: its election, stage
    and round), read from the state itself: one view per log entry, only to find where turns
    begin, would cost 2 ms each."""
    s = state.s
    if s.get("game") == "mrpresident":
        return (s["election"], s["stage"], s["round"])
    return s["turn"]


def _turn_words(turn, back: bool) -> dict:
    """A turn's link: its label and what it does, in words (Mr. President: a round)."""
    if isinstance(turn, tuple):
        n = turn[2]
        return {"label": _("Round %(n)s", n=n),
                "aria": _("Back to the start of round %(n)s", n=n) if back
                else _("Forward to the start of round %(n)s", n=n)}
    return {"label": _("Turn %(turn)s", turn=turn),
            "aria": _("Back to the start of turn %(turn)s", turn=turn) if back
            else _("Forward to the start of turn %(turn)s", turn=turn)}


def _copy(data):
    return json.loads(json.dumps(data))


def replay(game: Game, log: list[list[str]], at: int) -> Position:
    """The game at position ``at`` (0 <= at <= len(log)), and where its turns begin, in one
    pass over the log from the seed and options, every entry validated by ``apply``."""
    state = game_engine.new_game(game.game_type, seed=game.seed, options=game.options)

    def capture(entry, notes_before: int) -> Position:
        view = _copy(state.view(None))
        hands = {s: list(state.view(s)["hands"].get(s, [])) for s in state.seats}
        return Position(at, len(log), view, hands, entry,
                        view["note_messages"][notes_before:])

    found = capture(None, 0) if at == 0 else None
    starts, turn = [], _turn(state)
    for k, (seat, action) in enumerate(log, 1):
        notes_before = len(state.view(None)["note_messages"]) if k == at else 0
        state.apply(seat, action)
        if k == at:
            found = capture([seat, action], notes_before)
        if _turn(state) != turn:
            turn = _turn(state)
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
        log = [[row.seat, row.action] for row in games.log_of(session, game_id)]
        at, refusal = _at(len(log))
        position = replay(game, log, at)
        return page("replay.html", 400 if refusal else 200, loc, game=game, refusal=refusal,
                    **public_board(game.game_type, position.view, loc),
                    **_replay_context(game.game_type, position, loc))


def _replay_context(game_type: str, p: Position, loc: str) -> dict:
    names = seats.names(game_type, loc)
    view = p.view
    back = [s for s in p.turn_starts if s[0] < p.at]
    ahead = [s for s in p.turn_starts if s[0] > p.at]
    earlier = len(view["note_messages"]) - len(p.fresh)
    entry = None
    if p.entry is not None:
        entry = {"seat": p.entry[0], "action": p.entry[1],
                 "who": names.get(p.entry[0]) or _("Chance")}
    return {
        "at": p.at, "total": p.total, "entry": entry,
        "fresh": game_text.texts(p.fresh, loc, game_type),
        # The notes before the entry just played, numbered as in the whole game's history.
        "recent": list(reversed(game_text.texts(view["note_messages"][:earlier], loc, game_type)))[:RECENT],
        "recent_start": earlier,
        "heading": " · ".join(summary_mrpresident.status(view, loc) if game_type == "mrpresident"
                              else [_("Turn %(turn)s", turn=view["turn"]), round_name(view)]),
        "many": len(p.hands) > 2,
        "hands": [{"seat": s, "name": names.get(s, s),
                   "cards": words_mp.cards(cards, loc) if game_type == "mrpresident"
                   else [_card(c, loc) for c in cards]} for s, cards in p.hands.items()],
        "turn_back": {"at": back[-1][0], **_turn_words(back[-1][1], True)} if back else None,
        "turn_ahead": {"at": ahead[0][0], **_turn_words(ahead[0][1], False)} if ahead else None,
    }


@bp.get("/games/<int:game_id>/result")
def show_result(game_id: int):
    loc = locale()
    with db.reading(db.session()) as session:
        game = _finished_game(session, game_id)
        view = game_engine.from_dict(game.state, copy=False).view(None)
        if game.game_type == "mrpresident":
            return page("mrpresident_result.html", 200, loc, game=game,
                        result=_result(game, view, loc), players=_players(session, game, loc),
                        **mrpresident_board.context(view, None, loc),
                        replay_url=f"{request.url_root.rstrip('/')}/games/{game.id}/replay")
        board, tally = board_context(view, None, loc), _tally(view, loc)
        board["summary"]["votes"] = tally["tally"]  # the votes won, not only those led
        return page("result.html", 200, loc, game=game, result=_result(game, view, loc),
                    players=_players(session, game, loc), **board, **tally,
                    replay_url=f"{request.url_root.rstrip('/')}/games/{game.id}/replay")


def _players(session, game: Game, loc: str) -> list[dict]:
    """Each seat and who played it (the name they chose, else "Player <id>"; never their
    address: display_names.shown)."""
    names = seats.names(game.game_type, loc)
    out = []
    for row in lobby.seat_rows(session, game.id):
        user = session.get(User, row.user_id) if row.user_id is not None else None
        name = display_names.shown(user, _) if user else "–"
        out.append({"seat": row.seat, "seat_name": names.get(row.seat, row.seat), "name": name})
    return out


def _tally(view: dict, loc: str) -> dict:
    """The electoral votes each candidate won and who took each state: Election Day's final
    tally when the game got there (Unpledged Electors may keep a state from anybody), else
    the board as it stood when the game ended (a resignation, a forfeit)."""
    seat_words = presenter("tmotp").seat_names(loc)
    final = view.get("result") or {}
    unawarded = summary_tmotp.unpledged(view)
    votes = summary_tmotp.electoral_votes(view)
    rows = []
    for code, entry in sorted(view["states"].items(), key=lambda item: STATES[item[0]]["name"]):
        seat = entry.get("leader") if code not in unawarded else None
        rows.append({"code": code, "name": STATES[code]["name"], "ev": STATES[code]["ev"],
                     "seat": seat, "who": seat_words.get(seat) if seat else
                     (_("nobody (unpledged electors)") if code in unawarded else _("nobody")),
                     "cubes": entry.get("support", 0)})
    return {"tally": [{"seat": s, "name": seat_words[s], "ev": votes.get(s, 0)}
                      for s in SEAT_NAMES],
            "tally_final": bool(final.get("electoral_votes")), "state_rows": rows}

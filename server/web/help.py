"""The help pages: the notation help the mails link to, GET /help/notation/<game_type>, shows the
game's NOTATION.md (engine/games/<game_type>/) as HTML; GET /help/notation lists the games; GET
/help/<game_type> is how this server plays a game, for a game whose presenter has such a page
(its part ``help.html``, server/games/presenter.py): the notation and the rulings (the engine's
RULINGS.md) with what the presenter adds (house values, ...). It is reached from the game's
pages, its notation page and the lobby.

The Markdown is the engine's own file, rendered by markdown-it-py (CommonMark with tables) with
raw HTML turned off, so the page cannot carry markup the file's author did not mean.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import engine.core as game_engine
from flask import Blueprint, abort, current_app
from markdown_it import MarkdownIt
from markupsafe import Markup

from server.games import UnknownGame, presenter
from server.services import lobby
from server.web.pages import page
from server.web.words import locale

bp = Blueprint("help", __name__)

def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def notation_path(game_type: str) -> Path | None:
    """The NOTATION.md of a registered game, or None (no such game, or it has none)."""
    if game_type not in game_engine.games():  # also keeps the name out of the file system
        return None
    try:
        path = presenter(game_type).rules_folder / "NOTATION.md"
    except UnknownGame:
        return None
    return path if path.is_file() else None


@lru_cache(maxsize=32)
def _rendered(path: str, mtime_ns: int) -> tuple[str, str]:
    """(title, HTML) of a Markdown file; the title is its first heading."""
    text = Path(path).read_text(encoding="utf-8")
    md = _markdown()
    tokens = md.parse(text)
    title = next((tokens[i + 1].content for i, t in enumerate(tokens)
                  if t.type == "heading_open" and i + 1 < len(tokens)), Path(path).parent.name)
    return title, md.renderer.render(tokens, md.options, {})


def markdown_html(game_type: str, name: str, shift: int = 0) -> str:
    """A Markdown file of a registered game's engine folder (NOTATION.md, RULINGS.md) as HTML,
    its headings ``shift`` levels lower (to sit under a page's own heading)."""
    if game_type not in game_engine.games() or name not in ("NOTATION.md", "RULINGS.md"):
        raise LookupError(f"{game_type}/{name}")
    path = presenter(game_type).rules_folder / name
    return _shifted(str(path), path.stat().st_mtime_ns, shift)


@lru_cache(maxsize=32)
def _shifted(path: str, mtime_ns: int, shift: int) -> str:
    md = _markdown()
    tokens = md.parse(Path(path).read_text(encoding="utf-8"))
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + shift)}"
    return md.renderer.render(tokens, md.options, {})


def page_url(game_type: str) -> str | None:
    """The address of the game's page of how this server plays it; None: it has none (a game
    has one when its presenter has the part ``help.html``)."""
    try:
        shown = presenter(game_type)
    except UnknownGame:
        return None
    return f"/help/{game_type}" if (shown.templates / "web" / "help.html").is_file() else None


def rendered(game_type: str) -> tuple[str, str] | None:
    path = notation_path(game_type)
    if path is None:
        return None
    return _rendered(str(path), path.stat().st_mtime_ns)


def _listed() -> list[dict]:
    return [{"id": g, "title": rendered(g)[0], "url": f"/help/notation/{g}"}
            for g in game_engine.games() if notation_path(g) is not None]


@bp.get("/help/notation")
def index():
    return page("notation.html", games=_listed(), title=None, body=None, unknown=None,
                more=None)


@bp.get("/help/notation/<path:game_type>")  # any name gets the page naming the games
def show(game_type: str):
    found = rendered(game_type)
    if found is None:
        return page("notation.html", 404, games=_listed(), title=None, body=None,
                    unknown=game_type, more=None)
    title, html = found
    return page("notation.html", games=_listed(), title=title, body=Markup(html),
                unknown=None, more=page_url(game_type))


@bp.get("/help/<game_type>")
def game(game_type: str):
    """How this server plays the game: its notation, rulings and what its presenter adds."""
    if page_url(game_type) is None:
        abort(404)
    loc = locale()
    shown = presenter(game_type)
    return page(shown.part("help.html"), 200, loc,
                notation=Markup(markdown_html(game_type, "NOTATION.md", shift=1)),
                rulings=Markup(markdown_html(game_type, "RULINGS.md", shift=1)),
                **shown.help(loc))


@bp.get("/help/absences")
def absences():
    """When a player leaves or goes silent (issue 46, item 1; the rulings:
    server/services/absences.py), with this server's longest life of a silent game."""
    return page("help_absences.html", 200, locale(),
                days=int(current_app.config.get("SILENT_GAME_DAYS", 30)),
                missed=lobby.TIMING_DEFAULTS["absent_after_missed"],
                most=lobby.MAX_ABSENT_AFTER)

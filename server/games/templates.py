"""The Jinja loader of a layer (``web`` or ``email``): ``games/<game>/<name>`` is the game's own
template part (``<presenter.templates>/<layer>/<name>``), anything else the layer's folder. The
shared templates include a game's parts by the names its presenter gives."""

from __future__ import annotations

from pathlib import Path

from jinja2 import BaseLoader, FileSystemLoader, TemplateNotFound

PREFIX = "games/"


class GameTemplates(BaseLoader):
    def __init__(self, shared: Path, layer: str):
        self.shared = FileSystemLoader(str(shared))
        self.layer = layer
        self._games: dict[Path, FileSystemLoader] = {}

    def get_source(self, environment, template: str):
        if not template.startswith(PREFIX):
            return self.shared.get_source(environment, template)
        from server.games import UnknownGame, presenter
        game_id, _, rest = template[len(PREFIX):].partition("/")
        try:
            folder = presenter(game_id).templates / self.layer
        except UnknownGame:
            raise TemplateNotFound(template) from None
        loader = self._games.setdefault(folder, FileSystemLoader(str(folder)))
        return loader.get_source(environment, rest)

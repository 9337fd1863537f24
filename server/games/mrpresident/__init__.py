"""How Mr. President looks above its engine (engine/games/mrpresident/): its words, its mails' parts and its
pages' parts; its templates are under templates/games/mrpresident/."""

from __future__ import annotations

from server.games import register
from server.games.presenter import Presenter
from server.games.mrpresident.mail import Mail
from server.games.mrpresident.web import Web
from server.games.mrpresident.words import Words


class MrPresident(Web, Mail, Words, Presenter):
    game = "mrpresident"


PRESENTER = register(MrPresident())

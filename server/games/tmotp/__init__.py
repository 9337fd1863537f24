"""How 1960 looks above its engine (engine/games/tmotp/): its words, its mails' parts and its
pages' parts; its templates are under templates/games/tmotp/."""

from __future__ import annotations

from server.games import register
from server.games.presenter import Presenter
from server.games.tmotp.mail import Mail
from server.games.tmotp.variant import Variant
from server.games.tmotp.web import Web
from server.games.tmotp.words import Words


class Tmotp(Web, Mail, Words, Variant, Presenter):
    game = "tmotp"


PRESENTER = register(Tmotp())

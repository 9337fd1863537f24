"""The pages' own words in the reader's language (the mails' catalogues, server/translations):
``_("...")`` translates now, ``N_("...")`` marks a message to translate later; both are
extracted by pybabel (babel.cfg)."""

from __future__ import annotations

from flask import request

from server import i18n
from server.catalogue import N_  # noqa: F401  (the pages' marker)
from server.web.pages import reader


def locale() -> str:
    """The reader's language: their account's, else the browser's first that we have."""
    user = reader()
    if user is not None:
        return i18n.supported(user.locale)
    return request.accept_languages.best_match(i18n.LOCALES) or "en"


def _(message: str, **args) -> str:
    text = i18n.gettext(message, locale())
    return text % args if args else text


def refusal(exc) -> str:
    """A service's refusal (services/lobby.LobbyError) in the reader's language."""
    return _(exc.template, **exc.values)

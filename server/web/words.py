"""The pages' own words in the reader's language (the mails' catalogues, server/translations):
``_("...")`` translates now, ``N_("...")`` marks a message to translate later; both are
extracted by pybabel (babel.cfg)."""

from __future__ import annotations

from flask import g, request

from server import i18n
from server.catalogue import N_  # noqa: F401  (the pages' marker)
from server.web.pages import reader


def speak(locale: str) -> None:
    """Make this request's words ``locale``'s: for a page that speaks another reader's language
    than the signed-in one's (the page a mail's signed link opens speaks that mail's)."""
    g.page_locale = i18n.supported(locale)


def locale() -> str:
    """The reader's language: the page's own (``speak``), else their account's, else the
    browser's first that we have."""
    if g.get("page_locale"):
        return g.page_locale
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

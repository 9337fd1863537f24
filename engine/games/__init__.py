"""The games Whistlestop serves, each a package registering itself with engine.core (its
rules, and what it declares of itself: engine.core.registry.GameInfo). A new game is a folder
here and a line below."""
from . import mrpresident, tmotp  # noqa: F401  (register themselves)

GAMES = (tmotp.GAME_ID, mrpresident.GAME_ID)

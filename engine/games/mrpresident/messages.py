"""The game's text as messages (``engine.core.messages``): ``msg(template, **args)`` with the
names of Mr. President's seats, campaign cards, states, parties and sides (a party or a
candidate) in English. A campaign card is a ``{campaign}`` (not ``{card}``, which names a card of
1960), so one naming table serves both games' messages."""
from engine.core.messages import Message

from .data import CARDS, PARTY_NAMES, SEAT_NAMES, STATES

NAMES = {"seat": lambda seat: SEAT_NAMES.get(seat, seat),
         "side": lambda side: PARTY_NAMES.get(side) or SEAT_NAMES.get(side, side),
         "campaign": lambda cid: CARDS[int(cid)]["name"],
         "state": lambda code: STATES[code]["name"],
         "party": PARTY_NAMES.__getitem__}


def msg(template: str, **args) -> Message:
    """A message of the game: English now, any language later (see engine.core.messages)."""
    return Message(template, args, NAMES)

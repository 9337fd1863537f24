"""The game's text as messages (``engine.core.messages``): ``msg(template, **args)`` with the
names of 1960's seats, cards, states, issues and regions in English."""
from engine.core.messages import Message

from .data import CARDS, ISSUE_NAMES, REGION_NAMES, SEAT_NAMES, STATES

NAMES = {"seat": lambda seat: SEAT_NAMES.get(seat, seat), "card": lambda cid: CARDS[cid]["name"],
         "state": lambda code: STATES[code]["name"], "issue": ISSUE_NAMES.__getitem__,
         "region": REGION_NAMES.__getitem__}


def msg(template: str, **args) -> Message:
    """A message of the game: English now, any language later (see engine.core.messages)."""
    return Message(template, args, NAMES)


def of_event(prompt: Message, card: int | None, unnamed: bool = True) -> Message:
    """An event's prompt under the card it comes from ("Gaffe: Place ..."); without a card,
    under "The event:", or as it is when not ``unnamed``."""
    if card:
        return msg("{card}: {prompt}", card=card, prompt=prompt)
    return msg("The event: {prompt}", prompt=prompt) if unnamed else prompt

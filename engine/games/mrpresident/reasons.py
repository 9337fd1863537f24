"""Why an action is refused, in the game's words (the legal list comes with it)."""
from .data import CARDS
from .messages import msg

CARD_VERBS = ("play", "second", "upset", "stop")


def why_illegal(g, seat, action):
    """The reason ``action`` is not legal for ``seat`` now, or None for the general answer."""
    if not g.s["stack"] or seat not in g.active():
        return None
    step = g.top["step"]
    verb, args = action.verb, action.args
    if verb not in CARD_VERBS:
        return None
    wanted = {"lead": "play", "play": "play", "answer": "second", "upset": "upset",
              "stop": "stop"}.get(step)
    if verb != wanted:
        return None
    hand = sorted(g.s["hands"][seat])
    if any(not a.isdigit() or int(a) not in CARDS for a in args if a != "none"):
        return msg("Campaign cards are numbered 1 to 13; your hand: {campaigns}.",
                   campaigns=hand)
    cards = [int(a) for a in args if a != "none"]
    # Before the cards in hand: with one card left, the second card named is a discard, and the
    # rule to tell is "he may play only the one card".
    if len(cards) == 2 and len(hand) < 2:
        return msg("You have one card left: you may play only that card; the discards come "
                   "back when the hand is empty.")
    missing = [c for c in cards if c not in hand]
    if missing:
        return msg("{campaign} is not in your hand; your hand: {campaigns}.",
                   campaign=missing[0], campaigns=hand)
    if len(cards) == 2:
        if cards[0] == cards[1]:
            return msg("Two cards must be two different cards.")
        if not g.dial and g.s["doubles"][seat] <= 0:
            return msg("You have played two cards once already; the chalkboard edition allows "
                       "it once a game.")
    return None

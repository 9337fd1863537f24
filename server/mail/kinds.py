"""Which mails a game needs, and which only tell the news (issue 25, item 5: unsubscribing never
loses a game).

A *needed* mail is one without which a player could lose a seat or be left not knowing what was
done with it: a decision, a reminder, a deadline passed, an opponent not reached, the refusal
of an order sent by mail, the mails about the account itself. An *informational* mail tells
news the game goes on without (a game started, a seat taken, a step resolved while nothing is
asked of the player, a game over, the receipt of an order by mail, an invitation).

One-click unsubscribe (services/preferences.one_click) never stops a needed mail: on an
informational mail it stops that kind (``User.muted_kinds``), on a needed mail it takes the
daily digest instead of a mail for each decision (or, for a digest reader, stops the
informational mails). Only the signed-in user chooses no mail at all.
"""

from __future__ import annotations

from server.catalogue import N_

# The informational kinds, each with the words that name it in the settings page and the
# confirmation mail ("Mails when ..."): the order is the page's.
INFORMATIONAL = {
    "invitation": N_("you are invited to a game"),
    "seat_joined": N_("a player takes a seat in a game you host"),
    "game_started": N_("a game starts"),
    "step_resolved": N_("a step of choices made at the same time is resolved while nothing "
                        "is asked of you"),
    "order_received": N_("an order you sent by mail is played or sealed"),
    "game_over": N_("a game is over"),
    "rematch": N_("a rematch is offered, answered or made"),
    "table_talk": N_("somebody writes in a game's table talk"),
}

# The needed kinds: never stopped by a mail's link, only by the signed-in user's "no mail".
NEEDED = ("your_decision", "reminder", "deadline_passed", "not_reached", "digest",
          "order_refused", "reply_unknown", "reply_foreign", "sign_in", "webhook_disabled",
          "unsubscribed", "pause", "extension", "chat_report", "chat_answer",
          "absence", "absence_invitation")


def informational(kind: str | None) -> bool:
    """Whether a mail of ``kind`` only tells news (None, an unknown kind: treated as needed,
    the side that never stops a mail a game needs)."""
    return kind in INFORMATIONAL

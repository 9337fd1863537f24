"""No bucket of the limits that a stranger can fill for somebody else (issue 45, item 6). The
attack: the limit on mails handled per sender is counted before the mail is checked, so a
stranger forging a player's From (which the receiving server finds disowned by the player's
domain) uses up the player's own count, and the player's real orders by mail are ignored for
the rest of the hour. Mails the receiving server disowned are counted apart."""
from __future__ import annotations

from tests.mail.test_replies import app, game, handle, reply, state_of  # noqa: F401

DISOWNED = b"Authentication-Results: mx.whistlestop.example; spf=fail smtp.mailfrom=example.org\n"


def test_forged_mail_does_not_use_up_the_players_own_limit(app, game):
    app.config["RATE_INBOUND_PER_SENDER"] = "3/hour"
    forged = reply(game, game["legal"][0]).replace(b"From:", DISOWNED + b"From:", 1)
    results = [handle(app, forged) for _ in range(5)]
    assert results[:3] == ["foreign"] * 3 and results[3:] == ["ignored"] * 2  # still limited
    before = state_of(game)[0]
    assert handle(app, reply(game, game["legal"][0])) == "order"  # the player's own
    assert state_of(game)[0] == before + 1

"""A move that may still be taken back is shown to nobody but its mover (issue 27, item 3;
server/services/held_view.py): through the API, the other seat and a spectator get exactly what
they got before the move (game, view, log, decision), with ``held_until``; an order of the other
seat meanwhile is refused in those words (no legal action or reason of the game after the
move); on the game page, the other seat sees the game before the move and a "Show the move"
button, which makes the move seen (it can no longer be taken back); after the hold, everybody
sees the move."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import update

from server.models import Retractable
from server.services import games as svc
from tests.server.api.helpers import is_problem, other
from tests.server.api.test_retract import _strip, at_retractable
from tests.web.pages_helpers import Reader, csrf


def _seen_by(client, gid, who) -> tuple:
    game = client.get(f"/games/{gid}", who).get_json()
    decision = client.get(f"/games/{gid}/decision", who).get_json() if game["your_seat"] \
        else None
    return (_strip(game), client.get(f"/games/{gid}/log", who).get_json()["entries"],
            _strip({k: v for k, v in decision.items() if k != "held_until"})
            if decision else None, game["step"])


def _held_game(client, store, players, eve):
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="held",
                                 public=True)
    assert client.post(f"/games/{gid}/spectate", eve).status_code == 200
    state, seat, action = at_retractable(store, gid)
    them = players[other(seat)]
    before = {"them": _seen_by(client, gid, them), "eve": _seen_by(client, gid, eve)}
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"], r.get_json()
    return gid, seat, action, them, before, step


def test_the_other_seat_and_a_spectator_see_the_game_before_a_held_move(client, store, players):
    eve = client.signup("eve@example.org", "Eve")
    gid, seat, action, them, before, step = _held_game(client, store, players, eve)
    for who, name in ((them, "them"), (eve, "eve")):
        during = _seen_by(client, gid, who)
        game = client.get(f"/games/{gid}", who).get_json()
        assert game["held_until"] is not None and game["deadline_at"] is None
        assert during[3] == step  # the step the move answered, not the one it led to
        assert during[1] == before[name][1]  # the log as it was
        assert {k: v for k, v in during[0].items() if k != "held_until"} == \
            {k: v for k, v in before[name][0].items() if k != "held_until"}
        assert during[2] == before[name][2]
    # The mover sees the move and its game as it is.
    mine = client.get(f"/games/{gid}", players[seat]).get_json()
    assert mine["held_until"] is None and mine["step"] == step + 1
    # An order of the other seat meanwhile: refused in what it may see, nothing changed.
    for their_step in (step, step + 1):
        r = client.post(f"/games/{gid}/orders", them, json={"step": their_step,
                                                             "action": "anything 1"})
        body = is_problem(r, 409)
        assert body["current_step"] == step and "may still be taken back" in body["detail"]
        assert body["code"] == "held_move" and "/show-move" in body["detail"]
        assert "legal_actions" not in body
        assert body["decision"]["legal_actions"] == [] and not body["decision"]["active"]
    assert store.game(gid).step == step + 1
    # After the hold, the move is there for everybody.
    with store.session() as s:
        s.execute(update(Retractable).where(Retractable.game_id == gid)
                  .values(until=svc.utcnow() - timedelta(seconds=1)))
        s.commit()
    for who in (them, eve):
        game = client.get(f"/games/{gid}", who).get_json()
        assert game["held_until"] is None and game["step"] == step + 1
    assert client.get(f"/games/{gid}/decision", them).get_json()["active"]


def test_the_game_page_hides_a_held_move_until_it_is_shown(app, client, store, players,
                                                           mail_server):
    eve = client.signup("eve@example.org", "Eve")
    gid, seat, action, them, before, step = _held_game(client, store, players, eve)
    browser = Reader(app, mail_server, them.email)
    browser.sign_in()
    page = browser.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="held"' in page and "Show the move now" in page
    assert f'data.append("step", "{step}")' in page  # the page shows the step before the move
    # and its live news waits for the next change it may see (never told the real step)
    assert f"var step = {step}," in page and f'value="{step + 1}"' not in page
    # Showing it: seen, so final.
    r = browser.client.post(f"/games/{gid}/seen", data={"csrf_token": csrf(page),
                                                        "step": step + 1, "show": "1"})
    assert r.status_code == 303
    page = browser.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="held"' not in page and f'data.append("step", "{step + 1}")' in page
    r = client.post(f"/games/{gid}/retract", players[seat], json={"step": step + 1})
    assert is_problem(r, 409)["code"] == "seen"


def test_an_old_mail_link_never_tells_a_held_move(app, client, store, players):
    """A decision link of the other seat from an earlier step (its mail, read late) shows what
    happened since: never the held move (server/web/decide.py reads the game as seen)."""
    from server.services import links
    gid = client.two_player_game(store, players["kennedy"], players["nixon"], seed="held-link")
    state, seat, action = at_retractable(store, gid)
    them = other(seat)
    token = links.make(app.config["SECRET_KEY"], gid, them, 0, "pass", players[them].id, 0)
    url = f"/games/{gid}/decide/{token}"
    token_field = re.compile(r'name="csrf_token" value="[^"]*"')
    before = token_field.sub("", app.test_client().get(url).get_data(as_text=True))
    step = store.game(gid).step
    r = client.post(f"/games/{gid}/orders", players[seat], json={"step": step,
                                                                  "action": action})
    assert r.status_code == 200 and r.get_json()["retract_until"]
    during = token_field.sub("", app.test_client().get(url).get_data(as_text=True))
    assert during == before
    # Once the hold is over, the same link tells the move (the page is not frozen).
    with store.session() as s:
        s.execute(update(Retractable).where(Retractable.game_id == gid)
                  .values(until=svc.utcnow() - timedelta(seconds=1)))
        s.commit()
    after = token_field.sub("", app.test_client().get(url).get_data(as_text=True))
    assert after != before

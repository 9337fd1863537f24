"""An order's answer is built by hand (server/api/orders.py ``_answer``, without running the
schemas): it must be exactly what the documented schemas would dump, for every kind of answer
a whole game gives, sealed, applied, and stopped part way."""

from __future__ import annotations

import json
import random

from server.api.schemas import OrderAppliedSchema, OrderSealedSchema
from tests.server.api.test_playthrough import play_to_the_end

APPLIED, SEALED = OrderAppliedSchema(), OrderSealedSchema()


def _as_documented(response) -> None:
    body = response.get_json()
    schema = APPLIED if response.status_code == 200 else SEALED
    assert set(body) == set(schema.fields)
    assert schema.dump(body) == body
    if response.status_code == 200:
        assert set(body["decision"]) == set(schema.fields["decision"].schema.fields)
    # Every text is a plain JSON string (not an engine object that only looks like one).
    assert json.loads(response.get_data(as_text=True)) == body


def test_every_answer_of_a_whole_game_is_as_the_schemas_dump_it(client, store):
    a, b = client.signup("ann@example.org", "Ann"), client.signup("bob@example.org", "Bob")
    gid = client.two_player_game(store, a, b, seed="shape-1")
    kinds = set()

    def check(seat, response):
        if response.request.method == "POST":
            _as_documented(response)
            kinds.add(response.status_code)

    game = play_to_the_end(client, gid, {"kennedy": a, "nixon": b}, random.Random(5), check)
    assert game["status"] == "finished"
    assert kinds == {200, 202}


def test_an_order_stopped_part_way_answers_as_documented(client, store):
    a, b = client.signup("ann@example.org", "Ann"), client.signup("bob@example.org", "Bob")
    gid = client.two_player_game(store, a, b, seed="shape-2")
    players = {"kennedy": a, "nixon": b}
    for seat, player in players.items():
        decision = client.get(f"/games/{gid}/decision", player).get_json()
        if decision["active"] and not decision["simultaneous"]:
            break
    else:
        raise AssertionError("nobody is asked a sequential decision")
    first = decision["legal_actions"][0]
    r = client.post(f"/games/{gid}/orders", player,
                    json={"step": decision["step"], "actions": [first, "no such action"]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["applied"] == [first] and body["stopped_at"] == 1
    assert body["reason"] and isinstance(body["reason"], str)
    _as_documented(r)

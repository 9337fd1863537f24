"""The game's texts as messages (engine/core/messages.py): what a view stores as a note's or a
prompt's template and arguments renders again to exactly the English the view shows, so a
translation renders from the same data; a placeholder's name says its kind."""
import json
import random

from engine.core import new_game
from engine.core.messages import Message, kind, plain, render
from engine.games.tmotp.messages import NAMES, msg, of_event


def _english(message_data) -> str:
    template, args = message_data
    return render(template, args, NAMES)


def test_every_note_and_prompt_renders_again_from_its_stored_data():
    """Random games of both editions: each note's and each prompt's [template, args], after a
    JSON round trip as the server stores it, renders to the view's English text."""
    prompts = 0
    for n, edition in enumerate(("gmt", "zman") * 3):
        g = new_game("tmotp", seed=f"messages-{n}", options={"edition": edition})
        rng = random.Random(n)
        while g.active():
            seat = g.active()[0]
            view = json.loads(json.dumps(g.view(seat)))
            assert _english(view["prompt_message"]) == view["prompt"]
            prompts += 1
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        view = json.loads(json.dumps(g.view(None)))
        assert len(view["note_messages"]) == len(view["notes"]) > 100
        assert [_english(m) for m in view["note_messages"]] == view["notes"]
    assert prompts > 500


def test_a_note_of_an_older_state_is_its_own_template():
    g = new_game("tmotp", seed="old-notes")
    g.s["notes"].append([0, "An old note {without} arguments."])
    view = g.view(None)
    assert view["note_messages"][-1] == ["An old note {without} arguments.", {}]
    assert _english(view["note_messages"][-1]) == "An old note {without} arguments."


def test_placeholders_take_their_kind_from_their_name():
    assert [kind(p) for p in ("seat", "seat_target", "card2", "cid", "reason_more", "n")] == \
        ["seat", "seat", "card", "cid", "reason", "n"]
    note = msg("{seat} moves {cards} to {state} ({cid}).", seat="nixon", cards=[22, 76],
               state="NY", cid=22)
    assert note == "Nixon moves Gaffe, Nixon's Pledge to New York (22)."
    assert note.data() == ["{seat} moves {cards} to {state} ({cid}).",
                           {"seat": "nixon", "cards": [22, 76], "state": "NY", "cid": 22}]


def test_nested_messages_keep_their_game_names_and_their_data():
    inner = of_event(msg("Place {left} state support cubes.", left=2), 22)
    outer = plain("Stop: {prompt}", prompt=inner)
    assert outer == "Stop: Gaffe: Place 2 state support cubes."
    assert isinstance(outer, Message) and outer.data()[1]["prompt"] == [
        "{card}: {prompt}", {"card": 22, "prompt": ["Place {left} state support cubes.",
                                                    {"left": 2}]}]
    assert of_event(msg("Take it."), None) == "The event: Take it."
    assert of_event(msg("Take it."), None, unnamed=False) == "Take it."

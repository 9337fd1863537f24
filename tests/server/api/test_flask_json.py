"""The app's JSON provider (server/flask_app.py): orjson's speed, Flask's JSON."""

from __future__ import annotations

import dataclasses
import json
import uuid
from datetime import datetime, timezone
from decimal import Decimal

import pytest
from flask.json.provider import DefaultJSONProvider

from server.app import create_app


@pytest.fixture
def json_app(tmp_path):
    return create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}",
                       "VAR_DIR": str(tmp_path / "var"), "SECRET_KEY": "s" * 48})


@dataclasses.dataclass
class Point:
    x: int
    y: int


VALUES = [
    {"b": 1, "a": [1, 2.5, None, True], "c": {"z": "x", "y": ()}},
    {"when": datetime(2026, 11, 27, 6, 0, tzinfo=timezone.utc), "id": uuid.UUID(int=7),
     "amount": Decimal("1.50"), "point": Point(1, 2), "html": type("H", (), {
         "__html__": lambda self: "<b>x</b>"})()},
    {"big": 2 ** 70, "small": -(2 ** 63)},
    {1: "non-string keys", 2: "are written as strings"},
]


@pytest.mark.parametrize("value", VALUES)
def test_the_same_json_as_flasks_own(json_app, value):
    ours, flasks = json_app.json, DefaultJSONProvider(json_app)
    with json_app.app_context():
        assert json.loads(ours.dumps(value)) == json.loads(flasks.dumps(value))
        body = ours.response(value).get_data()
        assert body.endswith(b"\n") and json.loads(body) == json.loads(flasks.dumps(value))
        assert ours.dumps(value, indent=1) == flasks.dumps(value, indent=1)  # asked as stdlib


def test_keys_sorted_compact_and_text_outside_ascii_as_utf8(json_app):
    with json_app.app_context():
        body = json_app.json.response({"b": "日本", "a": 1}).get_data()
    assert body == '{"a":1,"b":"日本"}\n'.encode()


def test_debug_mode_indents(json_app):
    json_app.debug = True
    with json_app.app_context():
        assert json_app.json.response({"a": 1}).get_data() == b'{\n  "a": 1\n}\n'


def test_reading_takes_what_the_standard_library_takes_and_refuses_the_rest(json_app):
    assert json_app.json.loads(b'{"a": [1, "\\u65e5"]}') == {"a": [1, "日"]}
    assert json_app.json.loads("NaN") != json_app.json.loads("NaN")  # stdlib's NaN, not an error
    with pytest.raises(ValueError):
        json_app.json.loads("{nope")


def test_an_api_answer_is_written_by_it(app):
    assert type(app.json).__module__ == "server.flask_app"
    r = app.test_client().get("/healthz")
    assert r.status_code == 200, r.get_data()
    assert r.get_data().endswith(b"\n") and b'": ' not in r.get_data()  # compact

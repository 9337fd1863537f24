"""OrderSchema takes a plain order as it is, without marshmallow's load (server/api/schemas.py,
for the order path's speed): for any input the answer is the one the fields give."""

from __future__ import annotations

import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.api.schemas import OrderSchema, plain_order

SCHEMA = OrderSchema()

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**70), st.floats(),
                     st.text(max_size=3), st.text(min_size=499, max_size=502))
_actions = st.one_of(st.lists(st.one_of(st.text(max_size=4), st.integers(), st.none()),
                              max_size=3),
                     st.lists(st.just("play 1 campaign"), min_size=99, max_size=102), _scalars)
_orders = st.fixed_dictionaries({}, optional={
    "step": st.one_of(st.integers(-2, 10**9), _scalars), "actions": _actions,
    "action": _scalars, "seat": st.one_of(st.text(max_size=3), st.text(min_size=49, max_size=52),
                                          _scalars),
    "extra": _scalars})


def _full(data):
    """What the fields alone answer: the loaded order, or the errors."""
    try:
        return ma.Schema.load(SCHEMA, data)
    except ma.ValidationError as exc:
        return exc.messages


def _fast(data):
    try:
        return SCHEMA.load(data)
    except ma.ValidationError as exc:
        return exc.messages


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_orders, _scalars, st.lists(_scalars, max_size=2)))
def test_any_input_gets_the_fields_answer(data):
    assert _fast(data) == _full(data)


@pytest.mark.parametrize("data", [
    {"step": 0, "actions": ["a"]}, {"step": 12, "action": "play 71 campaign", "seat": "nixon"},
    {"step": 3, "actions": ["x" * 500] * 100}])
def test_plain_orders_take_the_short_way(data):
    assert plain_order(data) and SCHEMA.load(data) == data


@pytest.mark.parametrize("data", [
    {"step": True, "actions": ["a"]}, {"step": 1.0, "actions": ["a"]}, {"step": -1, "action": "a"},
    {"step": 1}, {"step": 1, "actions": ["a"], "action": "a"}, {"step": 1, "actions": []},
    {"step": 1, "actions": [""]}, {"step": 1, "action": "a", "seat": ""},
    {"step": 1, "action": "a", "extra": 1}, ["step"], None])
def test_anything_else_is_left_to_the_fields(data):
    assert not plain_order(data)
    with pytest.raises(ma.ValidationError):
        SCHEMA.load(data)

"""The schemathesis run's hook keeps its own tokens (tests/security/schemathesis_hooks.py): a
case of DELETE /users/me/tokens/{token_id} naming one, in any spelling the route reads as that
id, goes out naming no token; every other case goes as drawn."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.security import schemathesis_hooks as hooks


def _case(label: str, token_id) -> SimpleNamespace:
    return SimpleNamespace(operation=SimpleNamespace(label=label),
                           path_parameters={"token_id": token_id})


@pytest.mark.parametrize("value", [7, "7", "007", " 7", "٧"])
def test_a_kept_token_in_any_spelling_is_never_revoked(monkeypatch, value):
    monkeypatch.setattr(hooks, "KEPT", {"7"})
    case = _case(hooks.REVOKE, value)
    hooks.before_call(None, case)
    assert case.path_parameters["token_id"] == hooks.NO_SUCH_TOKEN


@pytest.mark.parametrize("label, value", [
    (hooks.REVOKE, 8), (hooks.REVOKE, "x7"), (hooks.REVOKE, "²"), (hooks.REVOKE, None),
    ("GET /api/v1/games/{game_id}", 7)])
def test_every_other_case_goes_as_drawn(monkeypatch, label, value):
    monkeypatch.setattr(hooks, "KEPT", {"7"})
    case = _case(label, value)
    hooks.before_call(None, case)
    assert case.path_parameters["token_id"] == value

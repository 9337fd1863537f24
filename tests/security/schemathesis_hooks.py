"""Schemathesis hooks for tests/security/test_schemathesis_live.py (loaded by the run through
SCHEMATHESIS_HOOKS): the run never revokes the tokens it runs with.

``DELETE /users/me/tokens/{token_id}`` revokes the caller's own token when asked to (that is
its documented power), and the run's tokens are rows like any other: one fuzzed id equal to the
run's own would leave every later case anonymous (401), so the rest of the run would test
nothing but the refusal. A case that names one of the run's tokens (``WS_KEPT_TOKEN_IDS``) is
sent with an id no token has instead; every other id, the spare tokens' included, goes as drawn.
"""

from __future__ import annotations

import os

import schemathesis

REVOKE = "DELETE /api/v1/users/me/tokens/{token_id}"
NO_SUCH_TOKEN = 2**31 - 1
KEPT = {value.strip() for value in os.environ.get("WS_KEPT_TOKEN_IDS", "").split(",")
        if value.strip()}


def names_a_kept_token(value, kept: set[str]) -> bool:
    """Whether ``value`` (as drawn: a number or any string) is read by the route as a kept id."""
    try:
        return str(int(str(value).strip())) in kept  # int() reads other scripts' digits too
    except ValueError:
        return False


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.operation.label != REVOKE or not case.path_parameters:
        return
    if names_a_kept_token(case.path_parameters.get("token_id"), KEPT):
        case.path_parameters["token_id"] = NO_SUCH_TOKEN

"""Issue 48, item 1: the operator adds a member (`whistlestop add-member`), the way into a
members-only club; every refusal says why and changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func
from sqlmodel import select

from server.models import User
from server.services import users
from tests.server.test_cli import env, run  # noqa: F401  (the CLI's fixtures)


def _count(session) -> int:
    session.expire_all()
    return session.exec(select(func.count()).select_from(User)).one()


@pytest.mark.parametrize("open_signup", ["false", "true"])
def test_add_member_makes_the_account_and_refuses_in_words(run, session, monkeypatch,
                                                          open_signup):
    monkeypatch.setenv("WHISTLESTOP_OPEN_SIGNUP", open_signup)
    code, out, _ = run("add-member", "Ann@Example.ORG", "--name", "Ann")
    assert code == 0 and "member" in out and "ann@example.org (Ann)" in out
    user = users.find_user(session, "ann@example.org")
    assert user is not None and user.display_name == "Ann"

    for argv, words in ((("add-member", "ann@example.org"), "a member already"),
                        (("add-member", "not-an-address"), "not an email address"),
                        (("add-member", "bo@example.test"), "reserved domain"),
                        (("add-member", "bo@example.org", "--name", "x" * 300), "nothing was")):
        code, out, err = run(*argv)
        assert code == 2 and out == "" and words in err, (argv, err)
    assert _count(session) == 1


def test_add_member_is_in_the_help(run):
    code, out, _ = run("add-member", "--help")
    assert code == 0 and "WHISTLESTOP_OPEN_SIGNUP" in out

"""Display names that pass for someone else (issue 45, L7), each written as the attack.

A player signs up as "Player 2" (the name the pages give an account that chose none), as
"a deleted player" (in any of the server's languages), as the site ("Whistlestop"), as its
staff ("Admin", "Moderator"), or writes one of these with look-alike letters ("P1ayer 2",
"WhistIestop" with a capital i), or mixes Cyrillic letters into a Latin name ("Аnn"): each is
refused with the reason, nothing stored. The comparison is on the UTS #39 skeletons (Unicode's confusables, as
confusable-homoglyphs ships them) of the case-folded NFKC names; names in one script, or in Latin with Japanese,
are taken as before.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from server.models import User
from server.services import display_names
from tests.server.api.helpers import is_problem

RESERVED = "names the server itself uses"
MIXED = "mixes scripts"


@pytest.mark.parametrize(("name", "reason"), [
    ("Player 2", RESERVED),
    ("player 17", RESERVED),
    ("PLAYER 3", RESERVED),
    ("P1ayer 2", RESERVED),                      # the digit one for the letter l
    ("PIayer 12", RESERVED),                     # a capital i for the l
    ("Jugador 4", RESERVED),                     # Spanish pages' "Player <n>"
    ("プレイヤー 5", RESERVED),                   # Japanese pages' "Player <n>"
    ("プレイヤー5", RESERVED),
    ("a deleted player", RESERVED),
    ("A Deleted Player", RESERVED),
    ("un jugador eliminado", RESERVED),
    ("削除されたプレイヤー", RESERVED),
    ("Whistlestop", RESERVED),
    ("WhistIestop", RESERVED),                   # a capital i for the l
    ("Whistlestop Team", RESERVED),
    ("Admin", RESERVED),
    ("The Administrator", RESERVED),
    ("Site operator", RESERVED),
    ("Moderator", RESERVED),
    ("Аnn", MIXED),                              # a Cyrillic А, then Latin
    ("Whіstlestop", MIXED),                      # a Cyrillic і inside Latin
    ("Ann Ѕmith", MIXED),                        # a Cyrillic Ѕ in the surname
])
def test_a_name_that_passes_for_another_is_refused_with_the_reason(client, store, name,
                                                                    reason):
    r = client.post("/users", json={"email": "mallory@example.org", "display_name": name})
    body = is_problem(r, 422)
    said = body["errors"]["json"]["display_name"][0]
    assert reason in said, said
    with store.session() as s:
        assert s.exec(select(User)).all() == []


@pytest.mark.parametrize("name", [
    "Ann", "Player One", "Playa 2", "Badminton Bob", "José María", "Nguyễn Văn An",
    "ジョン・スミス", "山田 太郎", "田中 Taro", "Иван Петров", "Ελένη", "R2-D2",
])
def test_names_in_one_script_or_latin_with_japanese_are_taken(client, store, name):
    r = client.post("/users", json={"email": "ann@example.org", "display_name": name})
    assert r.status_code == 202, r.get_json()


def test_look_alikes_are_found_case_folded_and_nfkc():
    assert display_names.looks_alike("ＰＬＡＹＥＲ ２", "player 2")
    assert display_names.looks_alike("WhistIestop", "Whistlestop")
    assert display_names.looks_alike("ADMIN", "admin")
    assert not display_names.looks_alike("Ann", "Anne")

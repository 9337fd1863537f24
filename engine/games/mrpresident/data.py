"""The cards of Mr. President (1965), loaded and checked once at import.

- The 51 electoral (state) cards: the 1964 apportionment, 538 votes with the District of Columbia,
  coloured by the rules' bands (brown 3-5, green 6-10, blue 11-20, red 21 and over).
- The 13 campaign cards of a set, in the order the rules' first line names them. Their point values
  are HOUSE VALUES (the rules do not print them): 10 to 130 in steps of 10.
- The popular vote chart of the dial edition: HOUSE VALUES derived from the 1964 totals by
  ``popular_chart`` (the rule is written there).
"""
import json
from importlib import resources

ALL_SEATS = ("p1", "p2", "p3", "p4")
SEAT_NAMES = {"p1": "Candidate 1", "p2": "Candidate 2", "p3": "Candidate 3", "p4": "Candidate 4"}
PARTIES = ("republican", "democratic")
PARTY_NAMES = {"republican": "Republican Party", "democratic": "Democratic Party"}
BANDS = (("brown", 3, 5), ("green", 6, 10), ("blue", 11, 20), ("red", 21, 999))
MAJORITY = 270
CLOSE_SPREAD = {2: 10, 3: 20, 4: 30}        # dial edition: the Close Vote Column's spreads
# House values: the Close Vote Column's shares (per cent) of a state's vote, first place first.
CLOSE_SHARES = {2: (51, 49), 3: (35, 33, 32), 4: (28, 26, 24, 22)}


class DataError(ValueError):
    """The engine's own data files are inconsistent."""


def _check(cond, msg):
    if not cond:
        raise DataError(msg)


def _load(name):
    path = resources.files(__package__).joinpath("data", f"{name}.json")
    return json.loads(path.read_text("utf-8"))


def band(ev: int) -> str:
    """The colour of an electoral card of ``ev`` votes (the rules' SETUP)."""
    return next(name for name, low, high in BANDS if low <= ev <= high)


def _split(total: int, weights) -> list:
    """``total`` shared in proportion to ``weights``, whole numbers by largest remainder."""
    whole = sum(weights)
    parts = [total * w // whole for w in weights]
    rest = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in rest[:total - sum(parts)]:
        parts[i] += 1
    return parts


def popular_chart(state: dict, players: int) -> dict:
    """The dial edition's Popular Vote Chart row for ``state`` with ``players`` candidates, in
    thousands of votes ("the last three digits of the vote are not added"). HOUSE RULE:

    - the regular column: first place takes the 1964 winner's vote in the state (Johnson's or
      Goldwater's, whichever was larger); the rest of the state's 1964 total is shared by the
      other places in the proportion (n-1) : (n-2) : ... : 1, so second place gets most of it;
    - the Close Vote Column: the state's whole total shared by CLOSE_SHARES (51/49 with two
      candidates; 35/33/32 with three; 28/26/24/22 with four).

    So every place together takes exactly the state's 1964 total in either column.
    """
    total = round(state["total"] / 1000)
    first = min(total, round(max(state["johnson"], state["goldwater"]) / 1000))
    regular = [first] + _split(total - first, list(range(players - 1, 0, -1)))
    close = _split(total, CLOSE_SHARES[players])
    return {"regular": regular, "close": close}


def _states():
    rows = _load("states")
    out = {}
    for row in rows:
        row = dict(row)
        row["band"] = band(row["ev"])
        row["popular"] = {n: popular_chart(row, n) for n in (2, 3, 4)}
        out[row["code"]] = row
    _check(len(out) == 51, "51 electoral cards (the 50 states and DC)")
    _check(sum(s["ev"] for s in out.values()) == 538, "538 electoral votes")
    _check(all(s["ev"] >= 3 for s in out.values()), "every state has 3 votes or more")
    return out


def _cards():
    cards = {c["id"]: c for c in _load("campaign_cards")["cards"]}
    _check(sorted(cards) == list(range(1, 14)), "13 campaign cards, numbered 1 to 13")
    _check(len({c["value"] for c in cards.values()}) == 13, "13 different point values")
    return cards


STATES = _states()
CARDS = _cards()
CARD_VALUES = {cid: c["value"] for cid, c in CARDS.items()}
TOTAL_EV = sum(s["ev"] for s in STATES.values())

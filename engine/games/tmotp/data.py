"""The card, state and endorsement data of 1960, loaded and checked once at import."""
import json
from importlib import resources

SEATS = ("kennedy", "nixon")
REGIONS = ("west", "midwest", "south", "east")
ISSUES = ("defense", "economy", "civil_rights")
ISSUE_NAMES = {"defense": "Defense", "economy": "Economy", "civil_rights": "Civil Rights"}
REGION_NAMES = {"west": "the West", "midwest": "the Midwest", "south": "the South", "east": "the East"}
SEAT_NAMES = {"kennedy": "Kennedy", "nixon": "Nixon"}


class DataError(ValueError):
    """The engine's own data files are inconsistent."""


def _load(name):
    return json.loads(resources.files(__package__).joinpath("data", f"{name}.json").read_text("utf-8"))


def _load_rulings() -> dict:
    """Card rulings, one JSON file per event module in data/rulings/, keyed by card id."""
    out = {}
    for entry in sorted(resources.files(__package__).joinpath("data", "rulings").iterdir(),
                        key=lambda e: e.name):
        if entry.name.endswith(".json"):
            for k, v in json.loads(entry.read_text("utf-8")).items():
                _check(int(k) not in out, f"two rulings for card {k}")
                out[int(k)] = v
    return out


def _check(cond, msg):
    if not cond:
        raise DataError(msg)


def _check_cards(cards):
    ids = [c["id"] for c in cards]
    _check(len(ids) == len(set(ids)), "duplicate card ids")
    _check(ids == list(range(1, 98)), "campaign cards must be numbered 1..97")
    for c in cards:
        for key in ("name", "cp", "rest", "icon", "issue", "state", "persistent", "edition", "effect"):
            _check(key in c, f"card {c['id']} lacks {key}")
        _check(c["icon"] in ("kennedy", "nixon", "both"), f"card {c['id']}: bad icon")
        _check(1 <= c["cp"] <= 4 and c["rest"] == 4 - c["cp"], f"card {c['id']}: CP/rest")
        _check(c["edition"] in ("both_editions", "gmt_2nd_only"), f"card {c['id']}: edition")
    _check(sum(c["edition"] == "both_editions" for c in cards) == 91, "91 cards in both editions")


def _check_states(states):
    codes = [s["code"] for s in states]
    _check(len(codes) == 50 == len(set(codes)), "50 distinct states")
    _check(sum(s["ev"] for s in states) == 537, "537 electoral votes")
    for s in states:
        _check(s["region"] in REGIONS and s["edge"] in SEATS, f"state {s['code']}: region/edge")


CARDS = {c["id"]: c for c in _load("cards")}
_check_cards(list(CARDS.values()))
STATES = {s["code"]: s for s in _load("states")}
_check_states(list(STATES.values()))
for _c in CARDS.values():
    _check(_c["state"] is None or _c["state"] in STATES, f"card {_c['id']}: unknown state")
ENDORSEMENTS = {e["id"]: e for e in _load("endorsements")}
_check(len(ENDORSEMENTS) == 16, "16 endorsement cards")
CANDIDATES = {c["seat"]: c for c in _load("candidates")}
RULINGS = _load_rulings()
_check(all(k in CARDS for k in RULINGS), "rulings name unknown cards")

STATES_BY_REGION = {r: tuple(sorted(c for c, s in STATES.items() if s["region"] == r)) for r in REGIONS}
VP_CARDS = {"kennedy": 39, "nixon": 42}   # Lyndon Johnson, Henry Cabot Lodge
GATHERING_MOMENTUM = (14, 15, 16, 17)

# Travel (GMT "Moving the Candidate Token"): regions that share a border on the map are one
# boundary apart; West and East share none (2 CP, as the rulebook says). Alaska and Hawaii sit
# behind their own boundary and are reached only from the West.
_ADJ = {"west": {"midwest", "south", "ak", "hi"}, "midwest": {"west", "south", "east"},
        "south": {"west", "midwest", "east"}, "east": {"midwest", "south"},
        "ak": {"west"}, "hi": {"west"}}


def _distances():
    out = {}
    for start in _ADJ:
        dist, frontier = {start: 0}, [start]
        while frontier:
            nxt = []
            for z in frontier:
                for y in _ADJ[z]:
                    if y not in dist:
                        dist[y] = dist[z] + 1
                        nxt.append(y)
            frontier = nxt
        out[start] = dist
    return out


ZONE_DISTANCE = _distances()


def travel_cost(from_state: str, to_state: str) -> int:
    """Return the CP needed to move a candidate token between the two states' travel zones."""
    return ZONE_DISTANCE[STATES[from_state]["zone"]][STATES[to_state]["zone"]]


def other(seat: str) -> str:
    return "nixon" if seat == "kennedy" else "kennedy"


def sign(seat: str) -> int:
    """Return +1 for Kennedy, -1 for Nixon: the sign of a seat's cubes in a signed count."""
    return 1 if seat == "kennedy" else -1

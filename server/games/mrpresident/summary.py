"""The summary of a game of Mr. President (1965) that a seat is shown, built from that seat's view
only (`view(seat)`): the engine's static data only supplies names, electoral votes and the
cards' points. Names are in the reader's language (`terms`). The mails render it
(templates/games/mrpresident/email/summary.*) and so does the game page
(templates/games/mrpresident/web/board.html, board.py).

What it holds: the election, its stage and round; the electoral cards on the table (votes, colour
band, and in the popular count the chart's votes by place); the scoreboard of every contest
(each side's states won, who is ahead and who scored last round; the tied votes that carry into
the next round beside it) and the majority that wins; the cards turned up so far this round
(the others' face-down cards only counted); how many of the candidates deciding a sealed step
have chosen (never who: ``view["committed"]``, which the server replaces by its own count of
sealed orders, since the engine learns them only when the step resolves); every candidate's
cards in hand, discards, hand replays and two-card play left; the last round's cards and
result; the seat's hand and discards, replays left and, in the chalkboard edition, whether its
two-card play is still to come.
"""

from __future__ import annotations

from engine.games.mrpresident.data import CARD_VALUES, MAJORITY, STATES
from server.catalogue import N_
from server.games import presenter
from server.i18n import game_text
from server.i18n import gettext, supported

GAME = "mrpresident"


def terms(locale: str | None) -> dict[str, dict]:
    """The game's words in ``locale`` (its presenter's)."""
    return presenter(GAME).terms(locale)


BANDS = {"brown": N_("brown"), "green": N_("green"), "blue": N_("blue"), "red": N_("red")}
EDITIONS = {"chalkboard": N_("chalkboard edition"), "dial": N_("dial edition")}
COUNTS = {"electoral": N_("electoral vote"), "popular": N_("popular vote")}
VERSIONS = {"short": N_("short version"), "long": N_("long version")}
NOMINEE = N_("Nominee version")
NOMINEE_BY_LOT = N_("Nominee version, parties by lot")
PLURALITY = N_("the most electoral votes win")
PLAYERS = N_("%(n)s candidates")
SCOREBOARD = N_("Scoreboard")
SCOREBOARD_MAJORITY = N_("Scoreboard (%(n)s electoral votes win)")
CONVENTION = N_("The %(party)s convention")
# The places of a round (the Popular Vote Chart's columns), first to fourth.
PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
# A candidate's two-card play: the dial edition's as often as wanted; the chalkboard's once.
TWO_CARDS = {"dial": N_("as often as wanted"), "left": N_("once, still to play"),
             "played": N_("played")}


def variant(options: dict, locale: str) -> str:
    """The game's options in words: "dial edition, popular vote, long version, 3 candidates"."""
    parts = [EDITIONS[options["edition"]], COUNTS[options["count"]],
             VERSIONS[options["version"]]]
    if options.get("nominee"):
        parts.append(NOMINEE_BY_LOT if options.get("parties") == "lot" else NOMINEE)
    if options.get("plurality") and options["count"] == "electoral":
        parts.append(PLURALITY)
    words = [gettext(part, locale) for part in parts]
    words.append(gettext(PLAYERS, locale) % {"n": options["players"]})
    return game_text.JOIN[supported(locale)].join(words)


def status(view: dict, locale: str) -> list[str]:
    """Where the game stands, in short parts: the stage (Nominee version), the election (when
    replayed), the round, and how many electoral cards a round turns up when more than one."""
    out = []
    if view["options"].get("nominee"):
        out.append(gettext("Party conventions", locale) if view["stage"] == "convention"
                   else gettext("National election", locale))
    if view["election"] > 1:
        out.append(gettext("Election %(n)s (the earlier had no winner and was replayed)",
                           locale) % {"n": view["election"]})
    if view["round"]:
        out.append(gettext("Round %(n)s of %(total)s", locale)
                   % {"n": view["round"], "total": view["rounds"]} if view["rounds"]
                   else gettext("Round %(n)s", locale) % {"n": view["round"]})
    if view["cards_this_round"] > 1:
        out.append(gettext("%(n)s electoral cards a round", locale)
                   % {"n": view["cards_this_round"]})
    return out


def campaign_name(card_id: int, locale: str = "en") -> str:
    """A campaign card as the mails name it: "Train Tours (7)"."""
    return f"{terms(locale)['campaigns'][card_id]} ({card_id})"


def campaign(card_id: int, locale: str) -> dict:
    """A campaign card: its number, name and points (a house value)."""
    return {"number": card_id, "name": terms(locale)["campaigns"][card_id],
            "points": CARD_VALUES[card_id]}


def side_name(side: str, locale: str, start: bool = True) -> str:
    """A side of a contest (a candidate, or a party in the Nominee version's national election),
    as it begins a line (``start``: a capital for a party's article) or inside one."""
    names = terms(locale)
    name = names["parties"].get(side) or names["seats"].get(side, side)
    return game_text.initial(name) if start else name


def _band(key: str, locale: str) -> str:
    """An electoral card's colour band in words."""
    message = BANDS[key]
    return gettext(message, locale)


def state_name(code: str, locale: str | None) -> str:
    """A state's name in ``locale``'s words ("New York", "ニューヨーク州", "Nueva York")."""
    return terms(locale)["states"].get(code, code)


def state(code: str, locale: str) -> dict:
    """An electoral (state) card: its code, name, electoral votes and colour band (``band`` in
    words, ``band_key`` as the engine names it)."""
    info = STATES[code]
    return {"code": code, "name": state_name(code, locale), "ev": info["ev"],
            "band": _band(info["band"], locale), "band_key": info["band"]}


def places(players: int, locale: str) -> list[str]:
    """The places of a round in words, first to last (the Popular Vote Chart's columns)."""
    return [gettext(place, locale) for place in PLACES[:players]]


def _table(view: dict, locale: str) -> list[dict]:
    return [{**state(card["state"], locale), "regular": list(card["popular"]["regular"]),
             "close": list(card["popular"]["close"])}
            for card in view["table"]]


def _majority(view: dict) -> int | None:
    """The electoral votes that win the national election when a majority is needed (a
    convention, the popular vote and the plurality rule: the most votes)."""
    options = view["options"]
    if options["count"] == "electoral" and not options.get("plurality") \
            and "national" in view["contests"]:
        return MAJORITY
    return None


def _contests(view: dict, seat: str | None, locale: str) -> list[dict]:
    """Each contest's scoreboard: the national election, or both parties' conventions. A side
    is ahead when its votes are the most (and more than none); ``scored_last``: it scored last
    round, so it lays first (the chalkboard edition's leaders)."""
    seats = terms(locale)["seats"]
    out = []
    for key, contest in view["contests"].items():
        best = max(contest["tally"].values(), default=0)
        sides = [{"side": side, "name": side_name(side, locale),
                  # a party's members (a candidate side is its own only member)
                  "members": [seats[x] for x in members] if side not in members else [],
                  "tally": contest["tally"][side], "ev": contest["ev"][side],
                  "won": [state(c, locale) for c in contest["won"][side]],
                  "ahead": best > 0 and contest["tally"][side] == best,
                  "scored_last": side in contest["leaders"],
                  "you": seat in members}
                 for side, members in contest["sides"].items()]
        pots = [{"states": [state_name(c, locale) for c in pot["states"]],
                 "ev": sum(STATES[c]["ev"] for c in pot["states"]),
                 "sides": [side_name(s, locale, start=False) for s in pot["sides"]]}
                for pot in contest["pots"]]
        out.append({"key": key, "title": _title(key, _majority(view), locale), "sides": sides,
                    "pots": pots, "decided": contest["decided"]})
    return out


def _title(key: str, majority: int | None, locale: str) -> str:
    """A contest's scoreboard title: the national election's (with the majority that wins it,
    when a majority is needed), or a party's convention."""
    if key != "national":
        party = terms(locale)["parties"][key]
        return game_text.contract(gettext(CONVENTION, locale) % {"party": party}, locale)
    if majority:
        return gettext(SCOREBOARD_MAJORITY, locale) % {"n": majority}
    return gettext(SCOREBOARD, locale)


def _cards(cards, locale: str) -> list[str]:
    return [campaign_name(c, locale) for c in cards]


def _points(cards) -> int:
    return sum(CARD_VALUES[c] for c in cards)


def _candidates(view: dict, seat: str | None, locale: str) -> list[dict]:
    """Every candidate's public row: name (and party, in the Nominee version), cards in hand,
    discards, hand replays and two-card play left."""
    seats = terms(locale)["seats"]
    party_of = {x: party for party, members in (view.get("parties") or {}).items()
                for x in members}
    dial = view["options"]["edition"] == "dial"
    out = []
    for x in view["seats"]:
        two = "dial" if dial else "left" if view["doubles"][x] > 0 else "played"
        out.append({"seat": x, "name": seats[x], "you": x == seat,
                    "party": side_name(party_of[x], locale, start=False)
                    if x in party_of else None,
                    "cards": view["hand_sizes"][x], "discards": view["discard_counts"][x],
                    "refills": view["refills"][x], "two_cards": gettext(TWO_CARDS[two], locale),
                    "line": f"{seats[x]} {view['hand_sizes'][x]}"})
    return out


def _this_round(view: dict, seat: str | None, locale: str) -> list[dict]:
    """The cards laid this round: those turned up (and their points), the others' face-down
    ones counted; the seat's own face-down cards named (they are its own)."""
    seats = terms(locale)["seats"]
    out = []
    for x in view["seats"]:
        play = view["plays"].get(x)
        if play is None:
            continue
        mine = x == seat
        hidden = play["cards"][len(play["shown"]):] if mine else []
        out.append({"name": seats[x], "you": mine, "shown": _cards(play["shown"], locale),
                    "points": _points(play["shown"]), "face_down": play["face_down"],
                    "mine_face_down": _cards(hidden, locale)})
    return out


def _last_round(view: dict, locale: str) -> dict | None:
    """The last round played: its electoral cards, every candidate's cards and the result
    (public once the round is over). ``other_election``: it was played in an election since
    replayed; ``latest``: it is this election's round just played, or the game is over (the
    mails show only such a round; the game page shows the last round whatever it was)."""
    history = view["history"]
    if not history:
        return None
    entry = history[-1]
    over = view["result"] is not None
    latest = entry["election"] == view["election"] and (
        over or entry["round"] in (view["round"] - 1, view["round"]))
    seats = terms(locale)["seats"]
    popular = view["options"]["count"] == "popular"
    plays = [{"name": seats[x], "cards": _cards(entry["plays"][x], locale),
              "points": _points(entry["plays"][x])}
             for x in view["seats"] if x in entry["plays"]]
    result: dict = {"kind": "scored", "sides": [], "contests": []}
    if entry.get("buried"):
        result = {"kind": "buried", "seats": [seats[x] for x in entry["buried"]]}
    elif entry.get("set_aside"):
        result = {"kind": "set_aside", "seats": [seats[x] for x in entry["set_aside"]]}
    elif "order" in entry:
        votes = entry.get("votes") or {}
        close = list(entry["close"]) + [False] * len(entry["order"])
        result = {"kind": "placing",
                  "places": [{"place": i + 1, "name": seats[x],
                              "votes": votes.get(x) if popular else None, "close": bool(close[i])}
                             for i, x in enumerate(entry["order"])]}
    elif "winners" in entry:
        scored = [side_name(side, locale, start=False)
                  for sides in entry["winners"].values() for side in sides]
        # by contest (the game page's lines): a convention's party, and who scored in it
        contests = [{"key": key,
                     "party": side_name(key, locale) if key != "national" else None,
                     "sides": [side_name(side, locale, start=False) for side in sides]}
                    for key, sides in entry["winners"].items()]
        result = {"kind": "scored", "sides": scored, "contests": contests}
    states = entry["states"]
    return {"round": entry["round"], "election": entry["election"],
            "other_election": entry["election"] != view["election"], "latest": latest,
            "void": entry.get("void", False),
            "states": [state_name(c, locale) for c in states],
            "ev": sum(STATES[c]["ev"] for c in states), "plays": plays, "result": result}


def _nominees(view: dict, locale: str) -> list[dict]:
    """The Nominee version's parties: their members (with their votes at the convention, once
    it is over), and once nominated who runs for President and who for Vice President."""
    if not view["parties"]:
        return []
    seats = terms(locale)["seats"]
    nominees = view["nominees"] or {}
    conventions = view.get("conventions") or {}
    out = []
    for party, members in view["parties"].items():
        tally = (conventions.get(party) or {}).get("tally") or {}
        out.append({"party": side_name(party, locale),
                    "members": [{"name": seats[x], "votes": tally.get(x)} for x in members],
                    "president": seats[nominees[party]["president"]] if party in nominees
                    else None,
                    "vice": seats[nominees[party]["vice"]] if party in nominees else None})
    return out


def _own(view: dict, pile: str, seat: str | None, locale: str) -> list[dict]:
    """The seat's own hand or discards (``pile``), lowest card first."""
    cards = (view.get(pile) or {}).get(seat, []) if seat else []
    return [campaign(c, locale) for c in sorted(cards)]


def laid_first(view: dict) -> int:
    """How many candidates laid their cards face down first this round (they scored last
    round) while the others are choosing theirs: cards laid, none turned up, not deciding."""
    deciding = set(view.get("active") or [])
    return sum(1 for seat, play in (view.get("plays") or {}).items()
               if seat not in deciding and play["face_down"] and not play["shown"])


def summary(view: dict, seat: str | None, notes_seen: int = 0, locale: str = "en") -> dict:
    """A plain dict for the templates: nothing in it that the view does not show the seat."""
    seats = terms(locale)["seats"]
    spectator = gettext("Spectator", locale)
    mine = seat in view["seats"]
    dial = view["options"]["edition"] == "dial"
    sealed = view["deciding"] > 1
    return {
        "game": "mrpresident",
        "sep": game_text.JOIN[supported(locale)],  # how the language lists names
        "seat_name": seats.get(seat, spectator) if seat else spectator,
        "variant": game_text.initial(variant(view["options"], locale)),
        "status": status(view, locale),
        "election": view["election"], "stage": view["stage"],
        "round": view["round"], "rounds": view["rounds"], "over": view["result"] is not None,
        "popular": view["options"]["count"] == "popular",
        "places": places(view["options"]["players"], locale),
        "majority": _majority(view),
        "table": _table(view, locale),
        "table_ev": sum(card["ev"] for card in view["table"]),
        "this_round": _this_round(view, seat, locale),
        # how many of those deciding a sealed step have chosen, never who
        "sealed": {"committed": view["committed"] + laid_first(view),
                   "deciding": view["deciding"] + laid_first(view)} if sealed else None,
        "contests": _contests(view, seat, locale),
        "nominees": _nominees(view, locale),
        "past": [{"election": past["election"],
                  "tally": [{"name": side_name(side, locale), "votes": votes,
                             "line": f"{side_name(side, locale)} {votes}"}
                            for side, votes in past["tally"].items()]}
                 for past in view["past"]],
        "last_round": _last_round(view, locale),
        "candidates": _candidates(view, seat, locale),
        "hand": _own(view, "hands", seat, locale),
        "discarded": _own(view, "discards", seat, locale),
        "discards": view["discard_counts"].get(seat, 0) if mine else 0,
        "refills": view["refills"].get(seat, 0) if mine else 0,
        # chalkboard: the two-card play still to come (1) or made (0); dial: as often as wanted
        "two_cards": None if dial or not mine else view["doubles"][seat],
        "deck": view["deck_count"],
        "changes": game_text.texts(view.get("note_messages", view.get("notes", []))[notes_seen:],
                                   locale, GAME),
    }

"""Nothing a player writes for themselves or for one audience leaks, and a move taken back
never reaches the others (issue 27): the random games of test_hidden_information.py, played
through the API with, on the way, each seat's private notes (unique markers), lines in the
players' table talk and in the spectators' chat (opened), and some retractable moves taken
back at once. Every response to a seat and to a spectator (API, the game page) and every mail
sent to them is checked:

- no reader but the writer ever gets a seat's note markers (not even after the end);
- while the game runs, no spectator gets a players' chat marker, no player a spectators' one;
- after a retraction, the other seat's game, log and decision, and its page's log, are what
  they were before the move; no mail reached it in between; and no later response to the
  other seat or a spectator carries the move's text, unless the engine's own view of that
  reader holds the same text again (the same order made again later).

The markers are also looked for where they belong (the writer's notes, the chat's readers),
so a check that finds nothing is not a check that looked at nothing.
"""

from __future__ import annotations

import json
import random
import re
import uuid

import pytest

from tests.server.api.conftest import make_app
from tests.server.api.helpers import other
from tests.server.api.test_hidden_information import SEATS, Secrets
from tests.server.api.test_retract import _strip
from tests.web.pages_helpers import Reader

SPECTATOR = "spectator"
LOG_ITEMS = re.compile(r"<li>(.*?)</li>", re.S)


@pytest.fixture
def app(tmp_path, api_db_url):
    """The API tests' app, table-talk mails sent at once (CHAT_MAIL_DELAY_SECONDS 0), so the
    check reads them too; no live streams (the page's reader is a plain client)."""
    app = make_app(tmp_path, api_db_url, CHAT_MAIL_DELAY_SECONDS=0, LIVE_STREAMS_MAX=0)
    yield app
    app.extensions["whistlestop.db"].dispose()


class Talk:
    """What was written so far, by whom, and what was taken back."""

    def __init__(self):
        self.notes: dict[str, list[str]] = {seat: [] for seat in SEATS}
        self.chat: dict[str, list[str]] = {"players": [], "spectators": []}
        self.retracted: list[tuple[str, str]] = []  # (mover, action)
        self.found = {"own_notes": 0, "players_chat": 0, "spectators_chat": 0}

    def forbidden(self, reader: str | None, running: bool, view_text: str) -> list[str]:
        """The markers and texts ``reader`` (a seat, or None: a spectator) may not receive."""
        found = [m for seat, markers in self.notes.items() if seat != reader for m in markers]
        if running:
            found += self.chat["players"] if reader is None else self.chat["spectators"]
        found += [json.dumps(action) for mover, action in self.retracted
                  if mover != reader and json.dumps(action) not in view_text]
        return found

    def check(self, reader: str | None, running: bool, view_text: str, text: str,
              where: str) -> None:
        leaked = [m for m in self.forbidden(reader, running, view_text) if m in text]
        assert not leaked, (where, reader, leaked)
        if reader is not None and any(m in text for m in self.notes[reader]):
            self.found["own_notes"] += 1
        if running and reader is not None and any(m in text for m in self.chat["players"]):
            self.found["players_chat"] += 1
        if running and reader is None and any(m in text for m in self.chat["spectators"]):
            self.found["spectators_chat"] += 1


def _marker(kind: str) -> str:
    return f"{kind}-{uuid.uuid4().hex[:12]}"


def _page_log(page: str) -> list[str]:
    """The lines of the game page's log (what happened), in order."""
    part = page.split('id="log-h"', 1)[1].split("</section>", 1)[0]
    return LOG_ITEMS.findall(part)


def _seen_by(client, reader_page: Reader, gid: int, player) -> tuple:
    """What a seat is shown of the game: the game, its log, its decision, the page's log."""
    return (_strip(client.get(f"/games/{gid}", player).get_json()),
            client.get(f"/games/{gid}/log", player).get_json()["entries"],
            _strip(client.get(f"/games/{gid}/decision", player).get_json()),
            _page_log(reader_page.get(f"/games/{gid}").data.decode()))


@pytest.mark.slow  # whole games with every reader's page and mail: the full suite only
def test_notes_chat_and_taken_back_moves_never_reach_another_reader(client, store, app,
                                                                    mail_server):
    players = {"kennedy": client.signup("ann@example.org", "Ann"),
               "nixon": client.signup("bob@example.org", "Bob")}
    watcher = client.signup("eve@example.org", "Eve")
    r = client.post("/games", players["kennedy"], json={
        "game_type": "tmotp", "seats": {s: p.email for s, p in players.items()},
        "options": {"edition": "gmt"}, "public": True, "spectator_chat": True})
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game"]["id"]
    store.set_seed(gid, "hidden-talk")
    assert client.post(f"/games/{gid}/join", players["nixon"], json={}).status_code == 200
    assert client.post(f"/games/{gid}/start", players["kennedy"]).status_code == 200
    assert client.post(f"/games/{gid}/spectate", watcher).status_code == 200
    pages = {seat: Reader(app, mail_server, players[seat].email) for seat in SEATS}
    pages[SPECTATOR] = Reader(app, mail_server, watcher.email)
    for page in pages.values():
        page.sign_in()
    addresses = {"kennedy": players["kennedy"].email, "nixon": players["nixon"].email,
                 None: watcher.email}
    who = {"kennedy": players["kennedy"], "nixon": players["nixon"], None: watcher}
    talk, rng = Talk(), random.Random(1960)
    checked = {"responses": 0, "mails": 0}

    def write(turn: int) -> None:
        """Each seat changes its notes; a player and the spectator post a line."""
        for seat in SEATS:
            marker = _marker(f"NOTE-{seat}")
            talk.notes[seat].append(marker)
            r = client.tc.put(f"/api/v1/games/{gid}/notes", headers=players[seat].auth,
                              json={"text": f"turn {turn}: {marker}"})
            assert r.status_code == 200, r.get_json()
        for channel, author in (("players", players[SEATS[turn % 2]]), ("spectators", watcher)):
            marker = _marker(f"CHAT-{channel}")
            talk.chat[channel].append(marker)
            r = client.post(f"/games/{gid}/chat", author,
                            json={"channel": channel, "body": f"psst {marker}"})
            assert r.status_code == 201, r.get_json()

    def look() -> None:
        """Every reader's responses, page and mails so far, checked."""
        game = store.game(gid)
        running = game.status != "finished"
        state = store.state(gid)
        for reader in (*SEATS, None):
            player = who[reader]
            view_text = json.dumps(state.view(reader))
            secrets = Secrets(store, gid, reader)
            paths = [f"/games/{gid}", f"/games/{gid}/log", f"/games/{gid}/decision",
                     f"/games/{gid}/chat", f"/games/{gid}/chat?channel=players",
                     f"/games/{gid}/chat?channel=spectators", "/games"]
            if reader is not None:
                paths.append(f"/games/{gid}/notes")
            for path in paths:
                r = client.get(path, player)
                assert r.status_code < 500, (path, r.get_data(as_text=True)[:500])
                if not path.startswith(f"/games/{gid}/chat") and path != "/games":
                    secrets.check(r)
                talk.check(reader, running, view_text, r.get_data(as_text=True), path)
                checked["responses"] += 1
            page = pages[reader or SPECTATOR].get(f"/games/{gid}")
            assert page.status_code == 200
            talk.check(reader, running, view_text, page.data.decode(), "page")
            if running:  # the chat is everybody's after the end: its mails checked till then
                for mail in mail_server.to(addresses[reader]):
                    for part in mail.walk():
                        if part.get_content_maintype() == "text":
                            talk.check(reader, running, view_text, part.get_content(),
                                       f"mail {mail['Subject']}")
                    checked["mails"] += 1

    def take_back(seat: str, step: int, action: str) -> bool:
        """Order ``action``; if it is held, take it back at once and check the other seat
        saw nothing of it; True when it was taken back."""
        them = other(seat)
        before = _seen_by(client, pages[them], gid, players[them])
        mails = len(mail_server.to(players[them].email))
        r = client.post(f"/games/{gid}/orders", players[seat],
                        json={"step": step, "action": action})
        assert r.status_code == 200, r.get_json()
        if not r.get_json().get("retract_until"):
            return False
        r = client.post(f"/games/{gid}/retract", players[seat],
                        json={"step": r.get_json()["step"]})
        assert r.status_code == 200, r.get_json()
        talk.retracted.append((seat, action))
        assert _seen_by(client, pages[them], gid, players[them]) == before
        assert len(mail_server.to(players[them].email)) == mails
        return True

    finished = False
    shown = {"held": 0}
    for turn in range(4000):
        if turn % 15 == 0 and store.game(gid).status == "active":
            write(turn)
        progressed = False
        for seat in SEATS:
            player = players[seat]
            r = client.get(f"/games/{gid}/decision", player)
            decision = r.get_json()
            if not decision["active"]:
                continue
            legal = decision["legal_actions"]
            action = rng.choice(legal)
            step = decision["step"]
            progressed = True
            if store.state(gid).active() == [seat] and len(legal) > 1 and \
                    rng.random() < 0.3:
                if not take_back(seat, step, action):
                    continue  # not held: the order stands
                # Taken back: the seat orders something else at the step it is asked again.
                step = client.get(f"/games/{gid}/decision", player).get_json()["step"]
                action = rng.choice([a for a in legal if a != action])
            r = client.post(f"/games/{gid}/orders", player, json={"step": step,
                                                                  "action": action})
            assert r.status_code in (200, 202), r.get_json()
        if turn % 12 == 0 or not progressed:
            look()
        if not progressed and store.game(gid).status == "active":
            # A move held from the next seat (it sees the game before it): its page shows the
            # move, as a player who does not wait for the hold does; seen, it is final.
            now = store.game(gid).step
            for seat in SEATS:
                r = pages[seat].post_form(f"/games/{gid}", f"/games/{gid}/seen",
                                          {"step": now, "show": "1"})
                assert r.status_code == 303
            shown["held"] += 1
            continue
        if not progressed:
            finished = store.game(gid).status == "finished"
            break
    assert finished
    # The checks were not vacuous: moves were taken back, and the markers were found where
    # they belong (the writer's notes, each chat's own readers) in responses, pages and mails.
    assert len(talk.retracted) >= 3 and shown["held"] >= 3, (talk.retracted, shown)
    assert all(v > 0 for v in talk.found.values()), talk.found
    assert checked["responses"] > 300 and checked["mails"] > 20, checked

"""A game is a plug-in: Sealed Bid (tests/games/sealedbid), which lives only in the tests, is
played end to end through the server's shared layers — the API, a decision mail and a reply to
it, the mail's signed link, the game page and its decision form, the replay and the result page —
in English and in Japanese. The game needed only its own files (``FILES``): none under server/,
workers/, templates/ or engine/core/."""

from __future__ import annotations

import html
import re
from email.message import EmailMessage
from urllib.parse import urlsplit

from sqlmodel import Session

import engine.core as engine
from server.models import Game, User
from tests.games import sealedbid
from tests.web.pages_helpers import Reader

SECRET = "hook-secret-sealed"
SHARED = ("server/", "workers/", "templates/", "engine/core/")


def test_the_game_needed_no_file_of_the_shared_layers():
    print("\nSealed Bid's files:\n  " + "\n  ".join(sealedbid.FILES))
    assert sealedbid.FILES and all(f.startswith("tests/games/sealedbid/")
                                   for f in sealedbid.FILES)
    assert not [f for f in sealedbid.FILES if f.startswith(SHARED)]
    assert {"tests/games/sealedbid/rules.py", "tests/games/sealedbid/presenter.py",
            "tests/games/sealedbid/templates/web/board.html",
            "tests/games/sealedbid/templates/email/summary.txt"} <= set(sealedbid.FILES)


def body(mail, kind: str = "plain") -> str:
    return mail.get_body((kind,)).get_content()


def links(mail) -> dict[str, str]:
    """The mail's signed choice links, by the order each commits (the words a reply writes for
    it end the link's text)."""
    found = {}
    for url, text in re.findall(r'<a [^>]*href="([^"]+/decide/[^"]+)"[^>]*>(.*?)</a>',
                                html.unescape(body(mail, "html")), re.S):
        order = re.sub(r"<[^>]+>", " ", text).split(":")[-1].strip()
        found[order] = urlsplit(url).path
    return found


def reply(mail, sender: str, order: str) -> bytes:
    """A person's reply to ``mail``: the order above the quoted mail, to its Reply-To."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = mail["Reply-To"]
    msg["Subject"] = "Re: " + mail["Subject"]
    msg["In-Reply-To"] = msg["References"] = mail["Message-ID"]
    quoted = "\n".join("> " + line for line in body(mail).splitlines())
    msg.set_content(f"{order}\n\nOn Mon, 2 Nov 2026 at 10:00, Whistlestop wrote:\n{quoted}\n")
    return bytes(msg)


def test_sealed_bid_is_played_end_to_end_in_english_and_japanese(
        app, client, store, mail_server):
    app.config["INBOUND_MAIL_SECRET"] = SECRET
    ann = client.signup("ann@example.org", "Ann")
    bob = client.signup("bob@example.org", "Bob")
    with Session(store.engine) as s:              # Bob reads in Japanese
        s.get(User, bob.id).locale = "ja"
        s.commit()

    # The API: open (the game's own seats), join, start.
    opened = client.open_game(ann, {"east": ann.email, "west": bob.email}, game_type="sealedbid")
    gid = opened["game"]["id"]
    store.set_seed(gid, "sealed-bid-1")
    assert client.post(f"/games/{gid}/join", bob, json={}).status_code == 200
    assert client.post(f"/games/{gid}/start", ann).status_code == 200
    decision = client.get(f"/games/{gid}/decision", ann).get_json()
    assert decision["legal_actions"] == [f"bid {n}" for n in range(1, 6)]
    prize = store.state(gid).s["prize"]

    # The decision mails, each in its reader's language, with the game's own summary.
    (to_ann,) = [m for m in mail_server.wait_for_to(ann.email, 2) if "/decide/" in body(m)]
    (to_bob,) = [m for m in mail_server.wait_for_to(bob.email, 2) if "/decide/" in body(m)]
    started = [m for m in mail_server.to(bob.email) if "/decide/" not in body(m)]
    assert any("シールド・ビッドのゲームが始まりました" in body(m) for m in started)
    assert "Sealed Bid" in to_ann["Subject"] and "East" in to_ann["Subject"]
    assert f"Prize: {prize}" in body(to_ann) and "Your bid cards: 1, 2, 3, 4, 5" in body(to_ann)
    assert "The players choose at the same time" in body(to_ann)
    assert "シールド・ビッド" in to_bob["Subject"] and f"賞品: {prize}" in body(to_bob)
    assert "プレイヤーたちが同時に選びます" in body(to_bob)
    assert f"第1ラウンド：{prize}点の賞品が引かれました。" in body(to_bob)
    assert set(links(to_ann)) == {f"bid {n}" for n in range(1, 6)}

    # Ann replies to her mail: her bid is sealed, and the answer says so.
    raw = reply(to_ann, ann.email, "bid 5")
    hook = app.test_client().post("/inbound/mail", data=raw, content_type="message/rfc822",
                                  headers={"Authorization": f"Bearer {SECRET}"})
    assert hook.status_code == 202, hook.get_data(as_text=True)
    answer = mail_server.wait_for_to(ann.email, 3)[-1]
    assert "bid 5" in body(answer)
    assert store.pending_orders(gid) == {"east": ["bid 5"]}

    # Bob opens his mail's link for "bid 2" (a GET changes nothing), then commits it.
    path = links(to_bob)["bid 2"]
    page = app.test_client().get(path)
    assert page.status_code == 200 and store.pending_orders(gid) == {"east": ["bid 5"]}
    assert "シールド・ビッド" in page.get_data(as_text=True) or "賞品" in page.get_data(as_text=True)
    committed = app.test_client().post(path, data={"action": "bid 2"})
    assert committed.status_code == 200, committed.get_data(as_text=True)[:2000]
    state = store.state(gid)
    assert state.s["scores"] == {"east": 0, "west": 0} and state.active() == ["east"]
    assert state.s["bids"] == {"east": 5, "west": 2}

    # Ann decides on the game page: the form lists exactly the legal choices, in words.
    reader = Reader(app, mail_server, ann.email)
    reader.sign_in()
    game_page = html.unescape(reader.get(f"/games/{gid}").get_data(as_text=True))
    assert 'value="take"' in game_page and "Take the prize" in game_page
    assert 'value="reclaim"' in game_page and "Take back your bid card" in game_page
    assert "East wins the prize" in game_page and "Bids: East 5, West 2" in game_page
    step = int(re.search(r'name="step" value="(\d+)"', game_page).group(1))
    taken = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                             {"step": step, "action": "take"})
    assert taken.status_code == 303, taken.get_data(as_text=True)[:2000]
    assert store.state(gid).s["scores"]["east"] == prize

    # A refused order on the page says why in the game's words, and changes nothing.
    step = store.game(gid).step
    before = store.state(gid).to_dict()
    refused = reader.post_form(f"/games/{gid}", f"/games/{gid}/order",
                               {"step": step, "lines": "bid 5"})
    assert refused.status_code == 422
    assert "not allowed now" in html.unescape(refused.get_data(as_text=True))
    assert store.state(gid).to_dict() == before

    # The rest through the API, to the end.
    players = {"east": ann, "west": bob}
    while store.game(gid).status == "active":
        state = store.state(gid)
        for seat in state.active():
            legal = state.legal_actions(seat)
            r = client.post(f"/games/{gid}/orders", players[seat],
                            json={"step": store.game(gid).step, "action": legal[-1]})
            assert r.status_code in (200, 202), r.get_json()
    game = store.game(gid)
    outcome = engine.from_dict(game.state).outcome()
    assert game.result["winner"] == outcome.winner
    assert game.result["termination"] == outcome.termination.value
    assert store.rebuild(gid)

    # The replay and the result page, in English and Japanese; the game-over mail.
    result = html.unescape(reader.get(f"/games/{gid}/result").get_data(as_text=True))
    assert "East" in result and "points" in result
    total = len(client.get(f"/games/{gid}/log", ann).get_json()["entries"])
    replay = reader.get(f"/games/{gid}/replay?at={total // 2}")
    assert replay.status_code == 200 and "Round" in replay.get_data(as_text=True)
    ja_result = reader.get(f"/games/{gid}/result", headers={"Accept-Language": "ja"})
    assert ja_result.status_code == 200
    notation = reader.get("/help/notation/sealedbid")      # the mails' notation link
    assert notation.status_code == 200 and "Sealed Bid: action notation" in \
        notation.get_data(as_text=True)
    over = [m for m in mail_server.to(bob.email) if "/decide/" not in body(m)]
    assert any("東" in body(m) and "点" in body(m) for m in over)
    with Session(store.engine) as s:
        assert s.get(Game, gid).status == "finished"

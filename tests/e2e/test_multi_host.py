"""The shape past one machine (docs/scaling.md), tried on this one: two web processes, two
Celery workers (one of them running beat, the only beat) and the inbound mail process, each in a
working directory of its own with its own WHISTLESTOP_VAR_DIR (and there a secret key file of
its own, as `scripts/run` would write on each machine), sharing nothing but the environment:
one PostgreSQL, one Redis (broker, results, rate limits), the secret key, the SMTP relay and
the public address. No folder is shared.

At once, through both web processes:
- Mr. President by two scripted API clients whose every request goes to the next web process
  in turn; one order is sent to both with the same Idempotency-Key and applied once;
- Mr. President by mail: one player commits by the signed links of the mails the workers send
  (each link opened on one web process and committed on the other), the other replies through
  the mail process;
- 1960 between two bots, every bot move a task taken by whichever worker is free;
and a browser session made on one web process (the sign-in mail's link opened there, the form's
CSRF token from the other) holds on the other, and its sign-out on one ends it on both. A rate
limit counts the requests of both web processes. Then every mail reached the SMTP server once,
both workers ran tasks, both web processes count the same finished games, and the operator's
`whistlestop replay` and `verify` (run from a directory of their own) match every game.
"""

from __future__ import annotations

import re
import secrets
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import requests
from sqlmodel import select

import pytest

from server import db
from server.models import Game, InboundMail, Order
from tests.conftest import stop_process
from tests.e2e.api_players import DEADLINE_S, Player, proven_players, serve
from tests.services import free_port
from tests.smtp_catcher import SmtpCatcher
from tests.workers.conftest import Pipeline, Worker, assert_mailed_once
from tests.workers.test_game_by_mail import play_by_reply

pytestmark = pytest.mark.processes  # starts servers or workers of its own (scripts/test --fast skips it)

MR_PRESIDENT = {"edition": "chalkboard", "players": 2}
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SIGNED_IN = 'action="/sign-out"'
SIGN_IN_LINK = re.compile(r"https?://\S+/sign-in/\S+")


class Host:
    """One machine's share: a working directory with its own VAR_DIR, and the environment."""

    def __init__(self, root: Path, name: str, shared: dict):
        self.folder = root / name
        var = self.folder / "var"
        var.mkdir(parents=True)
        # What scripts/run writes on each machine: the shared variable must win over it.
        (var / "secret_key").write_text(secrets.token_urlsafe(48) + "\n")
        self.env = {**shared, "WHISTLESTOP_VAR_DIR": str(var)}


def test_two_web_and_two_worker_hosts_share_only_the_environment(
        tmp_path, whistlestop_env, postgres_url, redis_server, redis_url):
    db.migrate(postgres_url)
    catcher = SmtpCatcher(free_port()).start()  # the SMTP relay every worker sends through
    ports = {name: free_port() for name in ("web_a", "web_b", "inbound")}
    web = [f"http://127.0.0.1:{ports['web_a']}", f"http://127.0.0.1:{ports['web_b']}"]
    shared = {k: v for k, v in whistlestop_env.items() if not k.startswith("WHISTLESTOP_")}
    shared.update({f"WHISTLESTOP_{k}": v for k, v in {
        "DATABASE_URL": postgres_url, "BROKER_URL": redis_server.url(0),
        "RESULT_BACKEND": redis_server.url(1), "RATELIMIT_STORAGE_URI": redis_server.url(2),
        "SECRET_KEY": secrets.token_urlsafe(48), "BASE_URL": web[0],
        "MAIL_SMTP_PORT": str(catcher.port), "MAIL_CATCHER": "false",
        "SMTP_PORT": str(ports["inbound"]), "OUTBOX_RELAY_SECONDS": "1",
        # two sign-in mails an address an hour, counted over both web processes
        "RATE_SIGN_IN_PER_ADDRESS": "2/hour",
        "RATE_INBOUND_PER_SENDER": "100000/hour"}.items()})
    hosts = {name: Host(tmp_path, name, shared) for name in
             ("web-a", "web-b", "worker-a", "worker-b", "mail", "operator")}
    workers = [Worker(hosts["worker-a"].env, hosts["worker-a"].folder, "a", beat=True),
               Worker(hosts["worker-b"].env, hosts["worker-b"].folder, "b")]
    procs: list[subprocess.Popen] = []
    pipeline = Pipeline(postgres_url, shared, tmp_path, redis_server, catcher)
    try:
        for worker in workers:
            worker.start(wait=False)
        procs.append(_inbound(hosts["mail"], ports["inbound"]))
        procs += [serve(hosts[h].env, ports[p], hosts[h].folder, workers=1)
                  for h, p in (("web-a", "web_a"), ("web-b", "web_b"))]
        for worker in workers:
            worker.wait_for(r" ready\.", timeout=60)

        tag = uuid.uuid4().hex[:8]
        emails = {name: f"{name}-{tag}@example.org" for name in
                  ("api1", "api2", "link", "reply", "bots")}
        tokens = proven_players(postgres_url, emails)
        auth = {name: {"Authorization": f"Bearer {t}"} for name, t in tokens.items()}
        for name in ("link", "reply"):  # their moves go out at once (no hold to take one back)
            assert requests.patch(f"{web[1]}/api/v1/me", headers=auth[name], timeout=30,
                                  json={"retract_hold_seconds": 0}).status_code == 200

        bots = _create(web[0], auth["bots"], "tmotp", {"edition": "gmt"}, {},
                       {"kennedy": "random", "nixon": "random"})
        _start(web[1], auth["bots"], bots)
        by_api = _create(web[1], auth["api1"], "mrpresident", MR_PRESIDENT,
                         {"p1": emails["api1"], "p2": emails["api2"]})
        _join_and_start(web, auth["api1"], auth["api2"], by_api)
        by_mail = _create(web[0], auth["link"], "mrpresident", MR_PRESIDENT,
                          {"p1": emails["link"], "p2": emails["reply"]})
        _join_and_start(web, auth["link"], auth["reply"], by_mail)

        _same_order_on_both(web, auth["api1"], auth["api2"], gid=by_api, pipeline=pipeline)
        failed = threading.Event()
        players = [Player(web[i:] + web[:i], tokens[name], by_api, i, seat, failed)
                   for i, (name, seat) in enumerate((("api1", "p1"), ("api2", "p2")))]
        for player in players:
            player.start()

        links = LinkPlayer(web, "p1")
        answers = play_by_reply(pipeline, by_mail, {"p1": emails["link"],
                                                    "p2": emails["reply"]},
                                ports["inbound"], lambda _mail, choices: choices[0], links)
        assert links.used >= 5 and answers - links.used >= 5, (links.used, answers)
        _replies_were_handled(pipeline, answers - links.used)

        _session_across_hosts(web, emails["link"], by_mail, catcher)
        for player in players:
            player.join(DEADLINE_S + 60)
        assert [p.error for p in players] == [None, None], [p.history[-10:] for p in players]
        assert players[0].final["status"] == "finished"
        _wait_finished(pipeline, bots)

        # Every mail (decisions, answers, results, sign-in) went out once, by either worker.
        assert_mailed_once(pipeline)
        for worker in workers:
            assert len(re.findall(r"\] succeeded in ", worker.text())) >= 10, worker.text()[-3000:]
        counts = [_finished_games(base) for base in web]
        assert counts == [3, 3], counts
        for gid in (bots, by_api, by_mail):
            for command in (["replay", str(gid)], ["verify", str(gid)]):
                done = subprocess.run([sys.executable, "-m", "server.cli", *command],
                                      env=hosts["operator"].env, cwd=hosts["operator"].folder,
                                      capture_output=True, text=True, timeout=300)
                assert done.returncode == 0, done.stdout + done.stderr
    finally:
        for proc in procs:
            stop_process(proc)
        for worker in workers:
            worker.stop()
        pipeline.close()


def _inbound(host: Host, port: int) -> subprocess.Popen:
    """The Procfile's `mail` process (inbound SMTP; what an MTA relays the replies to)."""
    log = (host.folder / "mail.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "workers.inbound_smtp"], env=host.env,
                            cwd=host.folder, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            assert proc.poll() is None, (host.folder / "mail.log").read_text()
            time.sleep(0.1)
    stop_process(proc)
    raise AssertionError("the mail process did not listen")


def _create(base: str, auth: dict, game_type: str, options: dict, seats: dict,
            bots: dict | None = None) -> int:
    r = requests.post(f"{base}/api/v1/games", headers=auth, timeout=30, json={
        "game_type": game_type, "options": options, "seats": seats, "bots": bots or {}})
    assert r.status_code == 201, r.text
    return r.json()["game"]["id"]


def _start(base: str, auth: dict, gid: int) -> None:
    r = requests.post(f"{base}/api/v1/games/{gid}/start", headers=auth, timeout=30)
    assert r.status_code == 200, r.text


def _join_and_start(web: list[str], creator: dict, other: dict, gid: int) -> None:
    r = requests.post(f"{web[1]}/api/v1/games/{gid}/join", headers=other, json={}, timeout=30)
    assert r.status_code == 200, r.text
    _start(web[0], creator, gid)


def _same_order_on_both(web: list[str], *auths: dict, gid: int, pipeline: Pipeline) -> None:
    """An order sent to one web process and again, with the same Idempotency-Key, to the other
    is answered the same by both and applied once."""
    auth, decision = next((a, d) for a in auths for d in [requests.get(
        f"{web[0]}/api/v1/games/{gid}/decision", headers=a, timeout=30).json()] if d["active"])
    order = {"step": decision["step"], "actions": [decision["legal_actions"][0]]}
    headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
    answers = [requests.post(f"{base}/api/v1/games/{gid}/orders", headers=headers, json=order,
                             timeout=30) for base in web]
    assert answers[0].status_code in (200, 202), answers[0].text
    assert [(a.status_code, a.json()) for a in answers[1:]] == \
        [(answers[0].status_code, answers[0].json())]
    with pipeline.session() as s:
        rows = s.exec(select(Order).where(Order.game_id == gid,
                                          Order.step == decision["step"],
                                          Order.seat == decision["seat"])).all()
    assert len(rows) == 1, rows


class LinkPlayer:
    """Answers ``seat``'s decision mails by their signed links: the mail's link for the order
    chosen, opened (GET) on one web process and committed (POST) on the other, by turns."""

    def __init__(self, web: list[str], seat: str):
        self.web, self.seat, self.used = web, seat, 0

    def __call__(self, seat: str, mail, order: str) -> bool:
        if seat != self.seat:
            return False
        text = mail.get_body(("plain",)).get_content()
        link = re.search(rf"reply: {re.escape(order)}\s*\n\s*(\S+/decide/\S+)", text)
        assert link, text
        path = urlsplit(link.group(1)).path
        opened, committed = self.web[self.used % 2], self.web[(self.used + 1) % 2]
        page = requests.get(opened + path, timeout=30)
        assert page.status_code == 200 and 'id="confirm"' in page.text, page.text[-2000:]
        done = requests.post(committed + path, timeout=30)
        assert done.status_code == 200, done.text[-2000:]
        self.used += 1
        return True


def _replies_were_handled(pipeline: Pipeline, replies: int) -> None:
    """Every reply the mail process kept was handled by a worker and sealed or applied."""
    deadline = time.monotonic() + 30
    while True:
        with pipeline.session() as s:
            kept = s.exec(select(InboundMail)).all()
        if all(m.handled_at for m in kept) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(kept) == replies
    assert all(m.handled_at and m.outcome["status"] in ("applied", "sealed") for m in kept), \
        [m.outcome for m in kept]


def _session_across_hosts(web: list[str], email: str, gid: int, catcher) -> None:
    """Sign in with the form of one web process and the other's POST, by the mailed link opened
    on the first and confirmed on the second; the session reads the game on either, and a
    sign-out on one ends it (and the cookie kept from before) on both. The sign-in mails to an
    address are counted over both web processes."""
    browser = requests.Session()  # cookies go by host name: one site, as behind a balancer
    ask = browser.get(f"{web[0]}/sign-in", timeout=30)
    before = len(catcher.to(email))
    sent = browser.post(f"{web[1]}/sign-in", timeout=30, data={
        "csrf_token": CSRF.search(ask.text).group(1), "email": email,
        "next": f"/games/{gid}"})
    assert sent.status_code == 200, sent.text[-2000:]
    path = urlsplit(_sign_in_link(catcher, email, before)).path
    confirm = browser.get(web[0] + path, timeout=30)
    entered = browser.post(web[1] + path, allow_redirects=False, timeout=30, data={
        "csrf_token": CSRF.search(confirm.text).group(1), "time_zone": "UTC"})
    assert entered.status_code == 303, entered.text[-2000:]
    kept = requests.utils.dict_from_cookiejar(browser.cookies)
    pages = [browser.get(f"{base}/games/{gid}", timeout=30) for base in web]
    assert all(p.status_code == 200 and SIGNED_IN in p.text for p in pages)

    out = browser.post(f"{web[1]}/sign-out", allow_redirects=False, timeout=30, data={
        "csrf_token": CSRF.search(pages[0].text).group(1)})
    assert out.status_code == 303
    stale = requests.get(f"{web[0]}/games/{gid}", cookies=kept, timeout=30)
    assert stale.status_code == 404, stale.text[-2000:]  # a private game: to nobody signed in

    # The second sign-in mail of the hour, asked on the other web process, goes; the third,
    # on the first again, is over the limit of two, counted in Redis by both.
    answers = []
    for base in (web[0], web[1]):
        form = browser.get(f"{base}/sign-in", timeout=30)
        answers.append(browser.post(f"{web[0] if base == web[1] else web[1]}/sign-in", data={
            "csrf_token": CSRF.search(form.text).group(1), "email": email}, timeout=30))
    assert [a.status_code for a in answers] == [200, 429]


def _sign_in_link(catcher, email: str, seen: int) -> str:
    """The sign-in link of the first mail to ``email`` after its first ``seen`` that has one
    (the game's last mails may still be arriving)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for mail in catcher.to(email)[seen:]:
            found = SIGN_IN_LINK.search(mail.get_body(("plain",)).get_content())
            if found:
                return found.group(0)
        time.sleep(0.05)
    raise AssertionError(f"no sign-in mail reached {email}")


def _wait_finished(pipeline: Pipeline, gid: int) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        with pipeline.session() as s:
            if s.get(Game, gid).status == "finished":
                return
        time.sleep(0.2)
    raise AssertionError(f"game {gid} did not end")


def _finished_games(base: str) -> int:
    text = requests.get(f"{base}/metrics", timeout=30).text
    found = re.search(r'^whistlestop_games\{status="finished"\} (\S+)$', text, re.M)
    assert found, text
    return int(float(found.group(1)))

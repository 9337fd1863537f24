"""A script injected into a page (issue 45, L9), each test written as the attack: the pages'
Content-Security-Policy was only ``frame-ancestors``, so a script that got into a page (a
name, a chat line or a note a template forgot to escape, a ``<base>`` pointing the page's
relative addresses elsewhere, an ``<object>``) would run with the reader's session. The policy
is nonce-based now: only the scripts the server wrote into the page, each with this answer's
nonce, run; no plugin, no ``<base>``, forms only to this server. Checked in real Chromium: the
lobby, the game page, a decision link's page, the sign-in pages and the API docs run their
scripts with no violation of the policy."""
from __future__ import annotations

import re
from pathlib import Path

from sqlmodel import Session, select

from server.models import Game, Seat
from server.services import games as svc
from server.services import links
from tests.server.api.conftest import running_app
from tests.services import free_port
from tests.web.browser import LiveServer, browser  # noqa: F401  (fixture)
from tests.web.pages_helpers import Reader, new_game, sign_in_link

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
SCRIPT = re.compile(r"<script\b([^>]*)>", re.I)
NONCE = re.compile(r"'nonce-([A-Za-z0-9_-]+)'")


def directives(response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    found = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            found[words[0]] = words[1:]
    return found


def decision_link(app, gid: int) -> str:
    """A signed choice link of the game's current decision, as its mail carries."""
    with app.app_context(), Session(app.extensions["whistlestop.db"]) as s:
        game = s.get(Game, gid)
        state = svc.whole_state(s, game)
        seat = state.active()[0]
        user = s.exec(select(Seat.user_id).where(Seat.game_id == gid, Seat.seat == seat)).one()
        token = links.make(app.config["SECRET_KEY"], gid, seat, game.step,
                           str(state.legal_actions(seat)[0]), user,
                           len(state.view(seat)["notes"]))
    return f"/games/{gid}/decide/{token}"


def pages(app, smtp_catcher) -> tuple[Reader, list[str]]:
    jack = Reader(app, smtp_catcher, "jack@example.org")
    dick = Reader(app, smtp_catcher, "dick@example.org")
    jack.sign_in()
    dick.sign_in()
    gid = new_game(jack, dick)
    return jack, ["/", f"/games/{gid}", decision_link(app, gid), "/sign-in", "/me/tokens",
                  "/api/v1/docs", "/help/notation/tmotp"]


def test_every_page_runs_only_the_scripts_the_server_wrote_into_it(app, smtp_catcher):
    jack, paths = pages(app, smtp_catcher)
    nonces = set()
    for path in paths:
        r = jack.get(path)
        assert r.status_code == 200, (path, r.status_code)
        policy = directives(r)
        assert policy["default-src"] == ["'self'"]
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'self'"] and policy["form-action"] == ["'self'"]
        script = policy["script-src"]
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
        assert "'self'" not in script and "*" not in " ".join(script)
        nonce = NONCE.search(" ".join(script))
        html = r.get_data(as_text=True)
        tags = SCRIPT.findall(html)
        if nonce is None:
            assert script == ["'none'"] and not tags, path
            continue
        nonces.add(nonce.group(1))
        assert len(nonce.group(1)) >= 22  # 128 bits or more
        assert tags, path
        for attributes in tags:
            assert f'nonce="{nonce.group(1)}"' in attributes, (path, attributes)
    # A nonce is this answer's only: a page read once does not tell the next one's.
    again = {NONCE.search(" ".join(directives(jack.get(p))["script-src"])).group(1)
             for p in (paths[1], paths[1], "/api/v1/docs")}
    assert len(again) == 3 and not again & nonces


def test_the_answers_without_a_page_allow_no_script(app, client, players):
    for r in (client.get("/me", players["kennedy"]), app.test_client().get("/healthz")):
        policy = directives(r)
        assert policy["script-src"] == ["'none'"] and policy["object-src"] == ["'none'"]


def test_no_template_has_an_inline_event_handler():
    """A nonce CSP runs no onclick="..." attribute (nor a javascript: link): the pages' scripts
    are all in nonced <script> elements."""
    handler = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        if "email" in path.relative_to(TEMPLATES).parts[:1]:
            continue  # mails run no script at all (and have no CSP)
        text = path.read_text()
        found += [f"{path.name}: {m.group(0)[:60]}" for m in handler.finditer(text)]
        found += [f"{path.name}: javascript:" for _ in re.finditer("javascript:", text, re.I)]
        for attributes in SCRIPT.findall(text):
            if "nonce=" not in attributes:
                found.append(f"{path.name}: <script{attributes}> without the nonce")
    assert found == []


VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push([e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(" "));
});
"""


def test_the_pages_run_their_scripts_in_chromium_with_no_violation(
        tmp_path, api_db_url, smtp_catcher, browser):  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_app(tmp_path, api_db_url) as app:
        app.config["BASE_URL"] = base
        jack, paths = pages(app, smtp_catcher)
        with LiveServer(app, port):
            context = browser.new_context()
            context.add_init_script(VIOLATIONS)
            errors = []
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))

            def violations() -> list[str]:
                return page.evaluate("window.__csp")

            # The sign-in pages: the confirmation page's script fills in the browser's zone.
            page.goto(f"{base}/sign-in")
            page.get_by_label("Your email address").fill(jack.email)
            before = len(smtp_catcher.to(jack.email))
            page.get_by_role("button", name="Send me a sign-in link").click()
            page.wait_for_selector("text=Check your mail")
            assert violations() == []
            page.goto(sign_in_link(smtp_catcher.wait_for_to(jack.email, before + 1)[-1]))
            page.wait_for_function(
                "document.getElementById('browser-time-zone').value !== ''")
            assert violations() == []
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_selector(f"text=Signed in as {jack.email}")
            assert violations() == []

            for path in paths:
                page.goto(base + path)
                page.wait_for_load_state("load")
                if path == "/api/v1/docs":  # Swagger UI drew the operations: its scripts ran
                    page.wait_for_selector(".opblock", timeout=60_000)
                assert violations() == [], path
                if path.startswith("/games/") and "decide" not in path:
                    # A script that got into the game page (what an escaping bug would let a
                    # name or a chat line do) is not run: it has no nonce.
                    page.evaluate("""() => { var s = document.createElement("script");
                        s.textContent = "window.__injected = 1"; document.body.appendChild(s); }""")
                    assert page.evaluate("window.__injected") is None
                    assert [v.split()[0] for v in violations()] == ["script-src-elem"]
                    page.evaluate("window.__csp = []")
            # The lobby's form: the page that answers it (the game and its seats) runs its script
            page.goto(base + "/")
            form = page.get_by_role("form", name="New game of 1960: The Making of the President")
            form.get_by_label("Opponent's email").fill("lyndon@example.org")
            form.get_by_role("button", name="Create the game").click()
            page.wait_for_load_state("load")
            assert "/games/" in page.url
            assert violations() == []
            # Only the injected script's refusal was told on the console.
            assert len([e for e in errors if "Content Security Policy" in e]) == 1, errors
            context.close()

"""A reader of the pages through Flask's test client: signs in by the mail's link (the SMTP
catcher's copy), reads the CSRF token of the page a form is on, and posts the form."""

from __future__ import annotations

import html
import re

from server import db

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SIGN_IN_LINK = re.compile(r"(https?://\S+/sign-in/\S+)")
SHOW_MOVE = re.compile(r'id="show-move">.*?name="step" value="(\d+)"', re.S)


def csrf(page: bytes | str) -> str:
    text = page.decode() if isinstance(page, bytes) else page
    found = CSRF.search(text)
    assert found, "no form with a CSRF token on this page"
    return html.unescape(found.group(1))


def path_of(url: str) -> str:
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


class Reader:
    """One browser: a test client with its own cookies."""

    def __init__(self, app, catcher, email: str):
        self.client = app.test_client()
        self.catcher, self.email = catcher, email

    def get(self, path: str, **kw):
        return self.client.get(path, **kw)

    def game_page(self, gid: int) -> str:
        """The game page as its player sees it once in view: a move held from them (shown to
        nobody but its mover until it is final) is shown, as the page's script does."""
        page = self.client.get(f"/games/{gid}").data.decode()
        held = SHOW_MOVE.search(page)
        if held:
            answer = self.client.post(f"/games/{gid}/seen", data={
                "csrf_token": csrf(page), "step": held.group(1), "show": "1"})
            assert answer.status_code == 303
            page = self.client.get(f"/games/{gid}").data.decode()
        return page

    def post_form(self, page_path: str, action: str, data: dict, **kw):
        """Open ``page_path``, then post ``data`` to ``action`` with that page's CSRF token."""
        token = csrf(self.client.get(page_path).data)
        return self.client.post(action, data={"csrf_token": token, **data}, **kw)

    def sign_in(self, next_path: str = "/") -> None:
        before = len(self.catcher.to(self.email))
        answer = self.post_form(f"/sign-in?next={next_path}", "/sign-in",
                                {"email": self.email, "next": next_path})
        assert answer.status_code == 200, answer.data[:500]
        mails = self.catcher.wait_for_to(self.email, before + 1)
        link = sign_in_link(mails[-1])
        confirm = self.client.get(path_of(link))
        assert confirm.status_code == 200
        entered = self.client.post(path_of(link), data={"csrf_token": csrf(confirm.data)})
        assert entered.status_code == 303, entered.data[:500]


def sign_in_link(mail) -> str:
    text = mail.get_body(("plain",)).get_content()
    found = SIGN_IN_LINK.search(text)
    assert found, text
    return found.group(1)


EVENTS = re.compile(r'<section id="events".*?</section>', re.S)


def hidden_part(page: str) -> str:
    """The page without what names cards publicly: the log (cards played) and the events in
    force (an event stays in force after its card was reshuffled and drawn again). What is left
    must never name a card the other seat holds."""
    return EVENTS.sub("", page.split('id="log-h"', 1)[0])


KIND = re.compile(r'class="decision-form" data-kind="(\w+)"')
STEP = re.compile(r'name="step" value="(\d+)"')
RADIO = re.compile(r'type="radio" name="action" value="([^"]*)"')
NUMBER = re.compile(r'type="number" name="(n\.\w+)" min="0"(?: max="(\d+)")?')
CARD = re.compile(r'type="checkbox" name="card" value="(\d+)"')
SIZES = re.compile(r'data-sizes="([\d ]+)"')


def pick_answer(page: str, rng) -> dict | None:
    """A random answer to the page's decision form, as the form's fields: a choice, one state
    or issue of a planner (1 CP or cube; sometimes "then stop"), or the fewest cards a card
    form takes. None when the page asks nothing (or only offers to replace a sealed choice)."""
    kind = KIND.search(page)
    if kind is None or 'class="replace"' in page:
        return None
    step = int(STEP.search(page).group(1))
    radios = [html.unescape(v) for v in RADIO.findall(page)]
    numbers = [(name, int(top) if top else None) for name, top in NUMBER.findall(page)]
    cards = CARD.findall(page)
    answer: dict = {"step": step}
    stop = 'name="stop"' in page
    if numbers and (not stop or rng.random() < 0.7):
        name, top = rng.choice([n for n in numbers if n[1] != 0])
        answer[name] = "1"
        if stop and rng.random() < 0.3:
            answer["stop"] = "1"
    elif stop and not radios:
        answer["stop"] = "1"
    elif cards and (not radios or rng.random() < 0.7):
        size = int(SIZES.search(page).group(1).split()[0])
        answer["card"] = rng.sample(cards, size)
    elif radios:
        answer["action"] = rng.choice(radios)
    else:
        return None
    return answer


def new_game(jack, dick, **form) -> int:
    answer = jack.post_form("/", "/games/new", {"game_type": "tmotp",
                                                "opponent": dick.email, "seat": "kennedy",
                                                "edition": "gmt", **form})
    assert answer.status_code == 303, answer.data[:800]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    joined = dick.post_form(f"/games/{gid}", f"/games/{gid}/join", {})
    assert joined.status_code == 303, joined.data[:800]
    started = jack.post_form(f"/games/{gid}", f"/games/{gid}/start", {})
    assert started.status_code == 303, started.data[:800]
    return gid


def db_engine(app):
    with app.app_context():
        return db.get_engine()


def new_mrpresident_game(creator, others, start: bool = True, **form) -> int:
    """A game of Mr. President created from the lobby's form by ``creator`` (Candidate 1), the
    ``others`` invited to Candidates 2, 3, ... by address; they join and it starts."""
    seats = {f"email_p{i}": reader.email for i, reader in enumerate([creator, *others], 1)}
    if not start:      # left open once the seats are taken: its creator starts it
        form.setdefault("start_by_hand", "on")
    answer = creator.post_form("/", "/games/new", {
        "game_type": "mrpresident", "players": str(len(others) + 1), "edition": "dial",
        **seats, **form})
    assert answer.status_code == 303, answer.data[:800]
    gid = int(answer.headers["Location"].rsplit("/", 1)[1])
    for reader in others:
        joined = reader.post_form(f"/games/{gid}", f"/games/{gid}/join", {})
        assert joined.status_code == 303, joined.data[:800]
    if start:
        started = creator.post_form(f"/games/{gid}", f"/games/{gid}/start", {})
        assert started.status_code == 303, started.data[:800]
    return gid

"""The page a signed link opens (server/web/decide.py) keeps what was typed when the plan sent
from its decision form is refused, as the game page does (server/web/decision_form.py ``keep``
and ``explain``): every field as it was filled in, the refusal in the page's words beside the
field it is about (aria-invalid, described by the message), the mail's choice still offered,
and nothing changed: the game's step and log are the same and the link is not used.

The game is played by random orders through the order service up to a Campaigning decision
(tests/web/test_decision_form.py ``_drive_to``); the link is made as a mail makes it."""

from __future__ import annotations

import html
import re

from sqlalchemy import func
from sqlmodel import Session, select

from engine.games.tmotp.data import STATES
from server.games.tmotp import forms
from server.models import UsedLink
from server.services import links
from tests.web.pages_helpers import db_engine
from tests.web.test_decision_form import _drive_to
from tests.web.test_forms_cards_and_refusals import (LINE_WORDING, _new_game, _posted_box,
                                                     _state, _text, _user_id)

WHY = re.compile(r'<p class="why" id="why">([^<]*)</p>')


def _link(app, gid: int, seat: str, step: int, reader) -> tuple[str, str]:
    """(the decide page's path of a signed link for the seat's decision now, its action)."""
    _step, state = _state(app, gid)
    legal = [str(a) for a in state.legal_actions(seat)]
    action = "done" if "done" in legal else legal[0]
    token = links.make(app.config["SECRET_KEY"], gid, seat, step, action, _user_id(app, reader),
                       len(state.view(seat)["notes"]))
    return f"/games/{gid}/decide/{token}", action


def _unchanged(app, gid: int, step: int, log: int) -> None:
    step_now, state_now = _state(app, gid)
    assert (step_now, len(state_now.s["log"])) == (step, log)
    with Session(db_engine(app)) as s:
        assert s.exec(select(func.count()).select_from(UsedLink)).one() == 0


def test_a_refused_plan_through_a_signed_link_keeps_the_input_and_names_the_field(
        app, jack, dick):
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "decide/plan")
    seat, step = _drive_to(app, gid, "campaigning", seed=5)
    reader = jack if seat == "kennedy" else dick
    _step, state = _state(app, gid)
    log = len(state.s["log"])
    url, action = _link(app, gid, seat, step, reader)
    client = app.test_client()  # the link vouches for its seat: no session needed
    page = client.get(url).data.decode()
    assert 'class="decision-form"' in page and 'name="n.' in page

    # Over the card's CP: three states, each with all the CP it could take alone. The engine
    # refuses the plan; the page says so at the state whose line it refused.
    most = forms._most([str(a) for a in state.legal_actions(seat)], "campaign")
    over = {f"n.{st}": str(n) for st, n in list(most.items())[:3]}
    assert len(over) >= 2
    refused = client.post(url, data={"step": step, **over, "stop": "1", "lines": "done"})
    page = refused.data.decode()
    assert refused.status_code == 422, page[-2000:]
    for name, value in over.items():
        assert f'value="{value}"' in _posted_box(page, name), name
    assert re.search(r'name="stop" value="1" checked', page)
    assert re.search(r'<textarea id="lines" name="lines"[^>]*>done</textarea>', page)
    marked = re.findall(r'<input type="number" name="(n\.\w+)"[^>]*aria-invalid="true" '
                        r'aria-describedby="why"', page)
    assert len(marked) == 1 and marked[0] in over, marked
    why = WHY.search(page)
    assert why, page[-3000:]
    message = html.unescape(why.group(1))
    assert message.startswith(STATES[marked[0][2:]]["name"] + ", ") and "CP" in message
    assert page.count('id="why"') == 1 and not LINE_WORDING.search(page)
    assert "Nothing was changed." in _text(page)
    # The mail's choice is still offered, and nothing changed (the link is not used).
    assert "Commit this choice" in _text(page) and f'action="{url}"' in page
    _unchanged(app, gid, step, log)

    # A box outside what the form offers: refused before anything is sent, the box as typed.
    st, n = next(iter(most.items()))
    bad = client.post(url, data={"step": step, f"n.{st}": str(n + 5)})
    page = bad.data.decode()
    assert bad.status_code == 422
    assert f'value="{n + 5}"' in _posted_box(page, f"n.{st}")
    assert 'aria-invalid="true"' in _posted_box(page, f"n.{st}")
    assert f"{STATES[st]['name']}: write a whole number from 0 to {n}" in _text(page)
    _unchanged(app, gid, step, log)

    # A state typed wrongly in the notation: the written line kept and marked, the plan kept.
    here = state.s["tokens"][seat]
    wrong = client.post(url, data={"step": step, f"n.{here}": "1", "lines": "campaign XX 9"})
    page = wrong.data.decode()
    assert wrong.status_code == 422
    assert 'value="1"' in _posted_box(page, f"n.{here}")
    assert re.search(r'<textarea id="lines" name="lines"[^>]*aria-invalid="true"[^>]*>'
                     r'campaign XX 9</textarea>', page)
    assert "Your written order, at “campaign XX 9”: There is no state" in _text(page)
    _unchanged(app, gid, step, log)

    # A fresh look at the link: a fresh form (nothing kept across requests).
    page = client.get(url).data.decode()
    assert not re.search(r'<(input|textarea)[^>]*aria-invalid', page)
    assert "campaign XX 9" not in page and 'id="why"' not in page
    assert action and "Commit this choice" in _text(page)


def test_the_link_page_and_its_refusals_speak_the_mails_language(app, jack, dick):
    """A Japanese player's link, opened in a browser that asks for English and nobody signed
    in: the page and the refusal on it are Japanese, as the mail was (server/web/words.py
    ``speak``); before, the refusal followed the browser and the page the account."""
    from server.models import User

    with Session(db_engine(app)) as s:
        for user in s.exec(select(User)).all():
            user.locale = "ja"
            s.add(user)
        s.commit()
    gid = _new_game(app, "tmotp", {"edition": "gmt"}, [jack, dick], "decide/ja")
    seat, step = _drive_to(app, gid, "campaigning", seed=5)
    reader = jack if seat == "kennedy" else dick
    url, _action = _link(app, gid, seat, step, reader)
    client = app.test_client()
    english = {"Accept-Language": "en"}
    page = client.get(url, headers=english).data.decode()
    assert 'lang="ja"' in page
    st, n = next(iter(forms._most([str(a) for a in _state(app, gid)[1].legal_actions(seat)],
                                  "campaign").items()))
    bad = client.post(url, data={"step": step, f"n.{st}": str(n + 5)}, headers=english)
    text = _text(bad.data.decode())
    assert bad.status_code == 422
    assert "write a whole number" not in text  # the English refusal
    assert re.search(r"[\u3040-\u30ff]", WHY.search(bad.data.decode()).group(1))

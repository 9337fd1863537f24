"""What a game's presentation package answers (``server/games/<game>/``): the shared layers ask
these and nothing else about a game. A game's presenter subclasses ``Presenter`` and is
registered with ``server.games.register``; every method without a body here must be given.

Sections: words (shared by mails and pages), mail, web. Every ``loc`` is a locale the server
supports ("en", "ja", "es"); every ``view`` is a seat's (or a spectator's) view, never a state.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable

from babel.support import NullTranslations

from server.i18n import terms as term_tables
from server.i18n import supported, translations

ROOT = Path(__file__).resolve().parents[2]


class Presenter:
    game: str = ""  # the engine's game id

    @property
    def templates(self) -> Path:
        """The folder of the game's template parts: ``web/`` and ``email/`` under it."""
        return ROOT / "templates" / "games" / self.game

    @property
    def rules_folder(self) -> Path:
        """The folder of the game's engine part holding its NOTATION.md (how orders are written)
        and RULINGS.md (the rulings on its ambiguous rules), which the help pages show."""
        return ROOT / "engine" / "games" / self.game

    def part(self, name: str) -> str:
        """The name a shared template includes the game's part ``name`` by
        (server/games/templates.py finds it in the layer's folder of ``templates``)."""
        return f"games/{self.game}/{name}"

    # ---- Words ---------------------------------------------------------------------------
    def title(self, loc: str) -> str:
        """The game's name, short, as a list of games names it."""
        raise NotImplementedError

    def full_title(self, loc: str) -> str:
        """The game's name as its box prints it."""
        return self.title(loc)

    def english_terms(self) -> dict[str, dict]:
        """The game's own words in English by section ("seats", "cards", ...; "seats" at least,
        "words": its glossary), from its engine's data."""
        raise NotImplementedError

    def terms(self, loc: str | None) -> dict[str, dict]:
        """``english_terms`` in ``loc``'s words, as the translated rulebook prints them."""
        return _terms(self, supported(loc))

    def seat_names(self, loc: str | None) -> dict[str, str]:
        """Seat id -> the seat's name in ``loc``."""
        return dict(self.terms(loc)["seats"])

    def rating_role_name(self, role: str, loc: str) -> str:
        """The name of a rating pool (the engine's ``GameInfo.rating_role``) in ``loc``: by
        default a seat's name, as a pool per seat is."""
        return self.seat_names(loc).get(role, role)

    def text_names(self, loc: str) -> dict[str, Callable]:
        """How the game's texts (engine messages, server/i18n/game_text.py) name their
        arguments, by kind ("seat", "card", "state", ...): kind -> a function of the argument."""
        seats = self.terms(loc)["seats"]
        return {"seat": lambda seat: seats.get(seat, seat)}

    def catalogue(self, loc: str) -> NullTranslations:
        """The translations of the game's texts (the notes, prompts and reasons of its engine):
        the ``game`` catalogue of server/translations."""
        return translations(supported(loc), "game")

    # ---- Mail ----------------------------------------------------------------------------
    # The shared mail templates (templates/email) include the game's parts by the names
    # ``mail_parts`` gives, and show what the methods below return.

    def mail_parts(self) -> dict[str, str]:
        """The names of the game's mail parts (templates/games/<game>/email/<part>.txt|.html|
        .css), without their suffix: "summary" (the game as a seat's view shows it, from the
        context's ``summary``), "texts" (macros of the game's own sentences in the shared mails:
        ``simultaneous()``, ``sealed(order)``, ``revealed(name, step)``, ``safe_default()``,
        ``started(name, seat, opponents, variant)``, ``invited(host, seat, variant)``, and
        ``pairs(pairs)`` if ``mail_choices`` gives pairs) and "style" (the CSS of its parts'
        classes)."""
        return {name: self.part(name) for name in ("summary", "texts", "style")}

    def summary(self, view: dict, seat: str | None, notes_seen: int, loc: str) -> dict:
        """The game as ``seat``'s view shows it (``seat`` None: a spectator's), for the summary
        part: plain data in ``loc``'s words, nothing the view does not show, and "changes" (the
        view's notes after the first ``notes_seen``, which the shared ``_changes.*`` list)."""
        raise NotImplementedError

    def variant(self, options: dict | None, loc: str) -> str | None:
        """The variant a game with ``options`` (as stored; those not given take the game's
        defaults) is played in, in words, for the invitation and the start; None: the game has
        no variants to name."""
        return None

    def mail_choices(self, view: dict, loc: str) -> dict:
        """Every legal order of ``view`` (its ``legal_actions``) as a decision mail lists it,
        each named in ``loc``'s words, never cut at a count: {"groups": [{"heading": a card's
        or a kind's name or None, "facts": a line of the card's facts or None, "text": the card's
        own text (its event) or None, "note": a line or None, "options": [{"action", "label"}] (each gets its signed link), "ranges":
        [{"label", "verb", "object", "most", "example"}] (the orders ``verb object n`` for n
        from 1 to ``most``, written in a reply or planned on the game page's form), "pick":
        None or {"verb", "cards": [{"id", "label"}], "sizes", "example", "label"} (the orders
        naming several of ``cards`` at once, as many as one of ``sizes``)}], "suffixes": [{"suffix",
        "label"}] (words any listed order may end with, such as 1960's ``preempt``), "pairs":
        None or what the texts' ``pairs(pairs)`` explains by the notation}. By default each order
        as written, in one group: a game names its orders in words by giving its own."""
        return {"groups": [{"heading": None, "facts": None, "note": None, "ranges": [],
                            "pick": None, "text": None,
                            "options": [{"action": a, "label": a}
                                        for a in view["legal_actions"]]}],
                "suffixes": [], "pairs": None}

    def order_words(self, action: str, loc: str) -> str:
        """An order of the game (one line of its notation) in ``loc``'s words, as the seat's
        choice, whenever it was or will be given: a deadline's default, a standing order's
        answer (issue 47: words, not notation). By default the order as written."""
        return action

    def hand_names(self, view: dict, loc: str) -> list[str]:
        """The seat's own hand in ``view`` as a mail names it, a card each, in ``loc``'s words
        (the digest shows it beside the choices); by default none (a game without hands)."""
        return []

    def rule_texts(self) -> dict[str, str]:
        """The rules of the game's standing orders (AutoOrder.rule of an order one gave,
        "kind:value") -> what a mail says the order followed, untranslated (``N_``); a rule not
        here is shown as written."""
        return {}

    def standing_examples(self) -> list[str]:
        """The standing-order lines shown to a reply whose standing order the game refuses
        (server/mail/replies.py). By default the one every game takes."""
        return ["standing default ask"]

    def standing_orders(self, loc: str) -> list[dict]:
        """The policies the game declares (its engine's GameInfo.standing_policies) as the game
        page and the forms that start or join a game offer them, in ``loc``'s words: [{"kind",
        "label" (the decision it answers), "help" (a line or None), "suggested" (the value
        preselected when a game is created or joined), "options": [{"value", "label", "help"}]}]
        with every declared value, "ask" (the seat is asked) among them. By default the kinds
        and values as written, "ask" preselected."""
        import engine.core as engine_core
        from server.i18n import gettext
        return [{"kind": kind, "label": kind.replace("_", " "), "help": None, "suggested": "ask",
                 "options": [{"value": v, "help": None,
                             "label": gettext("Ask me each time", loc) if v == "ask" else v}
                            for v in values]}
                for kind, values in engine_core.info(self.game).standing_policies.items()]

    # ---- Web -----------------------------------------------------------------------------
    # The shared pages (server/web, templates/web) include the game's parts by these names
    # (``part(name)``, templates/games/<game>/web/<name>) and show what the methods below
    # return: ``status.html`` (the game page's line under its heading), ``board.html`` (the
    # board: the game page's, the replay's), ``your_hand.html`` (the game page's section of the
    # reader's own hand), ``hand.html`` (a hand of cards, ``cards``: the replay's), ``form.html``
    # (the decision form's kinds other than the shared ``choices``; it may use the macros
    # ``radio``, ``groups`` and ``number`` of templates/web/_decision_form.html),
    # ``new_game.html`` (the lobby's form for a new game), ``result.html`` (a finished game's
    # printable result, extending templates/web/_result_base.html), if it has any ``style.css``
    # (the CSS of its seats' classes, in every page of one of its games) and, for a game with a
    # page of how this server plays it (/help/<game>), ``help.html`` (extending _page.html).

    def page(self, view: dict, seat: str | None, loc: str) -> dict:
        """What the game page's parts (status.html, board.html, your_hand.html) show of
        ``seat``'s ``view`` (None: a spectator's), beside the page's shared context."""
        raise NotImplementedError

    def focus(self, form: dict | None, view: dict) -> list[str]:
        """The parts of the board the decision ``form`` (of ``form()``; None while the seat is
        not asked) is about: template names of the game's web folder, shown right under the
        decision's prompt instead of with the rest of the board (board.html gets ``focus`` to
        leave them out), so that a phone shows the decision and what it needs together
        (issue 47). A form that draws its board part itself needs none. Default: none."""
        return []

    def public_board(self, view: dict, loc: str) -> dict:
        """What board.html shows of the spectators' ``view`` (the replay's positions)."""
        raise NotImplementedError

    def hand(self, cards: list, loc: str) -> list[dict]:
        """A hand (the card ids a view holds) as hand.html lists it (its ``cards``)."""
        raise NotImplementedError

    def form(self, decision: dict, view: dict, loc: str) -> dict:
        """The decision form of ``decision`` (server/services/games.decision_for) from the
        seat's ``view``, for exactly its legal actions: a dict with its ``kind`` and
        ``step_name``; the shared kind "choices" is ``groups`` of {"legend", "options":
        [{"value": an action, "label": it in words}]}; any other kind is form.html's to lay
        out. It may name a ``notation_url`` other than the game's notation page."""
        raise NotImplementedError

    def compose(self, data, form: dict):
        """The order (server/web/decision_form.Order) the posted ``data`` (a MultiDict) stands
        for on a ``form`` of ``form()``, read from the game's own fields; ``Order([])`` leaves
        it to the shared ones (the chosen ``action``; the notation's ``lines`` are always
        added). Raises server.web.decision_form.Refused saying why it stands for no order."""
        raise NotImplementedError

    def new_game(self, loc: str) -> dict:
        """What new_game.html shows beside the form as posted (``form``, to fill it in again
        after a refusal) and the bots' levels (``levels``): by default the seats' names
        (``names``) and the standing orders to offer (``standing``: ``standing_orders``)."""
        return {"names": self.seat_names(loc), "standing": self.standing_orders(loc)}

    def read_new_game(self, form, user) -> tuple[dict, dict, dict]:
        """(options, seat -> email or None, seat -> bot level) of the new game new_game.html
        posted (``form``) for ``user``; ValueError saying in the reader's words what is wrong
        with it. The options are the engine's to judge."""
        raise NotImplementedError

    def turn_of(self, state):
        """The turn an engine state is in (a value that changes when a new turn begins), read
        from the state itself: the replay links to where each turn begins."""
        raise NotImplementedError

    def turn_link(self, turn, back: bool) -> dict:
        """The replay's link to the start of ``turn`` (a ``turn_of`` value), back or ahead:
        {"label": its text, "aria": what it does, in words}."""
        raise NotImplementedError

    def action_words(self, seat: str, action: str, loc: str) -> str | None:
        """A log entry's action (``seat``'s, or chance's) as the replay says it in ``loc``'s
        words, after who played it ("lays Train Tours, 70 points"); None: the replay shows
        the notation only. A replay is of a finished game: nothing in it is hidden."""
        return None

    def log_heading(self, message: list, loc: str) -> str | None:
        """The heading of the game page's log that a note (its [template, args]: a view's
        ``note_messages`` entry) begins, in ``loc``'s words: a new turn or round ("Turn 3");
        None: the note goes on under the heading before it. By default none."""
        return None

    def draw_note(self, message: list) -> bool:
        """Whether a note (its [template, args]) says what a chance step drew (a die, a card
        turned up, a cube from a bag): the game page's "Done" banner repeats those after the
        reader's order. By default none."""
        return False

    def committed(self, view: dict, committed: int, deciding: int) -> tuple[int, int]:
        """(how many have decided, of how many) for the game page's "n of m have committed",
        from a simultaneous step's sealed orders (``committed``) and seats asked
        (``deciding``); a game may count in seats that decided this part of it before (those
        who laid their cards first). By default the step's own."""
        return committed, deciding

    def replay_heading(self, view: dict, loc: str) -> str:
        """Where the game stands at a replay's position (the spectators' ``view``), in one
        line."""
        raise NotImplementedError

    def result(self, view: dict, loc: str) -> dict:
        """What result.html shows of a finished game's final spectators' ``view``, beside the
        shared facts (the winner, the players, the seed)."""
        raise NotImplementedError

    def help(self, loc: str) -> dict:
        """What help.html shows beside the engine's notation and rulings (``notation``,
        ``rulings``, given by the shared page); by default nothing more."""
        return {}


@lru_cache(maxsize=None)
def _terms(presenter: Presenter, loc: str) -> dict[str, dict]:
    return term_tables.table(presenter.english_terms(), loc)

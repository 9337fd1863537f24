"""Sealed Bid's looks (its presentation part): the presenter the shared mails and pages ask
(server/games/presenter.py), with its template parts in templates/ beside this file and its
texts' Japanese in ja.po. Its own words are in this module's tables, in English and Japanese
(a game of the server's own would put them in the server's catalogues; this one lives in the
tests and touches none of the server's files)."""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from server import i18n
from server.games.presenter import Presenter
from server.web.decision_form import Order
from server.web.words import locale
from tests.games.sealedbid.rules import GAME_ID, ROUNDS, SEAT_NAMES

HERE = Path(__file__).resolve().parent

TITLE = {"en": "Sealed Bid", "ja": "シールド・ビッド"}
SEATS = {"en": dict(SEAT_NAMES), "ja": {"east": "東", "west": "西"}}
WORDS = {
    "en": {"scores": "Scores", "round": "Round", "prize": "Prize", "player": "Player", "points": "points",
           "cards_left": "cards left", "your_hand": "Your bid cards", "last_bids": "Bids",
           "bid": "Bid %(n)s", "take": "Take the prize", "reclaim": "Take back your bid card",
           "bid_legend": "Your sealed bid", "claim_legend": "The prize you won",
           "new_game": "New game of Sealed Bid", "you_play": "You play",
           "opponent": "Opponent's email (empty: anybody with the invitation code)",
           "create": "Create the game", "bad_email": "Give the opponent's email address, "
           "like name@example.org, or leave it empty to invite with a code.",
           "winner": "%(name)s won", "draw": "A draw"},
    "ja": {"scores": "得点", "round": "ラウンド", "prize": "賞品", "player": "プレイヤー", "points": "点",
           "cards_left": "残りのカード", "your_hand": "あなたの入札カード", "last_bids": "入札",
           "bid": "%(n)sを入札", "take": "賞品を取る", "reclaim": "入札カードを手札に戻す",
           "bid_legend": "あなたの伏せた入札", "claim_legend": "獲得した賞品",
           "new_game": "シールド・ビッドの新しいゲーム", "you_play": "担当する席",
           "opponent": "相手のメールアドレス（空欄：招待コードを持つ人なら誰でも）",
           "create": "ゲームを作成", "bad_email": "相手のメールアドレスを name@example.org "
           "のように書くか、空欄にして招待コードで招待してください。",
           "winner": "%(name)sの勝ち", "draw": "引き分け"},
}


def words(loc: str | None) -> dict[str, str]:
    """The game's own words in ``loc`` (English where it has none)."""
    return WORDS.get(i18n.supported(loc), WORDS["en"])


@lru_cache(maxsize=None)
def _catalogue(loc: str) -> NullTranslations:
    """ja.po compiled in memory, falling back to the server's ``game`` catalogue (the texts of
    engine/core and of the order service)."""
    shared = i18n.translations(loc, "game")
    po = HERE / f"{loc}.po"
    if not po.exists():
        return shared
    with po.open("rb") as source:
        catalogue = read_po(source, locale=loc)
    compiled = BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    found = Translations(compiled)
    found.add_fallback(shared)
    return found


class SealedBid(Presenter):
    game = GAME_ID

    @property
    def templates(self) -> Path:
        return HERE / "templates"

    @property
    def rules_folder(self) -> Path:
        return HERE

    # ---- Words ---------------------------------------------------------------------------
    def title(self, loc: str) -> str:
        return TITLE.get(i18n.supported(loc), TITLE["en"])

    def english_terms(self) -> dict[str, dict]:
        return {"seats": dict(SEAT_NAMES)}

    def terms(self, loc: str | None) -> dict[str, dict]:
        return {"seats": dict(SEATS.get(i18n.supported(loc), SEATS["en"]))}

    def catalogue(self, loc: str) -> NullTranslations:
        return _catalogue(i18n.supported(loc))

    # ---- Mail ----------------------------------------------------------------------------
    def mail_parts(self) -> dict[str, str]:
        return {"summary": self.part("summary"), "texts": "_game_texts",
                "style": self.part("style")}

    def summary(self, view: dict, seat: str | None, notes_seen: int, loc: str) -> dict:
        from server.i18n import game_text
        names = self.seat_names(loc)
        sizes = view["hand_sizes"]
        return {
            "game": GAME_ID, "words": words(loc), "round": view["round"], "rounds": ROUNDS,
            "prize": view["prize"],
            "scores": [{"seat": s, "name": names[s], "score": view["scores"][s],
                        "cards": sizes[s]} for s in view["seats"]],
            "hand": (view.get("hands") or {}).get(seat, []),
            "bids": [{"name": names[s], "bid": b} for s, b in (view["bids"] or {}).items()],
            "changes": game_text.texts(view["note_messages"][notes_seen:], loc, GAME_ID)}

    # ---- Web -----------------------------------------------------------------------------
    def page(self, view: dict, seat: str | None, loc: str) -> dict:
        return {"summary": self.summary(view, seat, len(view["note_messages"]), loc)}

    def public_board(self, view: dict, loc: str) -> dict:
        return self.page(view, None, loc)

    def hand(self, cards: list, loc: str) -> list[dict]:
        return [{"name": str(card)} for card in cards]

    def form(self, decision: dict, view: dict, loc: str) -> dict:
        said = words(loc)
        legal = list(decision["legal_actions"])
        bids = [a for a in legal if a.startswith("bid ")]
        if bids:
            groups = [{"legend": said["bid_legend"],
                       "options": [{"value": a, "label": said["bid"] % {"n": a.split()[1]}}
                                   for a in bids]}]
        else:
            groups = [{"legend": said["claim_legend"],
                       "options": [{"value": a, "label": said[a]} for a in legal]}]
        return {"kind": "choices", "step_name": (decision.get("asks") or {}).get("step", ""),
                "groups": groups}

    def compose(self, data, form: dict):
        return Order([])

    def read_new_game(self, form, user) -> tuple[dict, dict, dict]:
        from server.web.accounts import is_email
        mine = form.get("seat") if form.get("seat") in SEAT_NAMES else "east"
        other = next(s for s in SEAT_NAMES if s != mine)
        opponent = (form.get("opponent") or "").strip() or None
        if opponent is not None and not is_email(opponent):
            raise ValueError(words(user.locale)["bad_email"])
        return {}, {mine: user.email, other: opponent}, {}

    def new_game(self, loc: str) -> dict:
        return {"names": self.seat_names(loc), "words": words(loc)}

    def turn_of(self, state):
        return state.s["round"]

    def turn_link(self, turn, back: bool) -> dict:
        label = f"{words(locale())['round']} {turn}"
        return {"label": label, "aria": label}

    def replay_heading(self, view: dict, loc: str) -> str:
        return f"{words(loc)['round']} {view['round']}/{ROUNDS}"

    def result(self, view: dict, loc: str) -> dict:
        return self.page(view, None, loc)


PRESENTER = SealedBid()

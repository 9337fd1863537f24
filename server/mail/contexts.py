"""The template context of each kind of mail, from plain data: the recipient's view of the game
(never the state), names, and the links of this installation. The worker gathers the data from
the database; tests pass fixed data and compare the rendering with checked-in output. Names of
seats are in the recipient's language (`terms`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from server.mail import summary_tmotp
from server.mail.terms import terms

# Longer lists of legal orders (a Campaigning allocation can have hundreds) point to the page.
MAX_LISTED = 20


@dataclass(frozen=True)
class Links:
    base_url: str

    def game(self, game_id: int) -> str:
        return f"{self.base_url}/games/{game_id}"

    def replay(self, game_id: int) -> str:
        return f"{self.base_url}/api/v1/games/{game_id}/log"

    def preferences(self) -> str:
        return f"{self.base_url}/me/mail"

    def notation(self, game_type: str) -> str:
        return f"{self.base_url}/help/notation/{game_type}"

    def join(self, game_id: int) -> str:
        return f"{self.base_url}/games/{game_id}/join"


def _common(game_id: int, seat: str | None, player_name: str, locale: str, links: Links) -> dict:
    return {"game_id": game_id, "player_name": player_name, "locale": locale,
            "seat_name": terms(locale)["seats"].get(seat, seat or ""),
            "game_url": links.game(game_id), "preferences_url": links.preferences()}


def your_decision(game_id: int, seat: str, step: int, view: dict, player_name: str,
                  locale: str, links: Links, notes_seen: int = 0,
                  choice_url: Callable[[str], str] | None = None) -> dict:
    """``choice_url(action)``: the signed link that commits the action (after a confirmation
    page), or None when the mail carries none."""
    legal = list(view["legal_actions"])
    return {**_common(game_id, seat, player_name, locale, links),
            "step": step, "prompt": view["prompt"], "legal_actions": legal,
            "choices": [{"action": a, "url": choice_url(a) if choice_url else None}
                        for a in legal[:MAX_LISTED]],
            "simultaneous": len(view.get("active", [])) > 1, "max_listed": MAX_LISTED,
            "summary": summary_tmotp.summary(view, seat, notes_seen, locale),
            "notation_url": links.notation(view["game"])}


def game_started(game_id: int, seat: str, player_name: str, seed_hash: str, locale: str,
                 links: Links) -> dict:
    opponent = next(s for s in summary_tmotp.SEAT_NAMES if s != seat)
    return {**_common(game_id, seat, player_name, locale, links),
            "opponent": terms(locale)["seats"][opponent], "seed_hash": seed_hash}


def game_over(game_id: int, seat: str | None, view: dict, result: dict | None, seed: str,
              seed_hash: str, player_name: str, locale: str, links: Links) -> dict:
    result = result or {}
    winner = terms(locale)["seats"].get(result.get("winner"))
    return {**_common(game_id, seat, player_name, locale, links),
            "winner": winner, "result_text": result.get("reason") or result.get("text") or "",
            "seed": seed, "seed_hash": seed_hash, "replay_url": links.replay(game_id),
            "summary": summary_tmotp.summary(view, seat, len(view.get("notes", [])), locale)}


def seat_joined(game_id: int, seat: str | None, player_name: str, joined_name: str,
                joined_seat: str, all_seated: bool, locale: str, links: Links) -> dict:
    return {**_common(game_id, seat, player_name, locale, links),
            "joined_name": joined_name,
            "joined_seat": terms(locale)["seats"].get(joined_seat, joined_seat),
            "all_seated": all_seated}


def invitation(game_id: int, seat: str, host_name: str, locale: str, links: Links) -> dict:
    return {**_common(game_id, seat, "", locale, links), "host_name": host_name,
            "join_url": links.join(game_id)}


def order_answer(game_id: int, seat: str, view: dict, player_name: str, locale: str,
                 links: Links, answer: dict, step: int, notes_seen: int = 0,
                 choice_url: Callable[[str], str] | None = None) -> dict:
    """The answer to an order by reply: ``answer`` holds the lines read, the status (applied,
    sealed, stale, illegal, malformed, over, empty), what was applied, the reason and the legal
    orders; then the seat's decision now (``step``), as a decision mail shows it."""
    decision = your_decision(game_id, seat, step, view, player_name, locale, links, notes_seen,
                             choice_url)
    return {**decision, "lines": list(answer.get("lines", [])), "status": answer["status"],
            "applied": list(answer.get("applied", [])), "reason": answer.get("reason") or "",
            "legal": list(answer.get("legal", [])),
            "answered_step": answer.get("answered_step"),
            "prompt": view["prompt"] if view["legal_actions"] else None}


def reply_unknown(player_name: str, address: str, locale: str, links: Links) -> dict:
    return {"player_name": player_name, "address": address, "locale": locale,
            "game_url": links.base_url, "preferences_url": links.preferences()}

"""The template context of each kind of mail, from plain data: the recipient's view of the game
(never the state), names, and the links of this installation. The worker gathers the data from
the database; tests pass fixed data and compare the rendering with checked-in output."""

from __future__ import annotations

from dataclasses import dataclass

from server.mail import summary_tmotp

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
            "seat_name": summary_tmotp.SEAT_NAMES.get(seat, seat or ""),
            "game_url": links.game(game_id), "preferences_url": links.preferences()}


def your_decision(game_id: int, seat: str, step: int, view: dict, player_name: str,
                  locale: str, links: Links, notes_seen: int = 0) -> dict:
    return {**_common(game_id, seat, player_name, locale, links),
            "step": step, "prompt": view["prompt"], "legal_actions": list(view["legal_actions"]),
            "simultaneous": len(view.get("active", [])) > 1, "max_listed": MAX_LISTED,
            "summary": summary_tmotp.summary(view, seat, notes_seen),
            "notation_url": links.notation(view["game"])}


def game_started(game_id: int, seat: str, player_name: str, seed_hash: str, locale: str,
                 links: Links) -> dict:
    opponent = next(s for s in summary_tmotp.SEAT_NAMES if s != seat)
    return {**_common(game_id, seat, player_name, locale, links),
            "opponent": summary_tmotp.SEAT_NAMES[opponent], "seed_hash": seed_hash}


def game_over(game_id: int, seat: str | None, view: dict, result: dict | None, seed: str,
              seed_hash: str, player_name: str, locale: str, links: Links) -> dict:
    result = result or {}
    winner = summary_tmotp.SEAT_NAMES.get(result.get("winner"))
    return {**_common(game_id, seat, player_name, locale, links),
            "winner": winner, "result_text": result.get("reason") or result.get("text") or "",
            "seed": seed, "seed_hash": seed_hash, "replay_url": links.replay(game_id),
            "summary": summary_tmotp.summary(view, seat, len(view.get("notes", [])))}


def seat_joined(game_id: int, seat: str | None, player_name: str, joined_name: str,
                joined_seat: str, all_seated: bool, locale: str, links: Links) -> dict:
    return {**_common(game_id, seat, player_name, locale, links),
            "joined_name": joined_name,
            "joined_seat": summary_tmotp.SEAT_NAMES.get(joined_seat, joined_seat),
            "all_seated": all_seated}


def invitation(game_id: int, seat: str, host_name: str, locale: str, links: Links) -> dict:
    return {**_common(game_id, seat, "", locale, links), "host_name": host_name,
            "join_url": links.join(game_id)}

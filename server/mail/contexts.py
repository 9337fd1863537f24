"""The template context of each kind of mail, from plain data: the recipient's view of the game
(never the state), names, and the links of this installation. The worker gathers the data from
the database; tests pass fixed data and compare the rendering with checked-in output. Names of
seats are in the recipient's language (`terms`).

Every game's mails share the templates; what differs by game comes from the game's presenter
(server/games, its Mail section): the summary, the variant, the choices a mail lists, the words
of its standing orders' rules, and the names of its template parts (``parts``: its summary, its
own sentences, its style), which the shared templates include."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Callable, Iterable

from babel.dates import format_date

from server.catalogue import N_
from server.games import presenter
from server.i18n import game_text, times
from server.i18n import gettext, supported
from server.mail import reply_commands
from server.mail.kinds import INFORMATIONAL

# Which statuses of an order by reply were taken (order_received); any other status is a
# refusal (order_refused: stale, malformed, illegal, over, empty, ...).
RECEIVED = ("applied", "sealed", "standing", "retracted", "command")


# The rule an order given without asking followed, in words, by its source (AutoOrder.source);
# a standing order's rule is the game's (its presenter's ``rule_texts``).
RULES = {
    "filed": N_("your filed default order, applied when the deadline passed"),
    "default": N_("the safe default, applied when the deadline passed"),
    "forfeit": N_("the deadline passed: you forfeited the game"),
}


@dataclass(frozen=True)
class Links:
    base_url: str

    def game(self, game_id: int) -> str:
        return f"{self.base_url}/games/{game_id}"

    def replay(self, game_id: int) -> str:
        """The replay page of a finished game (public, like its result)."""
        return f"{self.base_url}/games/{game_id}/replay"

    def result(self, game_id: int) -> str:
        """The printable result page of a finished game."""
        return f"{self.base_url}/games/{game_id}/result"

    def preferences(self) -> str:
        return f"{self.base_url}/me/mail"

    def notation(self, game_type: str) -> str:
        return f"{self.base_url}/help/notation/{game_type}"

    def join(self, game_id: int) -> str:
        return f"{self.base_url}/games/{game_id}/join"


def _common(game_id: int, seat: str | None, player_name: str, locale: str, links: Links,
            preferences_url: str | None, game_type: str) -> dict:
    """``preferences_url``: the recipient's signed preferences link (links.preferences_url),
    when the mail goes to a user; else the plain page, which asks them to log in. ``parts``:
    the game's template parts (its presenter's ``mail_parts``)."""
    shown = presenter(game_type)
    return {"game_id": game_id, "game_type": game_type, "game_title": shown.title(locale),
            "parts": shown.mail_parts(), "player_name": player_name, "locale": locale,
            "seat_name": shown.seat_names(locale).get(seat, seat or ""),
            "game_url": links.game(game_id),
            "preferences_url": preferences_url or links.preferences()}


def summary(view: dict, seat: str | None, notes_seen: int, locale: str) -> dict:
    """The game as the seat's view shows it, by the game's presenter."""
    return presenter(view["game"]).summary(view, seat, notes_seen, locale)


def _choices(view: dict, locale: str, url: Callable[[str], str] | None,
             form_url: str | None = None) -> dict:
    """Every legal order of the seat's ``view`` in the recipient's words, grouped as the game's
    presenter lists them (``mail_choices``), each listed order with its signed link, if any;
    ``form_url``: the game page's decision form, where what a mail cannot list one by one (a
    range of numbers per state, several cards at once) is planned."""
    found = presenter(view["game"]).mail_choices(view, locale)
    groups = [{**group, "options": [{**option, "url": url(option["action"]) if url else None}
                                    for option in group["options"]]}
              for group in found["groups"]]
    return {"groups": groups, "suffixes": found["suffixes"], "pairs": found["pairs"],
            "parts": presenter(view["game"]).mail_parts(), "form_url": form_url,
            "linked": url is not None and any(g["options"] for g in groups),
            "any": any(g["options"] or g["ranges"] or g["pick"] for g in groups)
            or bool(found["pairs"])}


def _hand(view: dict | None, locale: str) -> list[str]:
    """The seat's own hand in the recipient's words (none without its view)."""
    return presenter(view["game"]).hand_names(view, locale) if view else []


def rule_text(source: str, rule: str | None, locale: str, game_type: str) -> str:
    """The rule an order given for the seat followed, in the recipient's words."""
    message = (presenter(game_type).rule_texts().get(rule or "") if source == "standing"
               else RULES.get(source))
    return gettext(message, locale) if message else (rule or source)


def in_words(actions: Iterable[str], locale: str, game_type: str) -> list[str]:
    """Orders (lines of the notation) in the recipient's words, as the game names them (issue
    47: a mail tells what was or will be done in words; only its reply instructions show the
    notation)."""
    shown = presenter(game_type)
    return [shown.order_words(action, locale) for action in actions]


def described(rows: Iterable[dict], locale: str, game_type: str) -> list[dict]:
    """The orders the server gave for the seat without asking (AutoOrder rows not yet mailed,
    oldest first), each with its rule in words."""
    return [{"actions": list(row.get("actions") or []), "source": row["source"],
             "words": in_words(row.get("actions") or [], locale, game_type),
             "rule": row.get("rule") or "",
             "text": rule_text(row["source"], row.get("rule"), locale, game_type)}
            for row in rows]


def when(moment: datetime, locale: str, time_zone: str = times.DEFAULT_ZONE) -> str:
    """A moment in the recipient's zone (User.time_zone) with its offset, written the locale's
    way (server/i18n/times.py): the locale's long date and short time, joined as the locale
    joins them, and the offset ("UTC+09:00"; "UTC" for UTC itself)."""
    return times.moment(moment, locale, time_zone)


def deadline(moment: datetime | None, now: datetime, locale: str,
             time_zone: str = times.DEFAULT_ZONE) -> dict | None:
    """{"when": the date and time in the recipient's zone with its offset, "short": its
    weekday and time, with the date when not within six days and no offset (for "your time"),
    "hours": whole hours left (0 when less than one)}."""
    if moment is None:
        return None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
    left = (moment - now).total_seconds()
    return {"when": when(moment, locale, time_zone),
            "short": times.short(moment, locale, time_zone, now),
            "hours": max(0, round(left / 3600))}


def your_decision(game_id: int, seat: str, step: int, view: dict, player_name: str,
                  locale: str, links: Links, notes_seen: int = 0,
                  choice_url: Callable[[str], str] | None = None,
                  auto_orders: Iterable[dict] = (), preferences_url: str | None = None,
                  deadline_at: datetime | None = None, now: datetime | None = None,
                  time_zone: str = times.DEFAULT_ZONE) -> dict:
    """``choice_url(action)``: the signed link that commits the action (after a confirmation
    page), or None when the mail carries none. ``auto_orders``: [{"actions", "source",
    "rule"}], what the server did for the seat without asking since its last mail.
    ``deadline_at``: when the decision's time runs out (the preview line says it).
    ``time_zone``: the recipient's (User.time_zone), which every time of the mail is in."""
    legal = list(view["legal_actions"])
    game_type = view["game"]
    prompt = game_text.text(_prompt(view), locale, game_type)
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, game_type),
            "step": step, "prompt": prompt, "headline": headline(prompt),
            "deadline": deadline(deadline_at, now or datetime.now(timezone.utc), locale,
                                 time_zone),
            "legal_actions": legal,
            "choices": _choices(view, locale, choice_url,
                                f"{links.game(game_id)}#decision-h"),
            "simultaneous": len(view.get("active", [])) > 1,
            "summary": summary(view, seat, notes_seen, locale),
            "notation_url": links.notation(game_type),
            "auto_orders": described(auto_orders, locale, game_type)}


def reminder(game_id: int, seat: str, step: int, view: dict, player_name: str, locale: str,
             links: Links, deadline_at: datetime | None, now: datetime, number: int, of: int,
             fallback: dict, notes_seen: int = 0,
             choice_url: Callable[[str], str] | None = None, auto_orders: Iterable[dict] = (),
             preferences_url: str | None = None, time_zone: str = times.DEFAULT_ZONE) -> dict:
    """Reminder ``number`` of ``of`` of the decision at ``step``, still the seat's, before
    ``deadline_at``. ``fallback``: what happens when the deadline passes, {"source": "forfeit"
    | "filed" | "default", "actions": [order lines]} (the filed default order's lines, or the
    safe default's action)."""
    return {**your_decision(game_id, seat, step, view, player_name, locale, links, notes_seen,
                            choice_url, auto_orders, preferences_url, time_zone=time_zone),
            "number": number, "of": of,
            "deadline": deadline(deadline_at, now, locale, time_zone),
            "fallback": {"source": fallback["source"],
                         "actions": list(fallback.get("actions") or []),
                         "words": in_words(fallback.get("actions") or [], locale,
                                           view["game"])}}


def deadline_passed(game_id: int, seat: str, passed_step: int, view: dict, player_name: str,
                    locale: str, links: Links, actions: list[str], source: str, rule: str,
                    step: int, asked: bool, notes_seen: int = 0,
                    choice_url: Callable[[str], str] | None = None,
                    auto_orders: Iterable[dict] = (), deadline_at: datetime | None = None,
                    now: datetime | None = None, preferences_url: str | None = None,
                    time_zone: str = times.DEFAULT_ZONE) -> dict:
    """The deadline of the decision at ``passed_step`` passed: the server applied ``actions``
    for the seat (``source`` "filed" | "default") or the seat forfeited ("forfeit"). Then the
    decision the seat has now (at ``step``, with its deadline) if ``asked``, else the game."""
    if not asked:
        view = {**view, "legal_actions": []}
    decision = your_decision(game_id, seat, step, view, player_name, locale, links, notes_seen,
                             choice_url if asked else None, auto_orders, preferences_url,
                             time_zone=time_zone)
    return {**decision, "passed_step": passed_step, "actions": list(actions), "source": source,
            "action_words": in_words(actions, locale, view["game"]),
            "rule": rule, "rule_text": rule_text(source, rule, locale, view["game"]),
            "asked": asked,
            "deadline": (deadline(deadline_at, now or datetime.now(timezone.utc), locale,
                                  time_zone) if asked else None)}


def step_resolved(game_id: int, seat: str, step: int, view: dict, player_name: str,
                  locale: str, links: Links, notes_seen: int = 0,
                  auto_orders: Iterable[dict] = (), preferences_url: str | None = None) -> dict:
    """The simultaneous step ``step`` was resolved (its sealed choices resolved: shown only
    where the rules show them, as Debate cards; 1960's Campaign Strategy cards stay face down)
    and the seat is not asked anything now: what changed since its last mail, and the game."""
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, view["game"]),
            "step": step, "summary": summary(view, seat, notes_seen, locale),
            "auto_orders": described(auto_orders, locale, view["game"])}


def digest(player_name: str, day: str, waiting: Iterable[dict], locale: str, links: Links,
           now: datetime, preferences_url: str | None = None,
           time_zone: str = times.DEFAULT_ZONE) -> dict:
    """The daily list of the user's games waiting for a decision. ``waiting``: one entry per
    game and seat asked, {"game_id", "game" (its type), "seat", "step", "prompt",
    "legal_actions", "deadline_at", "choice_url" (the signed link of an action, or None), "view"
    (the seat's own view, which names the choices and shows the hand; by default one of just
    the game and its legal actions)}. ``game_type`` and ``game_title``: the one type of every game
    listed and its title, or None when they are of several (the subject names the game when it
    can)."""
    games = []
    for entry in waiting:
        game_type = entry["game"]
        shown = presenter(game_type)
        games.append({
            "game_id": entry["game_id"], "game_type": game_type, "parts": shown.mail_parts(),
            "seat_name": shown.seat_names(locale).get(entry["seat"], entry["seat"]),
            "step": entry["step"], "prompt": game_text.text(entry["prompt"], locale, game_type),
            "headline": headline(game_text.text(entry["prompt"], locale, game_type)),
            "choices": _choices(entry.get("view") or {
                "game": game_type, "seat": entry["seat"],
                "legal_actions": entry["legal_actions"]}, locale, entry.get("choice_url"),
                f"{links.game(entry['game_id'])}#decision-h"),
            "hand": _hand(entry.get("view"), locale),
            "deadline": deadline(entry.get("deadline_at"), now, locale, time_zone),
            "game_url": links.game(entry["game_id"])})
    types = {g["game_type"] for g in games}
    game_type = types.pop() if len(types) == 1 else None
    return {"player_name": player_name, "locale": locale, "game_type": game_type,
            "game_title": presenter(game_type).title(locale) if game_type else None,
            "day": format_date(date.fromisoformat(day), "long", locale=supported(locale)),
            "games": games, "game_url": links.base_url,
            "preferences_url": preferences_url or links.preferences()}


def game_started(game_id: int, seat: str, player_name: str, seed_hash: str, locale: str,
                 links: Links, preferences_url: str | None = None, *, game_type: str,
                 seats: Iterable[str], options: dict | None = None) -> dict:
    """``seats``: every seat of the game; ``options``: the game's options as stored (those not
    given take the game's defaults; the mail names the variant, if the game has variants)."""
    shown = presenter(game_type)
    names = shown.seat_names(locale)
    opponents = [names[s] for s in seats if s != seat]
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, game_type),
            "opponent": opponents[0], "opponents": game_text.JOIN[supported(locale)].join(
                opponents),
            "variant": shown.variant(options, locale), "seed_hash": seed_hash}


def game_over(game_id: int, seat: str | None, view: dict, result: dict | None, seed: str,
              seed_hash: str, player_name: str, locale: str, links: Links,
              preferences_url: str | None = None) -> dict:
    result = result or {}
    winner = presenter(view["game"]).seat_names(locale).get(result.get("winner"))
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, view["game"]),
            "winner": winner,
            "result_text": game_text.text(result.get("reason_message") or result.get("reason")
                                          or result.get("text") or "", locale, view["game"]),
            "seed": seed, "seed_hash": seed_hash, "replay_url": links.replay(game_id),
            "result_url": links.result(game_id),
            "summary": summary(view, seat, len(view.get("notes", [])), locale)}


def rematch(game_id: int, seat: str | None, player_name: str, locale: str, links: Links,
            preferences_url: str | None = None, *, game_type: str, event: str, who: str,
            swap: bool, accept_url: str | None, new_game_id: int | None) -> dict:
    """A rematch of a finished game: ``event`` offered, accepted, withdrawn or made; ``who``
    did it (as the reader sees their name); ``accept_url``: the reader's signed link to say
    yes, while they have not."""
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, game_type),
            "event": event, "who": who, "swap": swap, "accept_url": accept_url,
            "result_url": links.result(game_id),
            "new_game_id": new_game_id,
            "new_game_url": links.game(new_game_id) if new_game_id else None}


def seat_joined(game_id: int, seat: str | None, player_name: str, joined_name: str,
                joined_seat: str, all_seated: bool, locale: str, links: Links,
                preferences_url: str | None = None, *, game_type: str) -> dict:
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, game_type),
            "joined_name": joined_name,
            "joined_seat": presenter(game_type).seat_names(locale).get(joined_seat, joined_seat),
            "all_seated": all_seated}


def invitation(game_id: int, seat: str, host_name: str, locale: str, links: Links,
               preferences_url: str | None = None, *, game_type: str,
               options: dict | None = None) -> dict:
    """``preferences_url``: only when the address has an account (else the plain page).
    ``options``: the game's options as stored (the mail names the variant, if the game has
    variants)."""
    return {**_common(game_id, seat, "", locale, links, preferences_url, game_type),
            "host_name": host_name, "join_url": links.join(game_id),
            "variant": presenter(game_type).variant(options, locale)}


def order_kind(status: str) -> str:
    """The template of the answer to an order by reply: "order_received" (applied, sealed) or
    "order_refused" (any other status)."""
    return "order_received" if status in RECEIVED else "order_refused"


def order_answer(game_id: int, seat: str, view: dict, player_name: str, locale: str,
                 links: Links, answer: dict, step: int, notes_seen: int = 0,
                 choice_url: Callable[[str], str] | None = None,
                 preferences_url: str | None = None,
                 time_zone: str = times.DEFAULT_ZONE, take_back: datetime | None = None,
                 now: datetime | None = None, offer_only: bool = False) -> dict:
    """The answer to an order by reply, for either template (``order_kind``): ``answer`` holds
    the lines read, the status (applied, sealed, stale, illegal, malformed, over, empty; a
    reply of TAKE BACK: retracted, or final with the refusal's code in ``retract``; a pause or
    extension line done alone, orders after it not read: command), what
    was applied (or taken back), the reason and the legal orders, and the time zone a
    ``timezone`` line set (``time_zone``); then the seat's decision now (``step``), as a
    decision mail shows it. ``take_back``: until when the move may be taken back by a reply
    (issue 27), shown in the reader's zone; ``offer_only``: the reader muted these receipts,
    so the mail says what was done and offers the take back, no more."""
    decision = your_decision(game_id, seat, step, view, player_name, locale, links, notes_seen,
                             choice_url, preferences_url=preferences_url, time_zone=time_zone)
    zone_set = answer.get("time_zone")
    legal = _choices({**view, "legal_actions": list(answer.get("legal", []))}, locale, None)
    from server.services.retract import REASONS  # the page's and the API's words too
    refused = answer.get("retract")
    return {**decision, "lines": list(answer.get("lines", [])), "status": answer["status"],
            "applied": list(answer.get("applied", [])),
            # the orders done, sealed or taken back in words (issue 47); a command as written
            "applied_words": in_words(answer.get("applied", []), locale, view["game"]),
            "reason": (gettext(REASONS[refused], locale) if refused in REASONS
                       else game_text.text(answer.get("reason"), locale, view["game"])),
            "take_back": (times.short(take_back, locale, time_zone, now)
                          if take_back is not None else None),
            "offer_only": offer_only,
            # lines after TAKE BACK, or the writer's words after a reply's commands
            "unread": list(answer.get("unread") or []),
            "asked": bool(answer.get("asked")),  # a pause or more time asked by this reply
            "legal": legal,
            "standing": list(answer.get("standing") or []),
            "ignored": list(answer.get("ignored") or []),  # a sealed step's lines not read
            # a first line that is no order: the commands a reply may carry instead (issue 46)
            "commands": (reply_commands.commands(locale)
                         if answer["status"] in ("malformed", "empty") else []),
            "time_zone_set": {"name": zone_set, "now": times.moment(
                datetime.now(timezone.utc), locale, zone_set)} if zone_set else None,
            "answered_step": answer.get("answered_step"),
            "prompt": game_text.text(_prompt(view), locale, view["game"])
            if view["legal_actions"] else None}


HEADLINE = 60  # characters of a prompt's head the preview line shows at most


def headline(prompt: str) -> str:
    """What a decision asks, short, for the preview line: the prompt's head before its first
    colon ("Turn 1, Activity Phase 1: play a card ..."), else its start."""
    head = prompt.replace("：", ":").split(":", 1)[0].strip()
    if len(head) <= HEADLINE and head != prompt.strip():
        return head
    return prompt if len(prompt) <= HEADLINE else prompt[:HEADLINE - 1].rstrip() + "…"


def _prompt(view: dict):
    """The view's prompt as a message (views of a JSON round trip keep only ``prompt_message``)."""
    return view.get("prompt_message") or view["prompt"]


order_received = order_refused = order_answer


def sign_in(player_name: str, locale: str, links: Links, sign_in_url: str, minutes: int,
            preferences_url: str | None = None) -> dict:
    """The link that signs the player in to the web pages (once, within ``minutes``)."""
    return {"player_name": player_name, "locale": locale, "game_url": links.base_url,
            "sign_in_url": sign_in_url, "minutes": minutes,
            "preferences_url": preferences_url or links.preferences()}


def reply_foreign(player_name: str, game_id: int, seat: str, locale: str, links: Links,
                  preferences_url: str | None = None, *, game_type: str) -> dict:
    """An order for the player's seat that came from another address and was not applied."""
    return _common(game_id, seat, player_name, locale, links, preferences_url, game_type)


def webhook_disabled(player_name: str, webhook: str, failures: int, error: str, locale: str,
                     links: Links, preferences_url: str | None = None) -> dict:
    """A webhook turned off after ``failures`` posts failed in a row; ``webhook``: its URL as
    the settings page masks it; ``error``: the last failure's kind (an HTTP status, a timeout:
    never the webhook's own words)."""
    return {"player_name": player_name, "webhook": webhook, "failures": failures,
            "error": error, "locale": locale, "game_url": links.base_url,
            "settings_url": f"{links.base_url}/me/mail",
            "preferences_url": preferences_url or links.preferences()}


def reply_unknown(player_name: str, address: str, locale: str, links: Links,
                  preferences_url: str | None = None) -> dict:
    return {"player_name": player_name, "address": address, "locale": locale,
            "game_url": links.base_url,
            "preferences_url": preferences_url or links.preferences()}


def not_reached(game_id: int, seat: str, player_name: str, locale: str, links: Links,
                preferences_url: str | None = None, *, game_type: str, waited_seat: str,
                waited_name: str, deadline_at: datetime | None, grace_hours: int,
                time_zone: str = times.DEFAULT_ZONE) -> dict:
    """The deadline of a decision passed while no channel had reached the player of
    ``waited_seat`` since it opened (services/reach.py): it waits; once they are reached they
    have at least ``grace_hours`` (services/deadlines.py)."""
    names = presenter(game_type).seat_names(locale)
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, game_type),
            "waited_seat": names.get(waited_seat, waited_seat), "waited_name": waited_name,
            "deadline": when(deadline_at, locale, time_zone) if deadline_at else "",
            "grace_hours": grace_hours}


def unsubscribed(player_name: str, change: str, kind: str | None, mail_mode: str,
                 muted: Iterable[str], locale: str, links: Links,
                 preferences_url: str | None = None) -> dict:
    """What a one-click unsubscribe changed (services/preferences.one_click: "digest", "news"
    or "kind", the kind of the mail it came in), what the player gets now (``mail_mode``, the
    informational kinds stopped, ``muted``) and where to undo it (the settings, signed in)."""
    return {"player_name": player_name, "locale": locale, "change": change,
            "kind_name": gettext(INFORMATIONAL[kind], locale) if kind in INFORMATIONAL else "",
            "mail_mode": mail_mode,
            "muted": [gettext(INFORMATIONAL[k], locale) for k in INFORMATIONAL if k in muted],
            "game_url": links.base_url, "settings_url": f"{links.base_url}/me/mail",
            "preferences_url": preferences_url or links.preferences()}


# --- issue 27: pauses and extensions (server/services/pauses.py, extensions.py) -------------
def schedule(game_id: int, seat: str, player_name: str, locale: str, links: Links,
             preferences_url: str | None = None, *, game_type: str, kind: str, event: str,
             by_seat: str, by_name: str, deadline_at: datetime | None, hours: int = 0,
             agree_url: str | None = None, refuse_url: str | None = None,
             time_zone: str = times.DEFAULT_ZONE, asker_seat: str | None = None,
             asker_name: str | None = None) -> dict:
    """A pause (``kind`` "pause") or an extension ("extension") asked, agreed, refused, expired
    or ended (``event``), by the player of ``by_seat`` (who answered, for an answer), asked by
    the player of ``asker_seat`` (``by_seat`` when not given); ``agree_url``/``refuse_url``:
    the recipient's signed answer links when the ask waits for their answer. ``mine``: the
    reader asked; ``by_me``: the reader did it (the templates then say "you")."""
    names = presenter(game_type).seat_names(locale)
    asker_seat = by_seat if asker_seat is None else asker_seat
    return {**_common(game_id, seat, player_name, locale, links, preferences_url, game_type),
            "kind": kind, "event": event, "by_seat": names.get(by_seat, by_seat),
            "by_name": by_name, "by_me": by_seat == seat,
            "asker_seat": names.get(asker_seat, asker_seat),
            "asker_name": by_name if asker_name is None else asker_name,
            "mine": asker_seat == seat, "hours": hours,
            "deadline": when(deadline_at, locale, time_zone) if deadline_at else "",
            "agree_url": agree_url, "refuse_url": refuse_url}

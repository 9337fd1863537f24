"""One marshmallow schema per payload. Schemas check shape; the engine judges legality."""

from __future__ import annotations

import json

import engine.core as engine
import marshmallow as ma
from marshmallow import ValidationError, fields, pre_load, validate, validates_schema

from server.i18n import times
from server.models import aware
from server.services import display_names, standing, time_zones

STATUSES = ("open", "active", "finished")
LOCALE = validate.Regexp(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$",
                         error="Not a language tag such as en, fr or pt-BR.")


class UTCDateTime(fields.DateTime):
    """An ISO 8601 time with its UTC offset (SQLite hands back naive UTC datetimes)."""

    def _serialize(self, value, attr, obj, **kwargs):
        return super()._serialize(aware(value), attr, obj, **kwargs)


class DisplayName(fields.String):
    """A display name, normalised, or "" (none); one the rule refuses is a 422 saying why
    (server/services/display_names.py)."""

    def _deserialize(self, value, attr, data, **kwargs):
        name = super()._deserialize(value, attr, data, **kwargs)
        if not name.strip():
            return ""
        try:
            return display_names.check(name)
        except display_names.NameRefused as refused:
            raise ValidationError(refused.reason) from None


class TimeZone(fields.String):
    """A time zone's IANA name (any case; a city alone, "tokyo", when it names one zone),
    answered as the database spells it; one it does not have is a 422 saying why
    (server/services/time_zones.py)."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return time_zones.check(text)
        except time_zones.ZoneRefused as refused:
            raise ValidationError(str(refused)) from None


class StrictBoolean(fields.Boolean):
    """JSON true or false only, as the OpenAPI document says (marshmallow's Boolean also takes
    1, 0, "yes", "on" and the like)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _action() -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=500))


# --- problems -----------------------------------------------------------------------------
class ProblemSchema(ma.Schema):
    """RFC 9457 problem details; refusals of orders add legal_actions (and current_step)."""

    type = fields.String(metadata={"description": "URL documenting the problem type"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String(metadata={"description": "What went wrong, in the game's words"})
    errors = fields.Dict(metadata={"description": "Field errors of an invalid request"})
    legal_actions = fields.List(fields.String())
    current_step = fields.Integer()
    decision = fields.Dict()
    code = fields.String(metadata={"description": (
        "retract-refused: why the move cannot be taken back (nothing, sealed, chance, hidden, "
        "other_seat, not_handed_over, no_hold, deadline, bot_next, seen, hold_over, "
        "game_over)")})
    allowed = fields.List(fields.String(), metadata={
        "description": "absence-refused: what you may choose about the absent seat instead"})
    settled = fields.String(metadata={
        "description": "absence-refused (410): how the absent seat was settled"})


class ProblemTypeSchema(ma.Schema):
    type = fields.String()
    status = fields.Integer()
    title = fields.String()
    description = fields.String()


# --- users --------------------------------------------------------------------------------
class UserSchema(ma.Schema):
    id = fields.Integer()
    email = fields.String()
    display_name = fields.String(metadata={"description": (
        "The name you chose (empty: none; PATCH /me changes it)")})
    shown_name = fields.Function(
        lambda user: display_names.shown(user),
        metadata={"description": "The name others see: the one you chose, else \"Player "
                                 "<id>\" (never your address)"})
    locale = fields.String()
    time_zone = fields.String(metadata={"description": (
        "The IANA name of the zone the account's mails and pages show times in, with their "
        "offset (\"Asia/Tokyo\"; \"UTC\" until the first sign-in in a browser sets it)")})
    created_at = UTCDateTime()
    retract_hold_seconds = fields.Integer(metadata={"description": (
        "How long your moves that may be taken back are held (seconds, 0 to 900; 0: none): "
        "the next player's mails and webhooks wait that long, and until then, or until they "
        "have seen the move, POST /games/{id}/retract takes it back")})
    email_verified = fields.Function(
        lambda user: getattr(user, "email_verified_at", None) is not None,
        metadata={"description": "Whether the address is proven (by a link mailed to it): "
                                 "only then does it claim seats reserved for it"})


NAME_RULE = (
    f"1 to {display_names.MAX_LENGTH} letters (any script), digits, spaces and the marks "
    ". - ' ’ _ ・, with at least one letter or digit: a name, not a sentence, so nothing in it "
    "can read as a link or an address (no @, no www., a full stop only at the end of a word, "
    "as in \"J. Smith\"), break a line of a mail or turn the text around it (no invisible or "
    "direction characters). It is written in one script, or Latin with one that does not look "
    "like it (Japanese, Korean; not Cyrillic or Greek), and may not look like a name the server "
    "shows itself (\"Player <id>\", a deleted player, the site or its staff), so that nobody "
    "can pass for another")


class SignupSchema(ma.Schema):
    email = fields.Email(required=True, validate=validate.Length(max=320))
    display_name = DisplayName(load_default="", metadata={"description": (
        NAME_RULE + ". Others see it in quotation marks; without one, they see \"Player "
        "<id>\", never the address")})
    locale = fields.String(load_default="en", validate=[validate.Length(max=35), LOCALE])

    @pre_load
    def _strip(self, data, **_kwargs):
        if isinstance(data, dict):
            return {k: v.strip() if isinstance(v, str) else v for k, v in data.items()}
        return data


class UserChangeSchema(ma.Schema):
    """The account settings PATCH /me changes: those sent, the others kept."""
    display_name = DisplayName(metadata={"description": (
        "The name others see in invitations, games, table talk, mails and the ladder: "
        + NAME_RULE + ". Empty: no name, and others see \"Player <id>\", never your address. "
        "A name the rule refuses is a 422 saying why")})
    retract_hold_seconds = fields.Integer(strict=True, validate=validate.Range(min=0, max=900),
                                          metadata={"description": (
                                              "How long your retractable moves are held, in "
                                              "seconds (0: not held, final at once)")})
    time_zone = TimeZone(validate=validate.Length(min=1, max=times.MAX_LENGTH),
                         metadata={"description": (
                             "The IANA name of a time zone, like Asia/Tokyo, Europe/Madrid or "
                             "UTC (any case; a city alone when it names one zone). The enum "
                             "lists the names as the database spells them"),
                             "example": "Asia/Tokyo", "enum": list(times.offered())})

    @validates_schema
    def _something(self, data, **_kwargs):
        if not data:
            raise ValidationError({"time_zone": ["Missing data for required field: give "
                                                 "display_name, time_zone or "
                                                 "retract_hold_seconds (one or more)."]})


class SignupAcceptedSchema(ma.Schema):
    """The same answer for a new and for a known address: the token comes by mail."""
    email = fields.String(metadata={"description": "The address the mail went to"})
    detail = fields.String()


class TokenInfoSchema(ma.Schema):
    """An API token as listed: never the token itself (only its hash is kept)."""
    id = fields.Integer()
    created_at = UTCDateTime()
    last_used_at = UTCDateTime(allow_none=True)
    current = fields.Boolean(metadata={"description": "The token this request was made with"})


class TokenSchema(ma.Schema):
    token = fields.String(metadata={"description": "The API token; shown this once only"})


# --- games --------------------------------------------------------------------------------
def _options_description() -> str:
    """Each registered game's options with their defaults (engine GameInfo.option_defaults)."""
    def default(value) -> str:
        return "the game's standard" if value is None else json.dumps(value)
    return "Options by game, with their defaults: " + "; ".join(
        f"{game}: " + ", ".join(f"{key} ({default(value)})" for key, value
                                in engine.info(game).option_defaults.items())
        for game in engine.games()) + "."


class OptionsSchema(ma.Schema):
    """A game's options (all optional; which apply depends on the game type, and the engine
    judges the combination: a bad one is a 422 naming what is wrong). The fields are those of
    every registered game; the OpenAPI description lists each game's, from the engine."""

    class Meta:
        description = _options_description()

    edition = fields.String(validate=validate.OneOf(["gmt", "zman", "chalkboard", "dial"]))
    vp_cards = StrictBoolean()
    restricted_positioning = StrictBoolean()
    strategy_order = StrictBoolean(metadata={"description": (
        "1960, Z-Man edition: each player chooses the order of his Campaign Strategy cards on "
        "Election Day (default true); false resolves them in the order placed")})
    players = fields.Integer(strict=True, validate=validate.Range(min=2, max=4))
    version = fields.String(validate=validate.OneOf(["short", "long"]))
    count = fields.String(validate=validate.OneOf(["electoral", "popular"]))
    nominee = StrictBoolean()
    parties = fields.String(validate=validate.OneOf(["seats", "lot"]))
    plurality = StrictBoolean()


class TimingSchema(ma.Schema):
    """Time limits (all optional): hours per decision (0: none), reminders (hours before the
    deadline) and what a missed deadline does."""

    decision_hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 60),
                                    metadata={"description": "Default 72; 0: no time limit"})
    reminder_hours = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1)),
                                 validate=validate.Length(max=5),
                                 metadata={"description": "Default [24]"})
    on_deadline = fields.String(validate=validate.OneOf(["default", "forfeit"]),
                                metadata={"description": "default: the seat's filed default "
                                          "order, else the safe default; forfeit: the seat "
                                          "loses"})
    absent_after_missed = fields.Integer(
        strict=True, validate=validate.Range(min=0, max=10),
        metadata={"description": "Default 2: after this many deadlines missed in a row a seat "
                  "is absent, and the other players may claim the win, end the game unrated, "
                  "hand the seat to a bot or invite a replacement (0: never)"})


class NewGameSchema(ma.Schema):
    game_type = fields.String(required=True, validate=validate.OneOf(engine.games()))
    options = fields.Nested(OptionsSchema, load_default=dict)
    seats = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=50)),
                        values=fields.Email(allow_none=True, validate=validate.Length(max=320)),
                        load_default=dict,
                        metadata={"description": "Every seat: the email invited to it, or "
                                                 "null (anybody with its code may take it)"})
    public = StrictBoolean(load_default=False)
    timing = fields.Nested(TimingSchema, load_default=dict)
    bots = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=50)),
                       values=fields.String(validate=validate.Length(min=1, max=20)),
                       load_default=dict,
                       metadata={"description": "Seats played by bots: seat -> level "
                                                "(GET /games/bots lists each game's). Such a "
                                                "seat needs no entry in seats"})
    bot_delay_seconds = fields.Integer(load_default=0, strict=True,
                                       validate=validate.Range(min=0, max=30),
                                       metadata={"description": "Seconds a bot waits before "
                                                                "it answers (0-30)"})
    spectator_chat = StrictBoolean(load_default=False, metadata={
        "description": "Open a spectators' chat beside the players' table talk (never mixed: "
                       "see GET /games/{id}/chat)"})
    start_by_hand = StrictBoolean(load_default=False, metadata={
        "description": "Wait for POST /games/{id}/start once every seat is taken (default: "
                       "the game starts by itself then, at once when the others are bots)"})
    random_side = StrictBoolean(load_default=False, metadata={
        "description": "The server draws which of the seats not given to bots is yours (your "
                       "address may be given for any seat; the others' move with the draw)"})


class BotLevelsSchema(ma.Schema):
    games = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                        metadata={"description": "game_type -> its bot levels, weakest first"})


class GamesQuerySchema(ma.Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))


class SeatSchema(ma.Schema):
    seat = fields.String()
    player = fields.String(allow_none=True, metadata={
        "description": "The display name the player chose, else \"Player <id>\""})
    joined = fields.Boolean()
    invited = fields.Boolean(metadata={"description": "Reserved for an invited address"})
    bot = fields.String(allow_none=True, metadata={"description": "The level of the bot "
                                                                  "playing the seat, if one is"})


class GameSummarySchema(ma.Schema):
    id = fields.Integer()
    game_type = fields.String()
    options = fields.Dict()
    status = fields.String(metadata={"description": "open | active | finished"})
    step = fields.Integer(metadata={"description": "Version of the current decision"})
    public = fields.Boolean()
    creator = fields.String(allow_none=True, metadata={
        "description": "The display name the creator chose, else \"Player <id>\""})
    created_at = UTCDateTime()
    finished_at = UTCDateTime(allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema))
    seed_hash = fields.String(metadata={"description": "sha256 of the seed, shown from the start"})
    seed = fields.String(allow_none=True, metadata={"description": "Shown once the game is over"})
    result = fields.Dict(allow_none=True)
    role = fields.String(metadata={"description": "player | creator | invited | spectator | "
                                                  "visitor"})
    your_seat = fields.String(allow_none=True)
    your_move = fields.Boolean()
    timing = fields.Dict(metadata={"description": "decision_hours, reminder_hours, "
                                                  "on_deadline, absent_after_missed"})
    deadline_at = UTCDateTime(allow_none=True, metadata={
        "description": "When the current decision's time runs out (null: no time limit)"})
    held_until = UTCDateTime(allow_none=True, metadata={
        "description": "Another player's last move may still be taken back until then (or "
                       "until its next player shows it on the game page): until it is final "
                       "you see the game as it was before it (step, view, log, decision), "
                       "with no deadline. Null when nothing is held from you"})


class MyGameSchema(GameSummarySchema):
    unread_chat = fields.Integer(metadata={
        "description": "Table-talk lines you have not read in this game: of the players' chat "
                       "for a game you play, of the spectators' chat for one you follow (the "
                       "channel you post in, as the lobby page counts them); your own lines "
                       "and those of users you mute are not counted"})


class OpenGameSchema(GameSummarySchema):
    free_seats = fields.List(fields.String(), metadata={
        "description": "The seats anybody signed in may take (POST /games/{id}/join with the "
                       "seat): free, not a bot's, and reserved for no invited address"})


class GameSchema(GameSummarySchema):
    view = fields.Dict(allow_none=True,
                       metadata={"description": "The game as your seat may see it (spectators: "
                                                "the public view); null before the start"})
    not_reached = fields.List(fields.String(), metadata={
        "description": "The seats the current deadline waits for: nothing has reached their "
                       "player since the decision opened (no mail taken by their mail server, "
                       "no webhook answered, no visit to the game page), so the seat is "
                       "neither played by default nor forfeited until something does"})


class NewGameResultSchema(ma.Schema):
    game = fields.Nested(GameSchema)
    invitations = fields.Dict(keys=fields.String(), values=fields.String(),
                              metadata={"description": "Each seat's invitation code; shown "
                                                       "this once only"})


class JoinSchema(ma.Schema):
    seat = fields.String(validate=validate.Length(min=1, max=50))
    code = fields.String(validate=validate.Length(min=1, max=200))


class NewCodeSchema(ma.Schema):
    seat = fields.String(required=True, validate=validate.Length(min=1, max=50), metadata={
        "description": "A free seat of the open game (not a bot's)"})


class NewCodeResultSchema(ma.Schema):
    seat = fields.String()
    code = fields.String(metadata={"description": "The seat's new invitation code (its old "
                                                 "one stops working); shown this once only"})


class DecisionSchema(ma.Schema):
    seat = fields.String()
    step = fields.Integer()
    active = fields.Boolean(metadata={"description": "You are asked something now"})
    prompt = fields.String(allow_none=True)
    legal_actions = fields.List(fields.String())
    simultaneous = fields.Boolean()
    your_order = fields.List(fields.String(), allow_none=True,
                             metadata={"description": "Your sealed order (simultaneous steps)"})
    committed = fields.Integer(metadata={"description": "Seats that have sealed their order"})
    waiting_for = fields.List(fields.String())
    held_until = fields.String(allow_none=True, metadata={
        "format": "date-time",
        "description": "Another player's last move may still be taken back until then: this "
                       "is your decision as it was before it (POST /games/{id}/show-move shows "
                       "the move now, and makes it final). Null when nothing is held from you"})


class LogEntrySchema(ma.Schema):
    seq = fields.Integer()
    seat = fields.String()
    action = fields.String()
    chance = fields.Boolean()


class LogSchema(ma.Schema):
    game_id = fields.Integer()
    game_type = fields.String()
    options = fields.Dict()
    seed_hash = fields.String()
    seed = fields.String(allow_none=True)
    complete = fields.Boolean(metadata={"description": "The full record (the game is over)"})
    entries = fields.List(fields.Nested(LogEntrySchema))


# --- orders -------------------------------------------------------------------------------
def _policy_field(kind: str, values: tuple[str, ...]) -> fields.Field:
    """The field of a standing order some game declares (engine GameInfo.standing_policies)."""
    games = [g for g in engine.games() if kind in engine.info(g).standing_policies]
    return fields.String(allow_none=True, validate=validate.OneOf(values), metadata={
        "description": f"Answers the {kind} decision of {', '.join(games)} in advance: one of "
                       f"{', '.join(values)} (ask or null: none filed, the server asks)"})


StandingOrdersSchema = type("StandingOrdersSchema", (ma.Schema,), {
    "__doc__": """A seat's standing orders; "ask" (or null) means none: the server asks. A
    game's policies are those the registered games declare (server/services/standing.py).""",
    "__module__": __name__,
    "seat": fields.String(dump_only=True),
    **{kind: _policy_field(kind, values) for kind, values in standing.policies().items()},
    standing.DEADLINE_DEFAULT: fields.List(
        fields.String(validate=validate.Length(min=1, max=200)), allow_none=True,
        validate=validate.Length(max=standing.MAX_DEFAULT_LINES),
        metadata={"description": "Order lines for your next missed deadline: the first legal "
                                 "then is applied, once"}),
})


class OrderSchema(ma.Schema):
    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                          metadata={"description": "The step the order answers"})
    actions = fields.List(_action(), validate=validate.Length(min=1, max=100),
                          metadata={"description": "Actions in the game's notation, in order"})
    action = _action()
    seat = fields.String(validate=validate.Length(min=1, max=50),
                         metadata={"description": "Optional; must be your own seat"})

    @validates_schema
    def _one_of_action_or_actions(self, data, **_kwargs):
        if ("actions" in data) == ("action" in data):
            raise ValidationError("Give either 'actions' (a list) or 'action' (one), not both "
                                  "and not neither.", "_schema")

    def load(self, data, *, many=None, partial=None, unknown=None):
        """An order of the plain shape is taken as it is; anything else is loaded (and
        refused) by the fields above. Measured: marshmallow's load was a thirtieth of an
        order's CPU (bench/order_throughput.py). tests/server/api/test_order_schema.py holds
        the two to the same answer for any input (hypothesis)."""
        if many is None and partial is None and unknown in (None, ma.RAISE) and \
                plain_order(data):
            return dict(data)
        return super().load(data, many=many, partial=partial, unknown=unknown)


_ORDER_KEYS = frozenset(("step", "actions", "action", "seat"))


def plain_order(data) -> bool:
    """Whether ``data`` is an order OrderSchema takes as it is: a JSON object of its fields
    only, with either 'actions' or 'action', of their types and lengths."""
    if type(data) is not dict or not data.keys() <= _ORDER_KEYS:
        return False
    step = data.get("step")
    if type(step) is not int or step < 0:
        return False
    if "actions" in data:
        actions = data["actions"]
        if "action" in data or type(actions) is not list or not 1 <= len(actions) <= 100:
            return False
    elif "action" in data:
        actions = (data["action"],)
    else:
        return False
    for action in actions:
        if type(action) is not str or not 1 <= len(action) <= 500:
            return False
    seat = data.get("seat", "s")
    return type(seat) is str and 1 <= len(seat) <= 50


# OrderSchema's rule of exactly one of 'actions' and 'action', in the OpenAPI document too
# (server/api/blueprints.py registers it with the schema), so that clients know it in advance.
ORDER_ONE_OF = {"oneOf": [{"required": ["actions"]}, {"required": ["action"]}]}


class OrderAppliedSchema(ma.Schema):
    applied = fields.List(fields.String(), metadata={"description": "Canonical actions applied"})
    stopped_at = fields.Integer(allow_none=True,
                                metadata={"description": "Index of the first action not applied"})
    reason = fields.String(allow_none=True, metadata={"description": "Why the order stopped"})
    legal_actions = fields.List(fields.String(),
                                metadata={"description": "When it stopped: what is legal now"})
    step = fields.Integer(metadata={"description": "The game's step now"})
    status = fields.String()
    decision = fields.Nested(DecisionSchema)
    retract_until = fields.String(allow_none=True, metadata={"format": "date-time",
                                                              "description": (
        "Until when you may take this move back (POST /games/{id}/retract with this step), "
        "if the next player has not seen it; null: the move is final")})


class RetractSchema(ma.Schema):
    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                          metadata={"description": "The game's step now: the one your move "
                                                   "led to"})


class RetractedSchema(ma.Schema):
    retracted = fields.Boolean()
    step = fields.Integer(metadata={"description": "The game's new step: your decision again"})
    decision = fields.Nested(DecisionSchema)


class OrderSealedSchema(ma.Schema):
    sealed = fields.Boolean()
    your_order = fields.List(fields.String())
    all_committed = fields.Boolean()
    step = fields.Integer()

"""The payloads of issue 27's account endpoints: private notes, your data, deleting the
account (server/api/notes.py, server/api/your_data.py)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.api.schemas import UTCDateTime
from server.services import notes


class NotesSchema(ma.Schema):
    """Your private notes in a game: shown to nobody else, ever."""
    game_id = fields.Integer(dump_only=True)
    seat = fields.String(dump_only=True, metadata={"description": "Your seat in the game"})
    text = fields.String(required=True, validate=validate.Length(max=notes.MAX_CHARS),
                         metadata={"description": f"Plain text, up to {notes.MAX_CHARS} "
                                                  "characters (empty: no notes)"})
    updated_at = UTCDateTime(dump_only=True, allow_none=True, metadata={
        "description": "When the notes last changed; null: never written"})


class ExportSchema(ma.Schema):
    """Everything the server holds about you, by section (server/services/export.py)."""
    class Meta:
        unknown = ma.INCLUDE

    format = fields.String(metadata={"description": "\"whistlestop-export\" and its version"})
    exported_at = fields.String(metadata={"description": "ISO 8601, UTC"})
    account = fields.Dict(metadata={"description": "Address, names, language, time zone, "
                                                   "mail settings, when the address was proven"})
    tokens = fields.List(fields.Dict(), metadata={
        "description": "Your API tokens: id, made, last used (never a token)"})
    games = fields.List(fields.Dict(), metadata={
        "description": "Each game you hold a seat in: game, seat, status, result, your "
                       "orders, standing orders and the log as your seat's view shows it"})
    notes = fields.List(fields.Dict(), metadata={"description": "Your notes, by game"})
    webhooks = fields.List(fields.Dict())
    following = fields.List(fields.Integer(), metadata={"description": "Games you follow"})
    # A section another service registers (services/export.py) is dumped only when named
    # here: a response schema leaves out what it does not name.
    chat = fields.List(fields.Dict(), metadata={
        "description": "Your table-talk lines: game, channel, seat, text, time"})


class DeleteQuerySchema(ma.Schema):
    confirm = fields.String(required=True, validate=validate.Length(max=320), metadata={
        "description": "Your account's address, typed again: the confirmation"})
    hand_over = fields.Boolean(load_default=False, truthy={"true"}, falsy={"false"}, metadata={
        "description": "true: delete even though you hold seats in unfinished games; each "
                       "is played by its deadline's default from now on (a game with no "
                       "deadline: the seat resigns); an open game's seat is freed"})


class SeatHeldSchema(ma.Schema):
    game_id = fields.Integer()
    game_type = fields.String()
    seat = fields.String()
    status = fields.String()
    url = fields.String()


class DeletedSchema(ma.Schema):
    deleted = fields.Boolean()
    handed_over = fields.List(fields.Nested(SeatHeldSchema))
    kept = fields.String(metadata={"description": "What the server keeps, and why"})

"""The payloads of departed and vanished players (issue 46, item 1; server/api/absences.py)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

CHOICES_TEXT = ("claim (the win: two seats only, while no bot plays the seat; rated as a win "
                "by forfeit), end (the game, unrated: at once with two seats, once every "
                "present player asked it with three or four), bot (the game's strongest bot "
                "plays the seat; the game is then unrated), replace (a one-time code with "
                "which another person takes the seat; the game is then unrated)")


class AbsenceSchema(ma.Schema):
    id = fields.Integer()
    seat = fields.String(metadata={"description": "The absent seat"})
    reason = fields.String(metadata={
        "description": "left (its player deleted their account) or silent (its player missed "
                       "the game's absent_after_missed deadlines in a row)",
        "enum": ["left", "silent"]})
    missed = fields.Integer(metadata={
        "description": "The deadlines its player has missed in a row (0 for one who left)"})
    since = fields.DateTime()
    step = fields.Integer(metadata={"description": "The game's step when it was found"})
    bot = fields.String(allow_none=True, metadata={
        "description": "The level of the bot playing the seat meanwhile (null: none; with "
                       "three or four seats a bot takes it at once)"})
    bot_by = fields.String(allow_none=True, metadata={
        "description": "The seat that handed it to the bot (null: the server, at once)"})
    wants_end = fields.List(fields.String(), metadata={
        "description": "The seats that asked to end the game unrated (every present player "
                       "must, with three or four seats)"})
    invited_by = fields.String(allow_none=True, metadata={
        "description": "The seat that invited a replacement (its code still good until "
                       "somebody takes the seat, or another replaces it); never the address"})
    choices = fields.List(fields.String(), metadata={
        "description": "What you may choose about this seat now (empty: nothing, you are "
                       "no present player of the game). " + CHOICES_TEXT})


class AbsencesSchema(ma.Schema):
    your_seat = fields.String(allow_none=True, metadata={
        "description": "Your seat in the game (null: you play none)"})
    absent_after_missed = fields.Integer(metadata={
        "description": "The game's option: after how many missed deadlines in a row a player "
                       "is absent (0: never)"})
    absences = fields.List(fields.Nested(AbsenceSchema), metadata={
        "description": "The game's absent seats nobody has settled yet"})
    come_back = fields.Boolean(metadata={
        "description": "Whether you may take your own seat back from the bot that plays it "
                       "(POST .../come-back)"})


class ChooseSchema(ma.Schema):
    choice = fields.String(required=True, validate=validate.Length(min=1, max=20), metadata={
        "description": CHOICES_TEXT, "example": "bot"})
    invite_email = fields.Email(load_default=None, allow_none=True,
                                validate=validate.Length(max=320), metadata={
        "description": "For replace: an address the server mails the invitation to "
                       "(optional; the code is answered to you either way)"})


class ChosenSchema(AbsencesSchema):
    done = fields.String(metadata={
        "description": "claimed (the game is over: you won by forfeit), ended (over, "
                       "unrated), asked_end (your ask is recorded; the others are asked), "
                       "bot (a bot plays the seat), invited (a replacement's code: below)",
        "enum": ["claimed", "ended", "asked_end", "bot", "invited"]})
    seat = fields.String(metadata={"description": "The absent seat"})
    code = fields.String(metadata={
        "description": "invited: the replacement's one-time code, shown this once (only its "
                       "sha256 is kept); give it, or take_seat_url, to whoever takes the seat"})
    take_seat_url = fields.String(metadata={
        "description": "invited: the page where a signed-in person takes the seat with it"})


class TakeSeatSchema(ma.Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={
        "description": "The replacement's one-time code a player of the game gave you"})


class SeatTakenSchema(ma.Schema):
    seat = fields.String(metadata={"description": "The seat that is now yours"})
    game_id = fields.Integer()

"""The payloads of vacations, quiet hours, pauses and extensions (server/api/schedule.py)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate


class VacationSchema(ma.Schema):
    id = fields.Integer(dump_only=True)
    first_day = fields.Date(required=True, metadata={
        "description": "The first day away, a date in your time zone (00:00 that day)"})
    last_day = fields.Date(required=True, metadata={
        "description": "The last day away (the vacation ends at 00:00 after it)"})
    starts_at = fields.DateTime(dump_only=True)
    ends_at = fields.DateTime(dump_only=True)
    days = fields.Integer(dump_only=True, metadata={
        "description": "Whole days it takes from the allowance of its first day's year"})
    ongoing = fields.Boolean(dump_only=True)


class VacationsSchema(ma.Schema):
    allowance = fields.Integer(metadata={"description": "Whole days a calendar year"})
    notice_hours = fields.Float(metadata={
        "description": "How long before its first day a vacation must be booked"})
    used_this_year = fields.Integer()
    left_this_year = fields.Integer()
    vacations = fields.List(fields.Nested(VacationSchema), metadata={
        "description": "Your vacations not over yet, earliest first"})


class VacationEndSchema(ma.Schema):
    result = fields.String(metadata={
        "description": "cancelled (a future vacation: its days come back) or ended (one under "
                       "way, ended now: the whole days not begun come back)",
        "enum": ["cancelled", "ended"]})


class QuietHoursSchema(ma.Schema):
    # Both required (null allowed): a PUT without them is refused, not read as "off".
    start = fields.String(required=True, allow_none=True,
                          validate=validate.Length(max=5),
                          metadata={"description": "HH:MM, local time in your zone; null "
                                                   "with end null: off", "example": "22:30"})
    end = fields.String(required=True, allow_none=True, validate=validate.Length(max=5),
                        metadata={"description": "HH:MM; earlier than start: across midnight",
                                  "example": "07:00"})
    time_zone = fields.String(dump_only=True)


class AnswerSchema(ma.Schema):
    agree = fields.Boolean(required=True, metadata={"description": "true: agree (grant); "
                                                                   "false: refuse"})


class PauseSchema(ma.Schema):
    id = fields.Integer()
    status = fields.String(metadata={"enum": ["asked", "paused", "resumed", "refused",
                                              "expired"]})
    asked_by = fields.String()
    agreed = fields.List(fields.String())
    asked_at = fields.DateTime()
    started_at = fields.DateTime(allow_none=True)
    resumed_at = fields.DateTime(allow_none=True)


class ExtensionSchema(ma.Schema):
    id = fields.Integer()
    seat = fields.String()
    step = fields.Integer()
    hours = fields.Integer(metadata={"description": "One more decision period of the game"})
    status = fields.String(metadata={"enum": ["asked", "granted", "refused", "expired"]})
    answered_by = fields.String(allow_none=True)


class AwaySchema(ma.Schema):
    seat = fields.String()
    until = fields.DateTime()


class ScheduleSchema(ma.Schema):
    deadline_at = fields.DateTime(allow_none=True)
    clock_stopped = fields.Boolean(metadata={
        "description": "Whether the decision's clock is stopped (a pause, or a vacation)"})
    pause = fields.Nested(PauseSchema, allow_none=True,
                          metadata={"description": "The pause asked or in force"})
    extensions = fields.List(fields.Nested(ExtensionSchema))
    away = fields.List(fields.Nested(AwaySchema), metadata={
        "description": "The seats whose players are on vacation, and until when (told to "
                       "the game's players only: a vacation is its player's own business)"})

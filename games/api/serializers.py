"""Parse requests and format answers; no domain logic here (see games.services)."""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clocks.timecontrol import MAX_DAYS, MAX_INCREMENT_HOURS, ClockKind, TimeControl
from core.api import ErrorSerializer  # noqa: F401  (re-exported for the views)
from games.models import Challenge, Color, Game

# --- Requests ------------------------------------------------------------------------


class ClockRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=ClockKind.choices,
        default=ClockKind.PER_TURN,
        help_text=_(
            "per_turn: `days` for each turn. bank: a bank of `days` days, "
            "`increment_hours` added after each turn, capped at the initial bank."
        ),
    )
    days = serializers.IntegerField(
        min_value=1,
        max_value=MAX_DAYS,
        help_text=_("per_turn: 1, 2, 3, 5, 7, 10 or 14. bank: the initial bank, 1 to 30."),
    )
    increment_hours = serializers.IntegerField(
        min_value=0, max_value=MAX_INCREMENT_HOURS, default=0
    )
    weekend_pause = serializers.BooleanField(
        default=False,
        help_text=_("The clocks stop on Saturday and Sunday in the player's time zone."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        problems = clock_request_value(attrs).errors()
        if problems:
            raise serializers.ValidationError(problems)
        return attrs


def clock_request_value(clock: dict[str, Any]) -> TimeControl:
    """The TimeControl of a validated ClockRequestSerializer's data."""
    return TimeControl.from_hours(
        kind=clock["kind"],
        days=clock["days"],
        increment_hours=clock["increment_hours"],
        weekend_pause=clock["weekend_pause"],
    )


class ChallengeRequestSerializer(serializers.Serializer):
    opponent = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        help_text=_("Username of the challenged player; null or absent for an open challenge."),
    )
    color = serializers.ChoiceField(
        choices=Challenge.ColorChoice.choices, default=Challenge.ColorChoice.RANDOM
    )
    opening = serializers.ChoiceField(
        choices=Challenge.Opening.choices, default=Challenge.Opening.STANDARD
    )
    days_per_turn = serializers.IntegerField(min_value=1, max_value=MAX_DAYS, default=3)
    rated = serializers.BooleanField(default=True)
    clock = ClockRequestSerializer(
        required=False,
        help_text=_("Time control; overrides days_per_turn. Absent: days_per_turn days per turn."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The service takes one TimeControl: the clock object, or days_per_turn days
        # per turn without it.
        attrs["time_control"] = time_control_request(attrs)
        return attrs


def time_control_request(attrs: dict[str, Any]) -> TimeControl:
    """Pop `clock` and `days_per_turn` from validated request data: their TimeControl."""
    clock = attrs.pop("clock", None)
    days = attrs.pop("days_per_turn", 3)
    if clock is not None:
        return clock_request_value(clock)
    return TimeControl.per_turn(days)


class TurnRequestSerializer(serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=1, help_text=_("Number of the turn being submitted; the first turn is 1.")
    )
    turn = serializers.CharField(
        max_length=64, trim_whitespace=True, help_text=_("Turn notation, e.g. D2-D4,D4P.")
    )


class SetupRequestSerializer(serializers.Serializer):
    white = serializers.CharField(max_length=4, help_text=_("Cell of the White adaptoid, e.g. C3."))
    black = serializers.CharField(max_length=4, help_text=_("Cell of the Black adaptoid, e.g. E5."))


class ChooseRequestSerializer(serializers.Serializer):
    color = serializers.ChoiceField(choices=Color.choices)


class GameFilterSerializer(serializers.Serializer):
    player = serializers.CharField(
        required=False, max_length=150, help_text=_("Username, either colour.")
    )
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)
    since = serializers.DateTimeField(
        required=False, help_text=_("Created at or after (ISO 8601 date or time).")
    )
    until = serializers.DateTimeField(
        required=False, help_text=_("Created before (ISO 8601 date or time).")
    )


class ChallengeFilterSerializer(serializers.Serializer):
    open = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_("List the open challenges anybody may accept instead of mine."),
    )


# --- Answers ---------------------------------------------------------------------------


class ClockSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ClockKind.choices)
    days = serializers.IntegerField(help_text=_("Days per turn, or the initial time bank."))
    increment_hours = serializers.FloatField(help_text=_("Bank increment per turn (0 per turn)."))
    weekend_pause = serializers.BooleanField()
    vacation_allowed = serializers.BooleanField(
        help_text=_("False when a tournament forbids vacation: the clocks never stop.")
    )
    white_remaining = serializers.IntegerField(help_text=_("Seconds left on White's clock now."))
    black_remaining = serializers.IntegerField(help_text=_("Seconds left on Black's clock now."))
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text=_("When the running clock reaches zero; null if stopped (vacation) or over."),
    )
    paused = serializers.BooleanField(
        help_text=_("The running clock is stopped now (vacation or weekend), or the game is over.")
    )
    running = serializers.ChoiceField(
        choices=Color.choices, allow_null=True, help_text=_("Whose clock runs.")
    )


class GameSerializer(serializers.ModelSerializer):
    white = serializers.CharField(source="white.username")
    black = serializers.CharField(source="black.username")
    to_move = serializers.ChoiceField(choices=Color.choices, allow_null=True)
    turns = serializers.SerializerMethodField()
    termination = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField()
    draw_offer = serializers.SerializerMethodField(
        help_text=_("The colour whose draw offer stands (games/{id}/draw), else null.")
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "white",
            "black",
            "status",
            "opening",
            "position",
            "ply",
            "to_move",
            "turns",
            "result",
            "termination",
            "start_position",
            "rated",
            "days_per_turn",
            "deadline",
            "clock",
            "draw_offer",
            "created",
            "updated",
            "finished",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=Color.choices, allow_null=True))
    def get_draw_offer(self, game: Game) -> str | None:
        return game.draw_offer or None

    def get_turns(self, game: Game) -> list[str]:
        # The texts play_turn left on the game, else the prefetched turns (ordered by ply).
        if game.turn_texts is not None:
            return list(game.turn_texts)
        return [turn.text for turn in game.turns.all()]

    def get_termination(self, game: Game) -> str | None:
        return game.termination or None

    @extend_schema_field(ClockSerializer)
    def get_clock(self, game: Game) -> dict[str, Any]:
        from django.utils import timezone

        from clocks.state import clock_state

        return _bound(ClockSerializer).to_representation(clock_state(game, timezone.now()))


class ChallengeSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username")
    opponent = serializers.CharField(source="opponent.username", allow_null=True, default=None)
    game: serializers.PrimaryKeyRelatedField[Game] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )
    # Stored in seconds (clocks.models.TimeControlFields); the API speaks whole hours.
    increment_hours = serializers.IntegerField(
        source="time_control.increment_hours", read_only=True, label=_("Increment (hours)")
    )

    class Meta:
        model = Challenge
        fields = [
            "id",
            "created_by",
            "opponent",
            "color",
            "opening",
            "days_per_turn",
            "clock_kind",
            "increment_hours",
            "weekend_pause",
            "rated",
            "status",
            "game",
            "created",
            "updated",
        ]
        read_only_fields = fields


class AcceptedSerializer(serializers.Serializer):
    game = GameSerializer()


class LegalTurnsSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text=_("Number of the next turn, to send with POST turns."))
    turns = serializers.ListField(child=serializers.CharField())


@functools.cache
def _bound(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    """One instance per serializer class, its fields bound once: DRF copies and binds
    every declared (and, for a ModelSerializer, introspected) field each time a
    serializer is made — a fifth of an API turn's CPU for the game answer.  Its
    ``to_representation`` keeps nothing of the instance it renders, so one serves all."""
    return serializer_class()


def game_payload(game: Game) -> dict[str, Any]:
    """GameSerializer(game).data, without binding its fields again (see _bound)."""
    return _bound(GameSerializer).to_representation(game)

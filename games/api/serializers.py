"""Parse requests and format answers; no domain logic here (see games.services)."""

from __future__ import annotations

from typing import Any

from django.utils.timezone import get_current_timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Challenge, ClockKind, Color, Game
from games.services import MAX_DAYS_PER_TURN

# --- Requests ------------------------------------------------------------------------


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True)
    password = serializers.CharField(
        max_length=256, trim_whitespace=False, style={"input_type": "password"}
    )


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
        max_value=MAX_DAYS_PER_TURN,
        help_text=_("per_turn: 1, 2, 3, 5, 7, 10 or 14. bank: the initial bank, 1 to 30."),
    )
    increment_hours = serializers.IntegerField(min_value=0, max_value=240, default=0)
    weekend_pause = serializers.BooleanField(
        default=False,
        help_text=_("The clocks stop on Saturday and Sunday in the player's time zone."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        from clocks.state import time_control_errors

        problems = time_control_errors(
            kind=attrs["kind"], days=attrs["days"], increment_hours=attrs["increment_hours"]
        )
        if problems:
            raise serializers.ValidationError(problems)
        return attrs


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
    days_per_turn = serializers.IntegerField(min_value=1, max_value=MAX_DAYS_PER_TURN, default=3)
    rated = serializers.BooleanField(default=True)
    clock = ClockRequestSerializer(
        required=False,
        help_text=_("Time control; overrides days_per_turn. Absent: days_per_turn days per turn."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The service takes flat keyword arguments: the clock object's days become
        # days_per_turn (per turn, or the initial bank).
        clock = attrs.pop("clock", None)
        if clock is not None:
            attrs["days_per_turn"] = clock["days"]
            attrs["clock_kind"] = clock["kind"]
            attrs["increment_hours"] = clock["increment_hours"]
            attrs["weekend_pause"] = clock["weekend_pause"]
        return attrs


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


class AccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


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
            "created",
            "updated",
            "finished",
        ]
        read_only_fields = fields

    def get_turns(self, game: Game) -> list[str]:
        # .all() uses the prefetched turns (default ordering: ply).
        return [turn.text for turn in game.turns.all()]

    def get_termination(self, game: Game) -> str | None:
        return game.termination or None

    @extend_schema_field(ClockSerializer)
    def get_clock(self, game: Game) -> dict[str, Any]:
        from django.utils import timezone

        from clocks.state import clock_state

        return ClockSerializer(clock_state(game, timezone.now())).data


class ChallengeSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username")
    opponent = serializers.CharField(source="opponent.username", allow_null=True, default=None)
    game = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

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


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    error = serializers.CharField()
    fields = serializers.DictField(
        required=False, help_text=_("Per-field messages (code 'invalid').")
    )


def game_payload(game: Game) -> dict[str, Any]:
    return GameSerializer(game).data


# --- The turn answer, without the serializer machinery -------------------------------

# One shared field only formats (ISO 8601, current time zone, "Z" for UTC) exactly as
# GameSerializer's date fields do.
_datetime = serializers.DateTimeField()


def _when(value: Any) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        return _datetime.to_representation(value)
    # What the field does for an aware value (current time zone, ISO 8601, "Z" for
    # UTC), without its detours through settings on every call.
    text = value.astimezone(get_current_timezone()).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def game_answer(game: Game, turn_texts: list[str]) -> dict[str, Any]:
    """``GameSerializer(game).data`` built by hand from a game with its players loaded and
    the texts of its turns: the same keys, order and values (a test compares the two),
    at a fraction of the cost of a ModelSerializer, which is rebuilt field by field on
    every use.  For the answer to a turn, the API's hottest path.
    """
    from django.utils import timezone

    from clocks.state import clock_state

    clock = clock_state(game, timezone.now())
    return {
        "id": game.pk,
        "white": game.white.username,
        "black": game.black.username,
        "status": game.status,
        "opening": game.opening,
        "position": game.position,
        "ply": game.ply,
        "to_move": game.to_move,
        "turns": list(turn_texts),
        "result": game.result,
        "termination": game.termination or None,
        "start_position": game.start_position,
        "rated": game.rated,
        "days_per_turn": game.days_per_turn,
        "deadline": _when(game.deadline),
        "clock": {
            "kind": clock["kind"],
            "days": clock["days"],
            "increment_hours": float(clock["increment_hours"]),
            "weekend_pause": bool(clock["weekend_pause"]),
            "vacation_allowed": bool(clock["vacation_allowed"]),
            "white_remaining": int(clock["white_remaining"]),
            "black_remaining": int(clock["black_remaining"]),
            "deadline": _when(clock["deadline"]),
            "paused": bool(clock["paused"]),
            "running": clock["running"],
        },
        "created": _when(game.created),
        "updated": _when(game.updated),
        "finished": _when(game.finished),
    }

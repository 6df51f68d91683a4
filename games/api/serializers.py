"""Parse requests and format answers; no domain logic here (see games.services)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.models import Challenge, Color, Game
from games.services import MAX_DAYS_PER_TURN

# --- Requests ------------------------------------------------------------------------


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True)
    password = serializers.CharField(
        max_length=256, trim_whitespace=False, style={"input_type": "password"}
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
    days_per_turn = serializers.IntegerField(min_value=1, max_value=MAX_DAYS_PER_TURN, default=3)
    rated = serializers.BooleanField(default=True)


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


class GameSerializer(serializers.ModelSerializer):
    white = serializers.CharField(source="white.username")
    black = serializers.CharField(source="black.username")
    to_move = serializers.ChoiceField(choices=Color.choices, allow_null=True)
    turns = serializers.SerializerMethodField()
    termination = serializers.SerializerMethodField()

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


class RecordSerializer(serializers.Serializer):
    headers = serializers.DictField(child=serializers.CharField())
    start = serializers.CharField()
    turns = serializers.ListField(child=serializers.CharField())
    result = serializers.CharField()
    text = serializers.CharField(help_text=_("The same record as .agn text."))


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    error = serializers.CharField()
    fields = serializers.DictField(
        required=False, help_text=_("Per-field messages (code 'invalid').")
    )


def game_payload(game: Game) -> dict[str, Any]:
    return GameSerializer(game).data

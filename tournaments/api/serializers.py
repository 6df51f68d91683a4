"""API shapes of tournaments. Parsing and formatting only: the rules live in services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.api.serializers import ClockRequestSerializer, time_control_request
from games.models import Game
from tournaments import pairing, selectors, services
from tournaments.models import Pairing, PairingRules, PairingSystem, Participant, Tournament

# The API speaks points as decimal strings ("1", "0.5", "0"); half-points stay inside.
BYE_POINTS = {"1": 2, "0.5": 1, "0": 0}


def points_text(half_points: int) -> str:
    return pairing.format_points(half_points, ascii=True)


class TournamentSerializer(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    bye_points = serializers.SerializerMethodField()
    tiebreaks = serializers.ListField(source="tiebreak_list", child=serializers.CharField())
    players = serializers.IntegerField(source="player_count", read_only=True)
    rules_version = serializers.SerializerMethodField(
        help_text=_("Swiss: the pairing rules in force (the package's RULES_VERSION).")
    )
    registration_open = serializers.SerializerMethodField()
    start_error = serializers.SerializerMethodField(
        help_text=_(
            "Why the last start failed (the tournament is back in registration); empty "
            "otherwise. While the start job runs, the status is starting."
        )
    )
    # The games' time control, as a challenge shows it (stored in seconds).
    increment_hours = serializers.IntegerField(
        source="time_control.increment_hours",
        read_only=True,
        help_text=_("Time bank only: hours added after each turn."),
    )

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "organiser", "format", "status", "rounds", "current_round",
            "opening", "days_per_turn", "clock_kind", "increment_hours", "weekend_pause",
            "rated", "registration_opens", "starts_at",
            "max_players", "bye_points", "tiebreaks", "all_at_once", "allow_bots",
            "late_entries", "half_point_byes", "pairing_system", "pairing_rules", "tie_rule", "players",
            "rules_version", "registration_open", "created", "started", "finished",
            "arbiter_publishes", "avoid_same_club", "start_error",
        ]  # fmt: skip
        read_only_fields = fields

    def get_start_error(self, tournament: Tournament) -> str:
        # Stored in English (a job wrote it), shown in the reader's language.
        return gettext(tournament.start_error) if tournament.start_error else ""

    def get_bye_points(self, tournament: Tournament) -> str:
        return points_text(tournament.bye_points)

    def get_rules_version(self, tournament: Tournament) -> str:
        return str(selectors.describe(tournament)["rules_version"])

    def get_registration_open(self, tournament: Tournament) -> bool:
        return selectors.registration_is_open(tournament)


class ParticipantSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    is_bot = serializers.BooleanField(source="user.profile.is_bot")

    half_point_byes = serializers.SerializerMethodField(
        help_text=_("Swiss: the rounds this player asked to sit out for half a point.")
    )

    class Meta:
        model = Participant
        fields = [
            "username", "seed", "rating", "is_bot", "joined", "withdrawn", "absent",
            "half_point_byes", "club",
        ]  # fmt: skip
        read_only_fields = fields

    def get_half_point_byes(self, participant: Participant) -> list[int]:
        # Prefetched with the participants (see tournaments.api.views._detail).
        return sorted(request.round_number for request in participant.bye_requests.all())


class TournamentDetailSerializer(TournamentSerializer):
    participants = ParticipantSerializer(many=True, read_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "participants"]
        read_only_fields = fields


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    rounds = serializers.IntegerField(required=False, allow_null=True, help_text=_("Swiss only."))
    opening = serializers.ChoiceField(
        choices=[Game.Opening.STANDARD, Game.Opening.PIE], default=Game.Opening.STANDARD
    )
    days_per_turn = serializers.IntegerField(default=3)
    clock = ClockRequestSerializer(
        required=False,
        help_text=_(
            "The games' time control, as for a challenge; overrides days_per_turn. "
            "Absent: days_per_turn days per turn."
        ),
    )
    rated = serializers.BooleanField(default=True)
    registration_opens = serializers.DateTimeField(required=False, allow_null=True)
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text=_("Started automatically then.")
    )
    max_players = serializers.IntegerField(required=False, allow_null=True)
    bye_points = serializers.ChoiceField(choices=list(BYE_POINTS), default="1")
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=pairing.TIEBREAK_NAMES),
        required=False,
        help_text=_("FIDE acronyms in order; default SB, DE, WIN (round robin) or BH-C1, BH, DE."),
    )
    all_at_once = serializers.BooleanField(default=False)
    allow_bots = serializers.BooleanField(default=False)
    half_point_byes = serializers.IntegerField(
        default=1,
        help_text=_(
            "Swiss only: byes worth half a point that a player may ask for, each for a "
            "round not yet paired and not the last one."
        ),
    )
    pairing_system = serializers.ChoiceField(
        choices=PairingSystem.choices,
        default="dutch",
        help_text=_("Swiss only: dutch (FIDE C.04.3), burstein or dubov (C.04.4)."),
    )
    pairing_rules = serializers.ChoiceField(
        choices=PairingRules.choices,
        default=pairing.DEFAULT_RULES,
        help_text=_("Swiss, Dutch only: the FIDE rules of February 2026, or the earlier ones."),
    )
    tie_rule = serializers.ChoiceField(
        choices=Tournament.TieRule.choices,
        default=Tournament.TieRule.REPLAY,
        help_text=_(
            "Knockout only: a drawn match is replayed with the colours swapped (replay), "
            "won by the higher seed (seed) or by the player who had Black (black)."
        ),
    )
    late_entries = serializers.BooleanField(
        default=True,
        help_text=_(
            "Swiss only: players may join until half the rounds are paired; the rounds "
            "they missed count as zero-point byes."
        ),
    )

    arbiter_publishes = serializers.BooleanField(
        default=False,
        help_text=_("Swiss only: each round waits as a draft for the organiser to publish."),
    )
    avoid_same_club = serializers.BooleanField(
        default=False, help_text=_("Swiss only: players who gave the same club never meet.")
    )

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data["bye_points"] = BYE_POINTS[data["bye_points"]]
        data["time_control"] = time_control_request(data)
        return data


class JoinSerializer(serializers.Serializer):
    club = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=80,
        help_text=_("Optional: your club (a Swiss may keep players of one club apart)."),
    )


class ByeRequestSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text=_("The round to sit out (not yet paired)."))


class ByeRoundsSerializer(serializers.Serializer):
    rounds = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_("Every round the player has asked a half-point bye for."),
    )


class AbsentSerializer(serializers.Serializer):
    username = serializers.CharField(help_text=_("A player of the tournament."))
    absent = serializers.BooleanField(
        help_text=_("True: left out of the next rounds (zero-point byes); false: back.")
    )


class AdjudicationSerializer(serializers.Serializer):
    result = serializers.ChoiceField(
        choices=list(services.ADJUDICATIONS),
        help_text=_(
            "As the board shows it, White first: 1-0, 1/2-1/2, 0-1 (a played game), "
            "+- or -+ (a forfeit: the players have not met for pairing)."
        ),
    )


class TournamentFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["upcoming", "running", "finished", "cancelled"],
        required=False,
        help_text=_("upcoming = open for registration, scheduled or starting."),
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    seed = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    points = serializers.CharField(help_text=_("Decimal, e.g. 2.5"))
    tiebreaks = serializers.DictField(child=serializers.CharField())
    withdrawn = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    rounds = serializers.IntegerField(help_text=_("Rounds paired so far."))
    provisional = serializers.BooleanField(
        help_text=_("True while games are on: they count as nothing yet.")
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    standings = StandingSerializer(many=True)


def standings_payload(table: selectors.Standings) -> dict[str, Any]:
    return {
        "rounds": table.rounds,
        "provisional": table.provisional,
        "tiebreaks": list(table.tiebreaks),
        "standings": [
            {
                "rank": row.rank,
                "seed": row.participant.seed,
                "username": row.participant.user.username,
                "rating": row.participant.rating,
                "points": points_text(row.points),
                "tiebreaks": dict(row.tiebreaks),
                "withdrawn": row.participant.withdrawn is not None,
            }
            for row in table.rows
        ],
    }


class BoardPlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    seed = serializers.IntegerField()
    result = serializers.CharField(
        help_text=_("TRF code: 1 = 0 + - (forfeit) U (bye) Z; empty while playing.")
    )


class BoardSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    white = BoardPlayerSerializer()
    black = BoardPlayerSerializer(allow_null=True)
    game = serializers.IntegerField(allow_null=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    finished = serializers.BooleanField()
    boards = BoardSerializer(many=True)


def _side(participant: Participant, outcome: str) -> dict[str, Any]:
    return {"username": participant.user.username, "seed": participant.seed, "result": outcome}


def round_payload(number: int, rows: list[Pairing]) -> dict[str, Any]:
    return {
        "number": number,
        "finished": all(row.is_finished for row in rows),
        "boards": [
            {
                "board": row.board,
                "white": _side(row.white, row.white_outcome),
                "black": _side(row.black, row.black_outcome) if row.black else None,
                "game": row.game_id,
            }
            for row in rows
        ],
    }

"""Championship leagues: seasons of divisions, promotion and relegation, automatic rollover.

A ``League`` has members and seasons; each ``Season`` has divisions, and each
``Division`` *is* a round-robin ``Tournament`` with all its games at once, so its
pages, standings, crosstable and downloads are the tournament ones.  The split and
the moves between seasons are the pure ``tournaments.pairing.promotion``.

Life cycle: ``create_league`` → ``join_league`` / ``leave_league`` →
``start_league`` (season 1: members by rating in divisions of N) → division games
finish → the last division to finish (``services.finish_if_over`` calls
:func:`division_finished`) queues ``finish_season_task`` → :func:`finish_season`
closes the season and starts the next one (top k up, bottom k down, new members at
the bottom, those who left dropped).  The season row is locked and moved from
running to finished once, and season numbers are unique per league: a season rolls
over exactly once however often the job runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.timecontrol import DEFAULT as DEFAULT_TIME_CONTROL
from clocks.timecontrol import TimeControl
from core.division_names import division_name
from core.text import hidden_characters
from games.models import Game
from tournaments import errors, pairing, selectors, services
from tournaments.models import (
    Division,
    League,
    LeagueMember,
    Participant,
    Season,
    Tournament,
)
from tournaments.pairing import promotion

MAX_DIVISION_SIZE = 20
ROUND_ROBIN_TIEBREAKS = "SB,DE,WIN"  # the round robins' usual order (services)


def create_league(
    *,
    organiser: User,
    name: str,
    division_size: int = 6,
    promote: int = 1,
    opening: str = Game.Opening.STANDARD,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    rated: bool = True,
    allow_bots: bool = False,
) -> League:
    """A league open for members; every bad value is a field error (``invalid``)."""
    if not services.can_organise(organiser):
        raise errors.CannotOrganise()
    fields: dict[str, list[str]] = {}

    def bad(field: str, message: str) -> None:
        fields.setdefault(field, []).append(message)

    name = " ".join((name or "").split())
    if not name:
        bad("name", _("A name is required."))
    elif len(name) > services.MAX_NAME_LENGTH:
        bad("name", _("At most %(n)d characters.") % {"n": services.MAX_NAME_LENGTH})
    elif hidden_characters(name):
        bad(
            "name",
            _("The name contains invisible characters (%(codes)s).")
            % {"codes": ", ".join(hidden_characters(name))},
        )
    if not 2 <= division_size <= MAX_DIVISION_SIZE:
        bad("division_size", _("From 2 to %(n)d players.") % {"n": MAX_DIVISION_SIZE})
    elif not 1 <= promote <= division_size // 2:
        bad(
            "promote",
            _("From 1 to %(n)d: half a division at most.") % {"n": max(1, division_size // 2)},
        )
    if opening not in (Game.Opening.STANDARD, Game.Opening.PIE):
        bad("opening", _("Choose standard or pie."))
    for field, messages in time_control.errors(strict_days=False).items():
        for message in messages:
            bad("days_per_turn" if field == "days" else field, message)
    if fields:
        raise errors.InvalidTournament(next(iter(fields.values()))[0], fields=fields)
    return League.objects.create(
        name=name,
        organiser=organiser,
        division_size=division_size,
        promote=promote,
        opening=opening,
        time_control=time_control,  # type: ignore[misc]  # a property Model() takes (clocks.models)
        rated=rated,
        allow_bots=allow_bots,
    )


def _locked(league: League | int) -> League:
    pk = league if isinstance(league, int) else league.pk
    try:
        return League.objects.select_for_update().get(pk=pk)
    except League.DoesNotExist:
        raise errors.WrongTournamentState(_("This league does not exist.")) from None


def join_league(*, league: League, user: User) -> LeagueMember:
    """Become a member: in the next season to start, at the bottom (any time)."""
    with transaction.atomic():
        league = _locked(league)
        if services.profile_of(user).is_bot and not league.allow_bots:
            raise errors.BotsNotAllowed()
        member = LeagueMember.objects.filter(league=league, user=user).first()
        if member is not None:
            if member.left is None:
                raise errors.AlreadyJoined(_("You are already a member of this league."))
            member.left = None  # back after leaving
            member.save(update_fields=["left"])
            return member
        try:
            with transaction.atomic():
                return LeagueMember.objects.create(league=league, user=user)
        except IntegrityError:
            raise errors.AlreadyJoined(_("You are already a member of this league.")) from None


def leave_league(*, league: League, user: User) -> LeagueMember:
    """Not in the next seasons; a season being played is played to its end."""
    with transaction.atomic():
        league = _locked(league)
        member = LeagueMember.objects.filter(league=league, user=user, left__isnull=True).first()
        if member is None:
            raise errors.NotJoined(_("You are not a member of this league."))
        member.left = timezone.now()
        member.save(update_fields=["left"])
        return member


def _members_by_rating(
    league: League, exclude: frozenset[int] | set[int] = frozenset()
) -> list[int]:
    members = (
        LeagueMember.objects.filter(league=league, left__isnull=True)
        .exclude(user_id__in=exclude)
        .select_related("user__profile")
    )
    ranked = sorted(members, key=lambda m: (-m.user.profile.rating, m.user.get_username()))
    return [member.user_id for member in ranked]


def start_league(*, league: League, by: User) -> Season:
    """Organiser: season 1, the members by rating in divisions of ``division_size``."""
    with transaction.atomic():
        league = _locked(league)
        services.require_manager(by, league)  # type: ignore[arg-type]  # an organiser_id too
        if league.seasons.exists():
            raise errors.WrongTournamentState(_("The league has already started."))
        players = _members_by_rating(league)
        if len(players) < 2:
            raise errors.NotEnoughPlayers(_("A league needs at least two members to start."))
        return _start_season(league, 1, promotion.split(players, league.division_size))


def _start_season(league: League, number: int, divisions: list[list[int]]) -> Season:
    """Season ``number`` with these divisions (user ids, best first); each division's
    games are paired by a job (``pair_opening_rounds_task``) queued at the commit."""
    season = Season.objects.create(league=league, number=number)
    for level, user_ids in enumerate(divisions, start=1):
        tournament = Tournament.objects.create(
            name=division_name(league.name, number, level),
            organiser=league.organiser,
            format=Tournament.Format.ROUND_ROBIN,
            opening=league.opening,
            time_control=league.time_control,  # type: ignore[misc]  # a property Model() takes (clocks.models)
            rated=league.rated,
            tiebreaks=ROUND_ROBIN_TIEBREAKS,
            all_at_once=True,
            allow_bots=league.allow_bots,
            late_entries=False,
            half_point_byes=0,
        )
        Division.objects.create(season=season, level=level, tournament=tournament)
        Participant.objects.bulk_create(
            Participant(tournament=tournament, user_id=user_id) for user_id in user_ids
        )
        services.start_tournament(tournament=tournament, pair_now=False)
    return season


def division_finished(tournament_id: int) -> None:
    """A tournament just finished: if it is a league division, check its season (a job
    at the commit, so the season sees this division finished)."""
    season_id = (
        Division.objects.filter(tournament_id=tournament_id).values_list("season_id", flat=True)
    ).first()
    if season_id is not None:
        from tournaments.tasks import finish_season_task

        finish_season_task.delay(season_id)


_OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def finish_season(*, season_id: int) -> str:
    """Close a season whose divisions are all over and start the next one. Idempotent.

    Returns ``"waiting"`` (games on), ``"idle"`` (already done), ``"rolled over"`` or
    ``"ended"`` (fewer than two players left for another season).
    """
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league").get(pk=season_id)
        if season.status != Season.Status.RUNNING:
            return "idle"
        divisions = list(season.divisions.select_related("tournament").order_by("level"))
        if any(division.tournament.status not in _OVER for division in divisions):
            return "waiting"
        league = season.league
        ranked = [
            [row.participant.user_id for row in selectors.standings(division.tournament).rows]
            for division in divisions
        ]
        leaving = set(
            LeagueMember.objects.filter(league=league, left__isnull=False).values_list(
                "user_id", flat=True
            )
        )
        playing = {user_id for division in ranked for user_id in division}
        entrants = _members_by_rating(league, exclude=playing)
        following = promotion.next_divisions(
            ranked,
            promote=league.promote,
            size=league.division_size,
            leaving=leaving,
            entrants=entrants,
        )
        season.status = Season.Status.FINISHED
        season.finished = timezone.now()
        season.save(update_fields=["status", "finished"])
        if sum(len(division) for division in following) < 2:
            return "ended"
        _start_season(league, season.number + 1, following)
        return "rolled over"


def seasons_to_finish() -> list[int]:
    """Running seasons whose divisions are all over (the heartbeat's safety net)."""
    busy = Division.objects.exclude(tournament__status__in=_OVER).values("season_id")
    return list(
        Season.objects.filter(status=Season.Status.RUNNING)
        .exclude(pk__in=busy)
        .values_list("pk", flat=True)
    )


# --- Reading -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DivisionTable:
    division: Division
    standings: selectors.Standings
    up: int  # how many of the top go up at the season's end
    down: int  # … and of the bottom go down


def season_tables(season: Season) -> list[DivisionTable]:
    divisions = list(season.divisions.select_related("tournament").order_by("level"))
    last = len(divisions)
    tables = []
    for division in divisions:
        table = selectors.standings(division.tournament)
        moving = promotion.movers(len(table.rows), season.league.promote)
        tables.append(
            DivisionTable(
                division=division,
                standings=table,
                up=moving if division.level > 1 else 0,
                down=moving if division.level < last else 0,
            )
        )
    return tables


@dataclass(frozen=True)
class HistoryRow:
    season: int
    level: int
    rank: int | None
    players: int
    points: int  # half-points
    tournament_id: int
    finished: bool
    # "up", "down", "stay", "left" (not in the next season), "" while it has not started.
    move: str

    @property
    def points_display(self) -> str:
        return pairing.format_points(self.points)


def history(league: League, user: Any) -> list[HistoryRow]:
    """A player's seasons in a league, oldest first, with where each season led."""
    divisions = list(
        Division.objects.filter(season__league=league, tournament__participants__user=user)
        .select_related("season", "tournament")
        .order_by("season__number")
    )
    level_of = {division.season.number: division.level for division in divisions}
    latest = league.seasons.order_by("-number").values_list("number", flat=True).first() or 0
    rows = []
    for division in divisions:
        number = division.season.number
        table = selectors.standings(division.tournament)
        mine = next((r for r in table.rows if r.participant.user_id == user.pk), None)
        following = level_of.get(number + 1)
        if number >= latest:
            move = ""
        elif following is None:
            move = "left"
        else:
            move = (
                "up"
                if following < division.level
                else "down"
                if following > division.level
                else "stay"
            )
        rows.append(
            HistoryRow(
                season=number,
                level=division.level,
                rank=mine.rank if mine else None,
                players=len(table.rows),
                points=mine.points if mine else 0,
                tournament_id=division.tournament_id,
                finished=division.season.status == Season.Status.FINISHED,
                move=move,
            )
        )
    return rows

"""Tournament operations: every change to tournaments goes through here.

Functions take keyword-only arguments, run inside ``transaction.atomic``, lock
the tournament row they change and raise ``tournaments.errors`` (domain errors
with a ``code``).  The arithmetic — Berger tables, Dutch pairing, standings,
tie-breaks, TRF — is the pure ``tournaments.pairing`` package; this module only
turns its answers into rows; reading (snapshot, standings, crosstable, TRF, downloads)
is ``tournaments.selectors``.

Life cycle: ``create_tournament`` → ``join`` / ``withdraw`` → ``start_tournament``
(pairs round 1, or every round of an all-at-once round robin) → games finish
(``record_game_result``, called by the game-finished receiver) → the
``advance_tournament`` task pairs the next round (``pair_round``) or ends the
tournament (``finish_tournament``).

Pairing a round exactly once: ``pair_round`` claims round n with
``UPDATE tournament SET current_round = n WHERE current_round = n - 1`` and
checks the row count, then creates the round (unique on tournament + number),
its boards and games in the same transaction.  A second, concurrent or
re-delivered task finds the row count 0 and does nothing; a worker killed
half-way rolls everything back, and the re-delivered message starts afresh.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from accounts.models import Profile
from clocks.timecontrol import DEFAULT as DEFAULT_TIME_CONTROL
from clocks.timecontrol import TimeControl
from core import notices
from core.errors import DomainError
from core.text import hidden_characters
from games import services as game_services
from games.models import Game
from tournaments import errors, pairing, selectors
from tournaments.models import ByeRequest, DraftRound, Pairing, Participant, Round, Tournament
from tournaments.pairing import Outcome
from tournaments.pairing.swiss import Rules, System

logger = logging.getLogger(__name__)

MAX_SWISS_ROUNDS = 99
MAX_PLAYERS = 9999  # TRF-16 numbers players in four columns
MAX_NAME_LENGTH = 120
DEFAULT_TIEBREAKS = {
    # FIDE C.07 usual orders: SB first for round robins, Buchholz (cut 1) for Swiss.
    Tournament.Format.ROUND_ROBIN: ("SB", "DE", "WIN"),
    Tournament.Format.DOUBLE_ROUND_ROBIN: ("SB", "DE", "WIN"),
    Tournament.Format.SWISS: pairing.SWISS_TIEBREAKS,
    Tournament.Format.KNOCKOUT: (),  # a cup ranks by the round reached (tournaments.knockout)
}
# How a finished game scores for each side in a tournament (TRF result codes).
_FORFEIT_TERMINATIONS = {Game.Termination.TIMEOUT, Game.Termination.ABANDONED}


# --- Permissions -----------------------------------------------------------------------


def can_organise(user: User | AnonymousUser | None) -> bool:
    """Staff, or a user with the ``tournaments.organise_tournament`` permission."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.has_perm("tournaments.organise_tournament"))


def may_manage(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.pk == tournament.organiser_id)


def require_manager(user: User | None, tournament: Tournament) -> None:
    if not may_manage(user, tournament):
        raise errors.NotOrganiser()


# --- Creation ------------------------------------------------------------------------------


def player_limit() -> int:
    """The most players any tournament may have: TOURNAMENT_MAX_PLAYERS, what the machine
    pairs within the pairing task's time limit (docs/tournaments.md), at most TRF's 9999."""
    return min(MAX_PLAYERS, int(getattr(settings, "TOURNAMENT_MAX_PLAYERS", 1000)))


def create_tournament(
    *,
    organiser: User,
    name: str,
    format: str,
    rounds: int | None = None,
    opening: str = Game.Opening.STANDARD,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    rated: bool = True,
    registration_opens: datetime.datetime | None = None,
    starts_at: datetime.datetime | None = None,
    max_players: int | None = None,
    bye_points: int = Tournament.ByePoints.ONE,
    tiebreaks: Iterable[str] | None = None,
    all_at_once: bool = False,
    allow_bots: bool = False,
    late_entries: bool = True,
    half_point_byes: int = 1,
    pairing_system: str = "dutch",
    pairing_rules: str = pairing.DEFAULT_RULES,
    arbiter_publishes: bool = False,
    avoid_same_club: bool = False,
    tie_rule: str = Tournament.TieRule.REPLAY,
) -> Tournament:
    """Create a tournament open for registration; every bad value is a field error.

    `time_control` is every game's (any kind; any whole number of days per turn up
    to 30, as the older `days_per_turn` field allowed).
    """
    if not can_organise(organiser):
        raise errors.CannotOrganise()
    fields: dict[str, list[str]] = {}

    def bad(field: str, message: str) -> None:
        fields.setdefault(field, []).append(message)

    name = " ".join((name or "").split())
    if not name:
        bad("name", _("A name is required."))
    elif len(name) > MAX_NAME_LENGTH:
        bad("name", _("At most %(n)d characters.") % {"n": MAX_NAME_LENGTH})
    elif hidden_characters(name):
        bad(
            "name",
            _("The name contains invisible characters (%(codes)s).")
            % {"codes": ", ".join(hidden_characters(name))},
        )
    if format not in Tournament.Format.values:
        bad("format", _("Choose one of %(v)s.") % {"v": ", ".join(Tournament.Format.values)})
    if format == Tournament.Format.SWISS:
        if rounds is None or not 1 <= rounds <= MAX_SWISS_ROUNDS:
            bad("rounds", _("A Swiss needs 1 to %(n)d rounds.") % {"n": MAX_SWISS_ROUNDS})
        if all_at_once:
            bad("all_at_once", _("Only a round robin can start all its games at once."))
    elif rounds is not None:
        bad("rounds", _("A round robin's rounds follow from its number of players."))
    if format == Tournament.Format.KNOCKOUT and all_at_once:
        bad("all_at_once", _("Only a round robin can start all its games at once."))
    if tie_rule not in Tournament.TieRule.values:
        bad("tie_rule", _("Choose one of %(v)s.") % {"v": ", ".join(Tournament.TieRule.values)})
    if opening not in (Game.Opening.STANDARD, Game.Opening.PIE):
        bad("opening", _("Choose standard or pie."))
    for field, messages in time_control.errors(strict_days=False).items():
        # A field of the request: days_per_turn (or the clock object's days).
        for message in messages:
            bad("days_per_turn" if field == "days" else field, message)
    if bye_points not in Tournament.ByePoints.values:
        bad("bye_points", _("A bye is worth 2 (one point), 1 (half a point) or 0 half-points."))
    if pairing_system not in pairing.SYSTEMS:
        bad("pairing_system", _("Choose one of %(v)s.") % {"v": ", ".join(pairing.SYSTEMS)})
    if pairing_rules not in pairing.RULES:
        bad("pairing_rules", _("Choose one of %(v)s.") % {"v": ", ".join(pairing.RULES)})
    if format == Tournament.Format.SWISS and rounds and not 0 <= half_point_byes <= rounds:
        bad("half_point_byes", _("From 0 to %(n)d.") % {"n": rounds})
    if arbiter_publishes and format != Tournament.Format.SWISS:
        bad("arbiter_publishes", _("Only a Swiss's rounds can wait for the arbiter."))
    if max_players is not None and not 2 <= max_players <= player_limit():
        bad("max_players", _("From 2 to %(n)d players.") % {"n": player_limit()})
    if registration_opens and starts_at and registration_opens >= starts_at:
        bad("registration_opens", _("Registration must open before the start."))
    if starts_at is not None and starts_at <= timezone.now():
        bad("starts_at", _("The start must be in the future."))
    order = list(tiebreaks) if tiebreaks is not None else None
    if order is not None:
        unknown = [t for t in order if t not in pairing.TIEBREAK_NAMES]
        if unknown or len(set(order)) != len(order):
            bad(
                "tiebreaks",
                _("Use each of %(names)s at most once.")
                % {"names": ", ".join(pairing.TIEBREAK_NAMES)},
            )
    if fields:
        first = next(iter(fields.values()))[0]
        raise errors.InvalidTournament(first, fields=fields)
    if order is None:
        order = list(DEFAULT_TIEBREAKS[Tournament.Format(format)])
    with transaction.atomic():
        return Tournament.objects.create(
            name=name,
            organiser=organiser,
            format=format,
            rounds=rounds if format == Tournament.Format.SWISS else None,
            opening=opening,
            time_control=time_control,  # type: ignore[misc]  # a property Model() takes (clocks.models)
            rated=rated,
            registration_opens=registration_opens,
            starts_at=starts_at,
            max_players=max_players,
            bye_points=bye_points,
            tiebreaks=",".join(order),
            all_at_once=all_at_once,
            allow_bots=allow_bots,
            # A round robin's schedule is fixed at the start: nobody can come later.
            late_entries=late_entries and format == Tournament.Format.SWISS,
            pairing_system=pairing_system,
            pairing_rules=pairing_rules,
            arbiter_publishes=arbiter_publishes,
            avoid_same_club=avoid_same_club,
            tie_rule=tie_rule,
            # Never for the last round: a one-round Swiss has none to give.
            half_point_byes=(
                min(half_point_byes, (rounds or 1) - 1) if format == Tournament.Format.SWISS else 0
            ),
        )


# --- Registration ----------------------------------------------------------------------------


def locked_tournament(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    try:
        return Tournament.objects.select_for_update().get(pk=pk)
    except Tournament.DoesNotExist:
        raise errors.WrongTournamentState(_("This tournament does not exist.")) from None


def profile_of(user: User) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def add_bot(*, tournament: Tournament, username: str, by: User) -> Participant:
    """The organiser enters a bot account (only bots: people join themselves)."""
    require_manager(by, tournament)
    bot = User.objects.filter(username=username, profile__is_bot=True).first()
    if bot is None:
        raise errors.NotABot()
    return join(tournament=tournament, user=bot)


def addable_bots(tournament: Tournament) -> list[Any]:
    """The bot accounts an organiser may still enter (none if bots are not admitted)."""
    if not tournament.allow_bots or not selectors.registration_is_open(tournament):
        return []
    entered = tournament.participants.values_list("user_id", flat=True)
    return list(
        User.objects.filter(profile__is_bot=True)
        .exclude(pk__in=entered)
        .select_related("profile")
        .order_by("username")
    )


def join(*, tournament: Tournament, user: User, club: str = "") -> Participant:
    """Register ``user``; refused when closed, full, already in, or a bot not admitted.

    A late entrant (a running Swiss) gets the next pairing number and is paired from
    the next round on; the rounds already paired count as zero-point byes (a missing
    board is one: see :func:`snapshot`).  ``club`` (optional): see ``avoid_same_club``.
    """
    club = " ".join((club or "").split())
    if len(club) > 80 or hidden_characters(club):
        raise errors.InvalidTournament(
            _("A club name has at most 80 visible characters."),
            fields={"club": [_("A club name has at most 80 visible characters.")]},
        )
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        if not selectors.registration_is_open(tournament):
            raise errors.RegistrationClosed()
        profile = profile_of(user)
        if profile.is_bot and not tournament.allow_bots:
            raise errors.BotsNotAllowed()
        if Participant.objects.filter(tournament=tournament, user=user).exists():
            raise errors.AlreadyJoined()
        if tournament.participants.count() >= min(
            tournament.max_players or player_limit(), player_limit()
        ):
            raise errors.TournamentFull()
        seed = None
        if tournament.status == Tournament.Status.RUNNING:
            last = tournament.participants.aggregate(last=Max("seed"))["last"]
            seed = (last or 0) + 1
        try:
            with transaction.atomic():
                return Participant.objects.create(
                    tournament=tournament,
                    user=user,
                    rating=max(0, round(profile.rating)),
                    seed=seed,
                    club=club,
                )
        except IntegrityError:  # the same user joining twice at once
            raise errors.AlreadyJoined() from None


def withdraw(*, tournament: Tournament, user: User) -> Participant | None:
    """Leave a tournament.

    Before the start the registration is simply removed (returns None).  While it
    runs the player keeps past results and is never paired again; the games they
    have not finished are lost by forfeit (termination "abandoned"), and in a round
    robin the rounds still to be paired score forfeits too (see :func:`pair_round`).
    Withdrawing twice changes nothing.
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        participant = Participant.objects.filter(tournament=tournament, user=user).first()
        if participant is None:
            raise errors.NotJoined()
        if tournament.status in (Tournament.Status.REGISTRATION, Tournament.Status.STARTING):
            participant.delete()  # not ranked yet (the start job ranks who is left)
            return None
        if tournament.status != Tournament.Status.RUNNING:
            raise errors.WrongTournamentState(_("The tournament is over."))
        if participant.withdrawn is not None:
            return participant
        participant.withdrawn = timezone.now()
        participant.withdrawn_after_round = tournament.current_round
        participant.save(update_fields=["withdrawn", "withdrawn_after_round"])
        unfinished = Game.objects.filter(
            Q(tournament_pairing__white=participant) | Q(tournament_pairing__black=participant),
            tournament_pairing__round__tournament=tournament,
        ).exclude(status=Game.Status.FINISHED)
        for game in unfinished:
            result = Game.Result.BLACK_WINS if game.white_id == user.pk else Game.Result.WHITE_WINS
            # The game-finished receiver scores it as a forfeit (+/-).
            game_services.adjudicate(
                game=game, result=result, termination=Game.Termination.ABANDONED
            )
    return participant


def _entry(tournament: Tournament, user: User) -> Participant:
    participant = Participant.objects.filter(tournament=tournament, user=user).first()
    if participant is None:
        raise errors.NotJoined()
    return participant


def _requested_byes(participant: Participant) -> list[int]:
    return list(participant.bye_requests.values_list("round_number", flat=True))


def _bye_refusal(
    tournament: Tournament,
    participant: Participant,
    round_number: int,
    requested: list[int] | None = None,
) -> DomainError | None:
    """Why the rules refuse a bye in ``round_number`` (None: they allow it).  With the
    rounds already ``requested``, a new request must also fit the allowance; without,
    the question is whether a request may be taken back."""
    if tournament.half_point_byes == 0:  # a round robin, or none offered
        return errors.ByeRefused(_("This tournament has no half-point byes."))
    if tournament.is_over:
        return errors.WrongTournamentState(_("The tournament is over."))
    if participant.withdrawn is not None:
        return errors.ByeRefused(_("You have withdrawn from this tournament."))
    last = selectors.total_rounds(tournament)
    if not 1 <= round_number < last:
        return errors.ByeRefused(
            _("A bye is for one of rounds 1 to %(n)d: never the last round.") % {"n": last - 1}
        )
    if (
        round_number <= tournament.current_round
        or DraftRound.objects.filter(tournament=tournament, number=round_number).exists()
    ):  # a draft waiting for the arbiter is paired too
        return errors.ByeRefused(_("Round %(n)d is already paired.") % {"n": round_number})
    allowed = tournament.half_point_byes
    if requested is not None and round_number not in requested and len(requested) >= allowed:
        return errors.ByeRefused(
            ngettext(
                "A player may ask for %(n)d half-point bye.",
                "A player may ask for %(n)d half-point byes.",
                allowed,
            )
            % {"n": allowed}
        )
    return None


def request_bye(*, tournament: Tournament, user: User, round_number: int) -> list[int]:
    """Swiss: sit out round ``round_number`` for half a point (TRF ``H``).

    Only for a round not yet paired and not the last one, up to the tournament's
    ``half_point_byes``; asking twice for the same round changes nothing.  Returns the
    rounds the player has asked byes for.
    """
    with transaction.atomic():
        # The pairing of a round waits for us, or we for it.
        tournament = locked_tournament(tournament)
        participant = _entry(tournament, user)
        requested = _requested_byes(participant)
        refusal = _bye_refusal(tournament, participant, round_number, requested)
        if refusal is not None:
            raise refusal
        if round_number not in requested:
            ByeRequest.objects.create(participant=participant, round_number=round_number)
            requested.append(round_number)
    return sorted(requested)


def bye_rounds_open(
    tournament: Tournament, participant: Participant | None, requested: list[int]
) -> list[int]:
    """The rounds ``participant`` may still ask a half-point bye for (for the page)."""
    if participant is None:
        return []
    return [
        number
        for number in range(1, selectors.total_rounds(tournament))
        if number not in requested
        and _bye_refusal(tournament, participant, number, requested) is None
    ]


def cancel_bye(*, tournament: Tournament, user: User, round_number: int) -> list[int]:
    """Take back a bye request while its round is not paired; returns the rounds left."""
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        participant = _entry(tournament, user)
        refusal = _bye_refusal(tournament, participant, round_number)
        if refusal is not None:
            raise refusal
        participant.bye_requests.filter(round_number=round_number).delete()
        return sorted(_requested_byes(participant))


def set_absent(
    *, tournament: Tournament, participant: Participant, absent: bool, by: User
) -> Participant:
    """Organiser: leave a Swiss player out of the next rounds (zero-point bye) or bring back."""
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        require_manager(by, tournament)
        if tournament.is_round_robin:
            raise errors.WrongTournamentState(
                _("Only a Swiss leaves absent players out; in a round robin, withdraw them.")
            )
        if tournament.format == Tournament.Format.KNOCKOUT:
            raise errors.WrongTournamentState(
                _("Only a Swiss leaves absent players out; in a cup, withdraw them.")
            )
        if tournament.is_over:
            raise errors.WrongTournamentState(_("The tournament is over."))
        Participant.objects.filter(pk=participant.pk, tournament=tournament).update(absent=absent)
        participant.refresh_from_db()
    return participant


# What an organiser may decide on a board whose game is not over, as the board shows it
# (White first): a result, or a forfeit (the game does not count as played for pairing).
ADJUDICATIONS: dict[str, tuple[str, str]] = {
    "1-0": (Game.Result.WHITE_WINS, Game.Termination.ADJUDICATION),
    "1/2-1/2": (Game.Result.DRAW, Game.Termination.ADJUDICATION),
    "0-1": (Game.Result.BLACK_WINS, Game.Termination.ADJUDICATION),
    "+-": (Game.Result.WHITE_WINS, Game.Termination.ABANDONED),
    "-+": (Game.Result.BLACK_WINS, Game.Termination.ABANDONED),
}
_FLIPPED = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "+-": "-+", "-+": "+-"}


def adjudicate_board(*, pairing: Pairing, decision: str, by: User) -> Pairing:
    """Organiser: end the unfinished game of a board with ``decision`` (a key of
    ``ADJUDICATIONS``); the board is scored as any finished game is."""
    if decision not in ADJUDICATIONS:
        raise errors.InvalidTournament(
            _("Choose one of %(v)s.") % {"v": ", ".join(ADJUDICATIONS)},
            fields={"result": [_("Not a decision an organiser can take.")]},
        )
    with transaction.atomic():
        tournament = locked_tournament(pairing.round.tournament_id)
        require_manager(by, tournament)
        row = Pairing.objects.select_related("white", "game").get(pk=pairing.pk)
        if row.game is None or row.white_outcome or row.game.status == Game.Status.FINISHED:
            raise errors.WrongTournamentState(_("This board is already decided."))
        if row.game.white_id != row.white.user_id:  # a pie opening swapped the colours
            decision = _FLIPPED[decision]
        result, termination = ADJUDICATIONS[decision]
        game_services.adjudicate(game=row.game, result=result, termination=termination)
    row.refresh_from_db()
    return row


# --- Start, rounds, end ----------------------------------------------------------------------


# A start job still "starting" this long after it was asked for has lost its message (the
# job itself ends within its hard time limit, 15 minutes: tournaments.tasks.PAIRING): the
# heartbeat queues it again.
LOST_START_AFTER = datetime.timedelta(minutes=20)
# Why a start job failed, when it was no refusal of the rules (a bug, a time limit): stored
# in English, shown translated.
START_FAILED = gettext_noop("Starting the tournament failed (the error is logged); try again.")


def _require_startable(tournament: Tournament) -> None:
    """The cheap checks of a start, on the locked row: the state and two players."""
    if tournament.status == Tournament.Status.STARTING:
        raise errors.WrongTournamentState(_("The tournament is already starting."))
    if tournament.status != Tournament.Status.REGISTRATION:
        raise errors.WrongTournamentState(_("The tournament has already started."))
    if tournament.participants.count() < 2:
        raise errors.NotEnoughPlayers()


def request_start(*, tournament: Tournament | int, by: User | None = None) -> Tournament:
    """Start a tournament as a request (the page's button, the API, the admin) or the
    scheduler does: only the cheap checks (the organiser, the state, two players), then
    registration closes ("starting") and the start job (:func:`run_start`) is queued at
    the commit; it ranks the players, tells them and pairs round 1.  ``by`` is the user
    asking (must organise it); None is the scheduler.  The answer does not wait for any
    of that, whatever the field's size."""
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        if by is not None:
            require_manager(by, tournament)
        _require_startable(tournament)
        tournament.status = Tournament.Status.STARTING
        tournament.start_requested = timezone.now()
        tournament.start_error = ""
        tournament.save(update_fields=["status", "start_requested", "start_error"])
        from tournaments.tasks import start_tournament_task

        start_tournament_task.delay(tournament.pk)
    return tournament


def start_tournament(
    *, tournament: Tournament | int, by: User | None = None, pair_now: bool = True
) -> Tournament:
    """Start at once, in the caller's transaction: give starting ranks and pair round 1
    (all rounds if all at once).  For jobs and tests; a request calls
    :func:`request_start` instead.

    ``by`` is the user asking (must organise it); None is a job.  With
    ``pair_now=False`` (a league's season job starting its divisions) the pairing is
    another job, ``pair_opening_rounds``, queued at the commit.
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        if by is not None:
            require_manager(by, tournament)
        _require_startable(tournament)
        open_tournament(tournament)
        last = opening_rounds(tournament)
        if pair_now:
            pair_opening_rounds(tournament_id=tournament.pk, last=last)
        else:
            from tournaments.tasks import pair_opening_rounds_task

            pair_opening_rounds_task.delay(tournament.pk, last)
    tournament.refresh_from_db()
    return tournament


def open_tournament(tournament: Tournament) -> None:
    """The start's first step, on the locked row (registration or starting → running):
    starting ranks (rating at the start, then name), a round robin's number of rounds,
    every player told.  Round 1 is paired after its commit."""
    players = list(tournament.participants.select_related("user__profile").order_by("joined", "id"))
    if len(players) < 2:  # players withdrew while the tournament was starting
        raise errors.NotEnoughPlayers()
    for participant in players:
        # The rating at the start decides the initial order (C.04.2: rating, then name).
        participant.rating = max(0, round(participant.user.profile.rating))
    by_name = {p.user.get_username(): p for p in players}
    for entry in pairing.assign_starting_ranks((name, p.rating) for name, p in by_name.items()):
        by_name[entry.name].seed = entry.id
    Participant.objects.bulk_update(players, ["seed", "rating"])
    if tournament.is_round_robin:
        double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
        tournament.rounds = len(pairing.berger_rounds(len(players), double=double))
    tournament.status = Tournament.Status.RUNNING
    tournament.started = timezone.now()
    tournament.current_round = 0
    tournament.start_error = ""
    tournament.save(update_fields=["rounds", "status", "started", "current_round", "start_error"])
    for participant in players:
        notify_player(
            participant.user,
            "tournament_started",
            params={"tournament": tournament.name},
            url=tournament.get_absolute_url(),
            dedupe_key=f"tournament_started:{tournament.pk}",
            profile=participant.user.profile,
        )


def opening_rounds(tournament: Tournament) -> int:
    """How many rounds the start pairs: every round of an all-at-once round robin, else 1."""
    if tournament.is_round_robin and tournament.all_at_once:
        return tournament.rounds or 0
    return 1


def run_start(*, tournament_id: int) -> str:
    """The start job: rank the players of a "starting" tournament, then pair its opening
    round(s), each exactly once.  Returns ``"started"``; ``"refused"`` when it cannot
    start (back in registration, the reason in ``start_error`` for the organiser);
    ``"idle"`` when there is nothing to do.  A redelivered job finds the tournament
    running and only pairs what is not paired yet."""
    try:
        with transaction.atomic():
            tournament = locked_tournament(tournament_id)
            if tournament.status == Tournament.Status.STARTING:
                open_tournament(tournament)
            elif tournament.status != Tournament.Status.RUNNING:
                return "idle"
    except DomainError as refusal:
        with translation.override("en"):  # stored in English, translated when shown
            start_failed(tournament_id=tournament_id, reason=str(refusal.message))
        return "refused"
    pair_opening_rounds(tournament_id=tournament_id, last=opening_rounds(tournament))
    return "started"


def start_failed(*, tournament_id: int, reason: str = START_FAILED) -> bool:
    """A start job could not start the tournament: back in registration (the organiser
    sees ``reason`` and may start it again).  Only a tournament still "starting": one
    whose players are ranked is running, and the heartbeat pairs its round 1."""
    return (
        Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.STARTING).update(
            status=Tournament.Status.REGISTRATION, start_requested=None, start_error=reason[:300]
        )
        == 1
    )


def pair_opening_rounds(*, tournament_id: int, last: int) -> int:
    """Pair rounds 1..last of a tournament that just started, in order (each round exactly
    once: a second run, or the heartbeat's advance, pairs nothing twice).  Returns the
    number of rounds paired now."""
    return sum(
        pair_round(tournament_id=tournament_id, round_number=number) is not None
        for number in range(1, last + 1)
    )


def start_due_tournaments(now: datetime.datetime | None = None) -> list[int]:
    """Start tournaments whose time has come (their start jobs are queued); cancel those
    without enough players."""
    now = now or timezone.now()
    started = []
    due = Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, starts_at__isnull=False, starts_at__lte=now
    ).values_list("pk", flat=True)
    for tournament_id in due:
        try:
            request_start(tournament=tournament_id)
            started.append(tournament_id)
        except errors.NotEnoughPlayers:
            Tournament.objects.filter(
                pk=tournament_id, status=Tournament.Status.REGISTRATION
            ).update(status=Tournament.Status.CANCELLED, finished=now)
            logger.info("tournament %s cancelled: not enough players", tournament_id)
        except errors.WrongTournamentState:
            pass  # started meanwhile by its organiser
    return started


def requeue_lost_starts(now: datetime.datetime | None = None) -> list[int]:
    """Queue the start job again for tournaments "starting" for longer than any start job
    runs (its message was lost: the broker was down at the commit).  At most once per
    ``LOST_START_AFTER`` each (the claim moves ``start_requested`` on); a job that was only
    late finds the work done (:func:`run_start` is idempotent)."""
    from tournaments.tasks import start_tournament_task

    now = now or timezone.now()
    stale = Q(start_requested__isnull=True) | Q(start_requested__lt=now - LOST_START_AFTER)
    requeued = []
    for tournament_id in Tournament.objects.filter(
        stale, status=Tournament.Status.STARTING
    ).values_list("pk", flat=True):
        claimed = Tournament.objects.filter(
            stale, pk=tournament_id, status=Tournament.Status.STARTING
        ).update(start_requested=now)
        if claimed:
            start_tournament_task.delay(tournament_id)
            requeued.append(tournament_id)
    return requeued


def unfinished_pairings(tournament_id: int, up_to_round: int) -> bool:
    return Pairing.objects.filter(
        round__tournament_id=tournament_id, round__number__lte=up_to_round, white_outcome=""
    ).exists()


def pair_round(*, tournament_id: int, round_number: int) -> Round | None:
    """Pair round ``round_number`` and start its games, exactly once.

    Returns the new round, or None when there is nothing to do: the round is
    already paired (by this call's twin), the previous one is not finished, or
    the tournament is not running.  A Swiss that cannot be paired any more
    (every pairing would repeat a game) ends cleanly.
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return None
        if hasattr(tournament, "draft_round"):
            return None  # a draft waits for the organiser (tournaments.arbiter)
        if tournament.format == Tournament.Format.KNOCKOUT:
            from tournaments import knockout

            return knockout.pair_round(tournament, round_number)
        all_at_once = tournament.is_round_robin and tournament.all_at_once
        if (
            not all_at_once
            and round_number > 1
            and unfinished_pairings(tournament_id, round_number - 1)
        ):
            return None
        if round_number > selectors.total_rounds(tournament):
            return None
        # The claim: only one transaction moves current_round from n-1 to n.
        claimed = Tournament.objects.filter(
            pk=tournament_id, status=Tournament.Status.RUNNING, current_round=round_number - 1
        ).update(current_round=round_number)
        if claimed != 1:
            return None
        tournament.current_round = round_number
        if tournament.format == Tournament.Format.SWISS:
            from tournaments.trf_import import take_accepted_places

            # An imported player's place that its account accepted while a game of it
            # was on: the previous round is over now (only imports have invitations).
            take_accepted_places(tournament)
        participants = {p.seed: p for p in tournament.participants.select_related("user")}
        half_point_byes: list[int] = []  # seeds that asked to sit this round out
        if tournament.is_round_robin:
            double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
            table = pairing.berger_rounds(len(participants), double=double)
            boards = table[round_number - 1]
        else:
            state = selectors.snapshot(tournament, rounds=round_number - 1, next_round=True)
            half_point_byes = sorted(
                seed
                for seed, outcome in state.requested_byes.items()
                if outcome is Outcome.HALF_POINT_BYE
            )
            try:
                boards = pairing.pair_next_round(
                    state,
                    # The columns' choices are the pairing package's names.
                    system=cast(System, tournament.pairing_system),
                    rules=cast(Rules, tournament.pairing_rules),
                ).pairs()
            except pairing.PairingError as exc:
                logger.info(
                    "tournament %s ends before round %s: %s", tournament_id, round_number, exc
                )
                Tournament.objects.filter(pk=tournament_id).update(current_round=round_number - 1)
                finish_if_over(tournament_id)
                return None
            if not boards and not half_point_byes:  # nobody left to pair
                Tournament.objects.filter(pk=tournament_id).update(current_round=round_number - 1)
                finish_if_over(tournament_id)
                return None
            if tournament.arbiter_publishes:
                # The organiser checks, edits and publishes it (tournaments.arbiter): the
                # round is not claimed until then.
                from tournaments import arbiter

                Tournament.objects.filter(pk=tournament_id).update(current_round=round_number - 1)
                arbiter.store_draft(tournament, round_number, boards, half_point_byes)
                return None
        return create_round(
            tournament,
            round_number,
            boards,
            half_point_byes,
            participants,
            announce=not all_at_once,  # all at once: "tournament started" said it all
        )


def create_round(
    tournament: Tournament,
    round_number: int,
    boards: list[tuple[int, int]],
    half_point_byes: list[int],
    participants: dict[int | None, Participant],
    *,
    announce: bool = True,
) -> Round:
    """The rows of a claimed round: its boards (``(white seed, black seed or 0)``), their
    games, the half-point bye boards; inside the claiming transaction."""
    round_ = Round.objects.create(tournament=tournament, number=round_number)
    rows = []
    for board_number, (white_seed, black_seed) in enumerate(boards, start=1):
        white = participants[white_seed]
        black = participants[black_seed] if black_seed else None
        rows.append(create_board(tournament, round_, board_number, white, black))
    # The asked-for half-point byes get their boards (absences stay without one).
    for board_number, seed in enumerate(half_point_byes, start=len(rows) + 1):
        rows.append(
            Pairing(
                round=round_,
                board=board_number,
                white=participants[seed],
                white_outcome=Outcome.HALF_POINT_BYE,
            )
        )
    Pairing.objects.bulk_create(rows)
    if announce:
        announce_round(tournament, round_number, rows)
    if not unfinished_pairings(tournament.pk, round_number):
        # Only byes and forfeits: nothing will finish this round but us.
        from tournaments.tasks import advance_tournament

        advance_tournament.delay(tournament.pk)
    return round_


def notify_player(user: Any, kind: str, **options: Any) -> None:
    """Tell a player (the notifications app, a sibling, receives core.notices.notice)."""
    notices.notice.send(sender=Tournament, user=user, kind=kind, **options)


def announce_round(tournament: Tournament, number: int, rows: list[Pairing]) -> None:
    for row in rows:
        if row.game is None or row.black is None:
            continue  # byes and forfeits: nobody has to play
        for me, opponent in ((row.white, row.black), (row.black, row.white)):
            notify_player(
                me.user,
                "round_paired",
                game=row.game,
                params={
                    "round": number,
                    "tournament": tournament.name,
                    "opponent": opponent.user.get_username(),
                },
                dedupe_key=f"round_paired:{tournament.pk}:{number}",
            )


def create_board(
    tournament: Tournament,
    round_: Round,
    number: int,
    white: Participant,
    black: Participant | None,
) -> Pairing:
    row = Pairing(round=round_, board=number, white=white, black=black)
    if black is None:
        # A withdrawn player's round-robin bye is worth nothing.
        row.white_outcome = (
            Outcome.ZERO_POINT_BYE
            if selectors.withdrawn_for(white, round_.number)
            else Outcome.PAIRING_BYE
        )
        return row
    white_gone = selectors.withdrawn_for(white, round_.number)
    black_gone = selectors.withdrawn_for(black, round_.number)
    if white_gone or black_gone:
        # Round robin after a withdrawal: the game is not played, the present side wins.
        row.white_outcome = Outcome.FORFEIT_LOSS if white_gone else Outcome.FORFEIT_WIN
        row.black_outcome = Outcome.FORFEIT_LOSS if black_gone else Outcome.FORFEIT_WIN
        return row
    row.game = game_services.start_game(
        white=white.user,
        black=black.user,
        opening=tournament.opening,
        time_control=tournament.time_control,
        rated=tournament.rated,
    )
    return row


def record_game_result(*, game: Game) -> Pairing | None:
    """Score a finished tournament game on its board (called inside the game's transaction).

    Decisive games lost on time or abandoned are forfeits (``+``/``-``: the players
    have not met for pairing purposes), an aborted game a double forfeit (``-``/``-``);
    other results are played games.  After a
    pie opening the board takes the colours actually played.  When the round is
    complete the ``advance_tournament`` task is queued (after commit).
    """
    # Most finished games are no tournament's: a plain indexed read answers that for
    # them (the locking read with its joins cost a game-ending turn as much CPU as the
    # rest of its receivers together).
    if not Pairing.objects.filter(game_id=game.pk).exists():
        return None
    row = (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("white", "black", "round")
        .filter(game_id=game.pk)
        .order_by("pk")
        .first()
    )
    if row is None or row.white_outcome or row.black is None:
        return row
    if game.white_id != row.white.user_id:
        row.white, row.black = row.black, row.white
    forfeit = game.termination in _FORFEIT_TERMINATIONS
    if game.termination == Game.Termination.ABORTED:
        # Aborted before both players moved: not played, a double forfeit (0 points each;
        # the players have not met for pairing).  docs/tournaments.md.
        row.white_outcome = row.black_outcome = Outcome.FORFEIT_LOSS
    elif game.result == Game.Result.DRAW:
        row.white_outcome = row.black_outcome = Outcome.DRAW
    elif game.result in (Game.Result.WHITE_WINS, Game.Result.BLACK_WINS):
        win, loss = (
            (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS) if forfeit else (Outcome.WIN, Outcome.LOSS)
        )
        white_won = game.result == Game.Result.WHITE_WINS
        row.white_outcome, row.black_outcome = (win, loss) if white_won else (loss, win)
    else:
        return row
    row.save(update_fields=["white", "black", "white_outcome", "black_outcome"])
    tournament_id = row.round.tournament_id
    if not Pairing.objects.filter(round_id=row.round_id, white_outcome="").exists():
        from tournaments.tasks import advance_tournament

        advance_tournament.delay(tournament_id)  # after the commit (core.tasks)
    return row


def advance(*, tournament_id: int) -> str:
    """Move a running tournament on: pair the next round or finish. Idempotent.

    Returns what happened: ``"paired"``, ``"finished"``, ``"waiting"`` (games on)
    or ``"idle"`` (not running, or a twin did the work).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return "idle"
    if tournament.format == Tournament.Format.KNOCKOUT:
        from tournaments import knockout

        return knockout.advance(tournament)
    current = tournament.current_round
    if unfinished_pairings(tournament_id, current):
        return "waiting"
    if current >= selectors.total_rounds(tournament):
        return "finished" if finish_if_over(tournament_id) else "idle"
    if pair_round(tournament_id=tournament_id, round_number=current + 1) is not None:
        return "paired"
    tournament.refresh_from_db()
    return "finished" if tournament.status == Tournament.Status.FINISHED else "idle"


def finish_if_over(tournament_id: int) -> bool:
    """RUNNING → FINISHED once every game is over (guarded: True only for the caller that did it)."""
    with transaction.atomic():
        if Pairing.objects.filter(round__tournament_id=tournament_id, white_outcome="").exists():
            return False
        done = (
            Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).update(
                status=Tournament.Status.FINISHED, finished=timezone.now()
            )
            == 1
        )
        if done:
            from tournaments.leagues import division_finished

            division_finished(tournament_id)  # a league's season may be over
        return done


def finish_tournament(*, tournament: Tournament, by: User) -> Tournament:
    """Organiser: close a running tournament whose games are all over (e.g. ended early)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament)
        require_manager(by, tournament)
        if tournament.status != Tournament.Status.RUNNING:
            raise errors.WrongTournamentState(_("Only a running tournament can be finished."))
        if not finish_if_over(tournament.pk):
            raise errors.WrongTournamentState(_("Some games are still being played."))
    tournament.refresh_from_db()
    return tournament


def running_tournaments_to_advance() -> list[int]:
    """Running tournaments whose paired rounds are all over (the beat's safety net)."""
    busy = Pairing.objects.filter(
        round__tournament__status=Tournament.Status.RUNNING, white_outcome=""
    ).values("round__tournament_id")
    return list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .exclude(pk__in=busy)
        .values_list("pk", flat=True)
    )

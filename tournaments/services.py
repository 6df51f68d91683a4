"""Tournament operations: every change to tournaments goes through here.

Functions take keyword-only arguments, run inside ``transaction.atomic``, lock
the tournament row they change and raise ``tournaments.errors`` (domain errors
with a ``code``).  The arithmetic — Berger tables, Dutch pairing, standings,
tie-breaks, TRF — is the pure ``tournaments.pairing`` package; this module only
turns rows into its values (:func:`snapshot`) and its answers into rows.

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
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import services as game_services
from games.compiled import CompiledQuery
from games.errors import DomainError
from games.models import Game, Profile
from games.tasks import enqueue
from tournaments import errors, pairing
from tournaments.models import ByeRequest, Pairing, Participant, Round, Tournament
from tournaments.pairing import Outcome, PlayerEntry, RoundResult

logger = logging.getLogger(__name__)
User = get_user_model()

MAX_SWISS_ROUNDS = 99
MAX_PLAYERS = 9999  # TRF-16 numbers players in four columns
MAX_NAME_LENGTH = 120
DEFAULT_TIEBREAKS = {
    # FIDE C.07 usual orders: SB first for round robins, Buchholz (cut 1) for Swiss.
    Tournament.Format.ROUND_ROBIN: ("SB", "DE", "WIN"),
    Tournament.Format.DOUBLE_ROUND_ROBIN: ("SB", "DE", "WIN"),
    Tournament.Format.SWISS: pairing.SWISS_TIEBREAKS,
}
# How a finished game scores for each side in a tournament (TRF result codes).
_FORFEIT_TERMINATIONS = {Game.Termination.TIMEOUT, Game.Termination.ABANDONED}


# --- Permissions -----------------------------------------------------------------------


def can_organise(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Staff, or a user with the ``tournaments.organise_tournament`` permission."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.has_perm("tournaments.organise_tournament"))


def may_manage(user: AbstractBaseUser | AnonymousUser | None, tournament: Tournament) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.pk == tournament.organiser_id)


def _require_manager(user: AbstractBaseUser | None, tournament: Tournament) -> None:
    if not may_manage(user, tournament):
        raise errors.NotOrganiser()


# --- Creation ------------------------------------------------------------------------------


def create_tournament(
    *,
    organiser: AbstractBaseUser,
    name: str,
    format: str,
    rounds: int | None = None,
    opening: str = Game.Opening.STANDARD,
    days_per_turn: int = 3,
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
) -> Tournament:
    """Create a tournament open for registration; every bad value is a field error."""
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
    if format not in Tournament.Format.values:
        bad("format", _("Choose one of %(v)s.") % {"v": ", ".join(Tournament.Format.values)})
    if format == Tournament.Format.SWISS:
        if rounds is None or not 1 <= rounds <= MAX_SWISS_ROUNDS:
            bad("rounds", _("A Swiss needs 1 to %(n)d rounds.") % {"n": MAX_SWISS_ROUNDS})
        if all_at_once:
            bad("all_at_once", _("Only a round robin can start all its games at once."))
    elif rounds is not None:
        bad("rounds", _("A round robin's rounds follow from its number of players."))
    if opening not in (Game.Opening.STANDARD, Game.Opening.PIE):
        bad("opening", _("Choose standard or pie."))
    if not 1 <= days_per_turn <= game_services.MAX_DAYS_PER_TURN:
        bad("days_per_turn", _("From 1 to %(n)d days.") % {"n": game_services.MAX_DAYS_PER_TURN})
    if bye_points not in Tournament.ByePoints.values:
        bad("bye_points", _("A bye is worth 2 (one point), 1 (half a point) or 0 half-points."))
    if format == Tournament.Format.SWISS and rounds and not 0 <= half_point_byes <= rounds:
        bad("half_point_byes", _("From 0 to %(n)d.") % {"n": rounds})
    if max_players is not None and not 2 <= max_players <= MAX_PLAYERS:
        bad("max_players", _("From 2 to %(n)d players.") % {"n": MAX_PLAYERS})
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
        order = list(DEFAULT_TIEBREAKS[format])
    with transaction.atomic():
        return Tournament.objects.create(
            name=name,
            organiser=organiser,
            format=format,
            rounds=rounds if format == Tournament.Format.SWISS else None,
            opening=opening,
            days_per_turn=days_per_turn,
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
            # Never for the last round: a one-round Swiss has none to give.
            half_point_byes=(
                min(half_point_byes, (rounds or 1) - 1) if format == Tournament.Format.SWISS else 0
            ),
        )


# --- Registration ----------------------------------------------------------------------------


def _locked(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    try:
        return Tournament.objects.select_for_update().get(pk=pk)
    except Tournament.DoesNotExist:
        raise errors.WrongTournamentState(_("This tournament does not exist.")) from None


def registration_is_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """Before the start (from ``registration_opens``), or — a Swiss with late entries —
    while fewer than half its rounds are paired."""
    if tournament.status == Tournament.Status.RUNNING:
        return tournament.current_round < tournament.late_entry_rounds
    now = now or timezone.now()
    return (
        tournament.status == Tournament.Status.REGISTRATION
        and (tournament.registration_opens is None or tournament.registration_opens <= now)
        and (tournament.starts_at is None or now < tournament.starts_at)
    )


def _profile(user: AbstractBaseUser) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def join(*, tournament: Tournament, user: AbstractBaseUser) -> Participant:
    """Register ``user``; refused when closed, full, already in, or a bot not admitted.

    A late entrant (a running Swiss) gets the next pairing number and is paired from
    the next round on; the rounds already paired count as zero-point byes (a missing
    board is one: see :func:`snapshot`).
    """
    with transaction.atomic():
        tournament = _locked(tournament)
        if not registration_is_open(tournament):
            raise errors.RegistrationClosed()
        profile = _profile(user)
        if profile.is_bot and not tournament.allow_bots:
            raise errors.BotsNotAllowed()
        if Participant.objects.filter(tournament=tournament, user=user).exists():
            raise errors.AlreadyJoined()
        if (
            tournament.max_players is not None
            and tournament.participants.count() >= tournament.max_players
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
                )
        except IntegrityError:  # the same user joining twice at once
            raise errors.AlreadyJoined() from None


def withdraw(*, tournament: Tournament, user: AbstractBaseUser) -> Participant | None:
    """Leave a tournament.

    Before the start the registration is simply removed (returns None).  While it
    runs the player keeps past results and is never paired again; the games they
    have not finished are lost by forfeit (termination "abandoned"), and in a round
    robin the rounds still to be paired score forfeits too (see :func:`pair_round`).
    Withdrawing twice changes nothing.
    """
    with transaction.atomic():
        tournament = _locked(tournament)
        participant = Participant.objects.filter(tournament=tournament, user=user).first()
        if participant is None:
            raise errors.NotJoined()
        if tournament.status == Tournament.Status.REGISTRATION:
            participant.delete()
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


def _entry(tournament: Tournament, user: AbstractBaseUser) -> Participant:
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
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        return errors.WrongTournamentState(_("The tournament is over."))
    if participant.withdrawn is not None:
        return errors.ByeRefused(_("You have withdrawn from this tournament."))
    last = total_rounds(tournament)
    if not 1 <= round_number < last:
        return errors.ByeRefused(
            _("A bye is for one of rounds 1 to %(n)d: never the last round.") % {"n": last - 1}
        )
    if round_number <= tournament.current_round:
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


def request_bye(*, tournament: Tournament, user: AbstractBaseUser, round_number: int) -> list[int]:
    """Swiss: sit out round ``round_number`` for half a point (TRF ``H``).

    Only for a round not yet paired and not the last one, up to the tournament's
    ``half_point_byes``; asking twice for the same round changes nothing.  Returns the
    rounds the player has asked byes for.
    """
    with transaction.atomic():
        tournament = _locked(tournament)  # the pairing of a round waits for us, or we for it
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
        for number in range(1, total_rounds(tournament))
        if number not in requested
        and _bye_refusal(tournament, participant, number, requested) is None
    ]


def cancel_bye(*, tournament: Tournament, user: AbstractBaseUser, round_number: int) -> list[int]:
    """Take back a bye request while its round is not paired; returns the rounds left."""
    with transaction.atomic():
        tournament = _locked(tournament)
        participant = _entry(tournament, user)
        refusal = _bye_refusal(tournament, participant, round_number)
        if refusal is not None:
            raise refusal
        participant.bye_requests.filter(round_number=round_number).delete()
        return sorted(_requested_byes(participant))


def set_absent(
    *, tournament: Tournament, participant: Participant, absent: bool, by: AbstractBaseUser
) -> Participant:
    """Organiser: leave a Swiss player out of the next rounds (zero-point bye) or bring back."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_manager(by, tournament)
        if tournament.is_round_robin:
            raise errors.WrongTournamentState(
                _("Only a Swiss leaves absent players out; in a round robin, withdraw them.")
            )
        if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
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


def adjudicate_board(*, pairing: Pairing, decision: str, by: AbstractBaseUser) -> Pairing:
    """Organiser: end the unfinished game of a board with ``decision`` (a key of
    ``ADJUDICATIONS``); the board is scored as any finished game is."""
    if decision not in ADJUDICATIONS:
        raise errors.InvalidTournament(
            _("Choose one of %(v)s.") % {"v": ", ".join(ADJUDICATIONS)},
            fields={"result": [_("Not a decision an organiser can take.")]},
        )
    with transaction.atomic():
        tournament = _locked(pairing.round.tournament_id)
        _require_manager(by, tournament)
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


def total_rounds(tournament: Tournament) -> int:
    return tournament.rounds or 0


def start_tournament(
    *, tournament: Tournament | int, by: AbstractBaseUser | None = None
) -> Tournament:
    """Give starting ranks (rating, then name) and pair round 1 (all rounds if all at once).

    ``by`` is the user asking (must organise it); None is the scheduler.
    """
    with transaction.atomic():
        tournament = _locked(tournament)
        if by is not None:
            _require_manager(by, tournament)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise errors.WrongTournamentState(_("The tournament has already started."))
        players = list(
            tournament.participants.select_related("user__profile").order_by("joined", "id")
        )
        if len(players) < 2:
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
        tournament.save(update_fields=["rounds", "status", "started", "current_round"])
        for participant in players:
            _notify(
                participant.user,
                "tournament_started",
                params={"tournament": tournament.name},
                url=tournament.get_absolute_url(),
                dedupe_key=f"tournament_started:{tournament.pk}",
            )
        last = tournament.rounds if (tournament.is_round_robin and tournament.all_at_once) else 1
        for number in range(1, (last or 0) + 1):
            pair_round(tournament_id=tournament.pk, round_number=number)
    tournament.refresh_from_db()
    return tournament


def start_due_tournaments(now: datetime.datetime | None = None) -> list[int]:
    """Start tournaments whose time has come; cancel those without enough players."""
    now = now or timezone.now()
    started = []
    due = Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, starts_at__isnull=False, starts_at__lte=now
    ).values_list("pk", flat=True)
    for tournament_id in due:
        try:
            start_tournament(tournament=tournament_id)
            started.append(tournament_id)
        except errors.NotEnoughPlayers:
            Tournament.objects.filter(
                pk=tournament_id, status=Tournament.Status.REGISTRATION
            ).update(status=Tournament.Status.CANCELLED, finished=now)
            logger.info("tournament %s cancelled: not enough players", tournament_id)
        except errors.WrongTournamentState:
            pass  # started meanwhile by its organiser
    return started


def _unfinished_pairings(tournament_id: int, up_to_round: int) -> bool:
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
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return None
        all_at_once = tournament.is_round_robin and tournament.all_at_once
        if (
            not all_at_once
            and round_number > 1
            and _unfinished_pairings(tournament_id, round_number - 1)
        ):
            return None
        if round_number > total_rounds(tournament):
            return None
        # The claim: only one transaction moves current_round from n-1 to n.
        claimed = Tournament.objects.filter(
            pk=tournament_id, status=Tournament.Status.RUNNING, current_round=round_number - 1
        ).update(current_round=round_number)
        if claimed != 1:
            return None
        tournament.current_round = round_number
        participants = {p.seed: p for p in tournament.participants.select_related("user")}
        half_point_byes: list[int] = []  # seeds that asked to sit this round out
        if tournament.is_round_robin:
            double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
            table = pairing.berger_rounds(len(participants), double=double)
            boards = table[round_number - 1]
        else:
            state = snapshot(tournament, rounds=round_number - 1, next_round=True)
            half_point_byes = sorted(
                seed
                for seed, outcome in state.requested_byes.items()
                if outcome is Outcome.HALF_POINT_BYE
            )
            try:
                boards = pairing.pair_next_round(state).pairs()
            except pairing.PairingError as exc:
                logger.info(
                    "tournament %s ends before round %s: %s", tournament_id, round_number, exc
                )
                Tournament.objects.filter(pk=tournament_id).update(current_round=round_number - 1)
                _finish(tournament_id)
                return None
            if not boards and not half_point_byes:  # nobody left to pair
                Tournament.objects.filter(pk=tournament_id).update(current_round=round_number - 1)
                _finish(tournament_id)
                return None
        round_ = Round.objects.create(tournament=tournament, number=round_number)
        rows = []
        for board_number, (white_seed, black_seed) in enumerate(boards, start=1):
            white = participants[white_seed]
            black = participants[black_seed] if black_seed else None
            rows.append(_board(tournament, round_, board_number, white, black))
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
        if not all_at_once:  # all at once: "tournament started" said it all
            _announce_round(tournament, round_number, rows)
        if not _unfinished_pairings(tournament_id, round_number):
            # Only byes and forfeits: nothing will finish this round but us.
            from tournaments.tasks import advance_tournament

            enqueue(advance_tournament, tournament_id)
    return round_


def _notify(user: Any, kind: str, **options: Any) -> None:
    """Tell a player through the notifications app (site, and email unless a bot)."""
    if not apps.is_installed("notifications"):
        return
    from notifications.services import notify

    notify(user=user, kind=kind, **options)


def _announce_round(tournament: Tournament, number: int, rows: list[Pairing]) -> None:
    for row in rows:
        if row.game is None or row.black is None:
            continue  # byes and forfeits: nobody has to play
        for me, opponent in ((row.white, row.black), (row.black, row.white)):
            _notify(
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


def _withdrawn_for(participant: Participant, round_number: int) -> bool:
    after = participant.withdrawn_after_round
    return after is not None and after < round_number


def _board(
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
            Outcome.ZERO_POINT_BYE if _withdrawn_for(white, round_.number) else Outcome.PAIRING_BYE
        )
        return row
    white_gone = _withdrawn_for(white, round_.number)
    black_gone = _withdrawn_for(black, round_.number)
    if white_gone or black_gone:
        # Round robin after a withdrawal: the game is not played, the present side wins.
        row.white_outcome = Outcome.FORFEIT_LOSS if white_gone else Outcome.FORFEIT_WIN
        row.black_outcome = Outcome.FORFEIT_LOSS if black_gone else Outcome.FORFEIT_WIN
        return row
    row.game = game_services.start_game(
        white=white.user,
        black=black.user,
        opening=tournament.opening,
        days_per_turn=tournament.days_per_turn,
        rated=tournament.rated,
    )
    return row


# Every finished game asks (most games are not tournament games): compiled once.
_LOCKED_PAIRING_OF_GAME = CompiledQuery(
    lambda game: (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("white", "black", "round")
        .filter(game_id=game)
        .order_by("pk")[:1]
    ),
    int,
)


def record_game_result(*, game: Game) -> Pairing | None:
    """Score a finished tournament game on its board (called inside the game's transaction).

    Decisive games lost on time or abandoned are forfeits (``+``/``-``: the players
    have not met for pairing purposes); other results are played games.  After a
    pie opening the board takes the colours actually played.  When the round is
    complete the ``advance_tournament`` task is queued (after commit).
    """
    found = _LOCKED_PAIRING_OF_GAME.fetch(game.pk)
    row = found[0] if found else None
    if row is None or row.white_outcome or row.black is None:
        return row
    if game.white_id != row.white.user_id:
        row.white, row.black = row.black, row.white
    forfeit = game.termination in _FORFEIT_TERMINATIONS
    if game.result == Game.Result.DRAW:
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

        enqueue(advance_tournament, tournament_id)
    return row


def advance(*, tournament_id: int) -> str:
    """Move a running tournament on: pair the next round or finish. Idempotent.

    Returns what happened: ``"paired"``, ``"finished"``, ``"waiting"`` (games on)
    or ``"idle"`` (not running, or a twin did the work).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return "idle"
    current = tournament.current_round
    if _unfinished_pairings(tournament_id, current):
        return "waiting"
    if current >= total_rounds(tournament):
        return "finished" if _finish(tournament_id) else "idle"
    if pair_round(tournament_id=tournament_id, round_number=current + 1) is not None:
        return "paired"
    tournament.refresh_from_db()
    return "finished" if tournament.status == Tournament.Status.FINISHED else "idle"


def _finish(tournament_id: int) -> bool:
    """RUNNING → FINISHED once every game is over (guarded: True only for the caller that did it)."""
    with transaction.atomic():
        if Pairing.objects.filter(round__tournament_id=tournament_id, white_outcome="").exists():
            return False
        return (
            Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).update(
                status=Tournament.Status.FINISHED, finished=timezone.now()
            )
            == 1
        )


def finish_tournament(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """Organiser: close a running tournament whose games are all over (e.g. ended early)."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_manager(by, tournament)
        if tournament.status != Tournament.Status.RUNNING:
            raise errors.WrongTournamentState(_("Only a running tournament can be finished."))
        if not _finish(tournament.pk):
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


# --- Reading: snapshot, standings, crosstable, TRF, records -----------------------------------


@dataclass(frozen=True)
class Snapshot:
    """Rows of a tournament read once: participants by seed and every board's facts."""

    tournament: Tournament
    participants: dict[int, Participant]
    # (round, board, white seed, black seed or None, white outcome, black outcome, game id)
    boards: list[tuple[int, int, int, int | None, str, str, int | None]]

    @property
    def paired_rounds(self) -> int:
        return max((b[0] for b in self.boards), default=0)

    def completed_rounds(self) -> int:
        """Rounds 1..k all over (the prefix a TRF or a pairing program may see)."""
        open_rounds = {b[0] for b in self.boards if not b[4]}
        paired = self.paired_rounds
        for number in range(1, paired + 1):
            if number in open_rounds:
                return number - 1
        return paired


def read_rows(tournament: Tournament) -> Snapshot:
    """Two queries, whatever the size: participants, then every board."""
    participants = {
        p.seed: p for p in tournament.participants.select_related("user").filter(seed__isnull=False)
    }
    boards = list(
        Pairing.objects.filter(round__tournament=tournament)
        .order_by("round__number", "board")
        .values_list(
            "round__number",
            "board",
            "white__seed",
            "black__seed",
            "white_outcome",
            "black_outcome",
            "game_id",
        )
    )
    return Snapshot(tournament, participants, boards)


def snapshot(
    tournament: Tournament,
    *,
    rounds: int | None = None,
    next_round: bool = False,
    rows: Snapshot | None = None,
) -> pairing.Tournament:
    """The tournament as the pairing package sees it, after ``rounds`` rounds.

    ``rounds`` defaults to every paired round; a game still being played then
    counts as a zero-point entry for both players (provisional standings).
    ``next_round``: the state used to pair the round after ``rounds`` (absent
    players get a zero-point bye in it).  Withdrawn players are those who
    withdrew before the round after ``rounds`` was paired.
    """
    rows = rows or read_rows(tournament)
    count = rows.paired_rounds if rounds is None else rounds
    results: dict[int, list[RoundResult]] = {
        seed: [RoundResult.bye(Outcome.ZERO_POINT_BYE)] * count for seed in rows.participants
    }
    for number, _board_number, white, black, white_outcome, black_outcome, _game in rows.boards:
        if number > count:
            continue
        index = number - 1
        if black is None:
            results[white][index] = RoundResult.bye(Outcome(white_outcome))
        elif white_outcome:
            results[white][index] = RoundResult(black, "w", Outcome(white_outcome))
            results[black][index] = RoundResult(white, "b", Outcome(black_outcome))
        # else: an ongoing game keeps the zero-point placeholder on both sides.
    players = [
        PlayerEntry(
            id=seed,
            name=participant.user.get_username(),
            rating=participant.rating,
            results=results[seed],
            withdrawn=_withdrawn_for(participant, count + 1),
        )
        for seed, participant in sorted(rows.participants.items())
    ]
    requested: dict[int, Outcome] = {}
    if next_round:
        present = {
            seed for seed, p in rows.participants.items() if not _withdrawn_for(p, count + 1)
        }
        # Asked-for half-point byes of the next round; an absent player gets nothing.
        for seed in ByeRequest.objects.filter(
            participant__tournament=tournament, round_number=count + 1
        ).values_list("participant__seed", flat=True):
            if seed in present:
                requested[seed] = Outcome.HALF_POINT_BYE
        for seed in present:
            if rows.participants[seed].absent:
                requested[seed] = Outcome.ZERO_POINT_BYE
    return pairing.Tournament(
        players=tuple(players),
        total_rounds=total_rounds(tournament) or count,
        first_color="w",
        bye_points=tournament.bye_points,
        requested_byes=requested,
    )


@dataclass(frozen=True)
class StandingRow:
    rank: int
    participant: Participant
    points: int  # half-points
    tiebreaks: tuple[tuple[str, str], ...]  # (acronym, displayed value)

    @property
    def points_display(self) -> str:
        return pairing.format_points(self.points)


@dataclass(frozen=True)
class Standings:
    rows: list[StandingRow]
    tiebreaks: tuple[str, ...]
    rounds: int
    provisional: bool  # some paired games are still being played


def standings(tournament: Tournament, *, rows: Snapshot | None = None) -> Standings:
    """Ranked players after every paired round (2 queries; the package does the maths)."""
    rows = rows or read_rows(tournament)
    order = tuple(tournament.tiebreak_list)
    state = snapshot(tournament, rows=rows)
    provisional = any(not b[4] for b in rows.boards)
    table = pairing.standings(state, order) if state.players else []
    return Standings(
        rows=[
            StandingRow(
                rank=line.rank,
                participant=rows.participants[line.player_id],
                points=line.points,
                tiebreaks=tuple(
                    (name, pairing.format_tiebreak(name, value))
                    for name, value in zip(order, line.tiebreaks, strict=True)
                ),
            )
            for line in table
        ],
        tiebreaks=order,
        rounds=rows.paired_rounds,
        provisional=provisional,
    )


@dataclass(frozen=True)
class CrossCell:
    """One player's round in the crosstable: opponent's rank, colour, result."""

    opponent_rank: int | None
    color: str  # "w", "b" or ""
    result: str  # displayed: 1 ½ 0 + − bye…, "*" while playing, "" unpaired
    game_id: int | None


_DISPLAY = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−", "H": "½", "F": "1", "Z": "0"}


def crosstable(
    tournament: Tournament, *, rows: Snapshot | None = None
) -> tuple[Standings, list[list[CrossCell]]]:
    """Standings plus, per player in that order, one cell per paired round."""
    rows = rows or read_rows(tournament)
    table = standings(tournament, rows=rows)
    rank_of = {line.participant.seed: line.rank for line in table.rows}
    rounds = rows.paired_rounds
    cells: dict[int, list[CrossCell]] = defaultdict(
        lambda: [CrossCell(None, "", "", None) for _ in range(rounds)]
    )
    bye = pairing.format_points(tournament.bye_points)
    for number, _b, white, black, white_outcome, black_outcome, game_id in rows.boards:
        index = number - 1
        if black is None:
            shown = bye if white_outcome == Outcome.PAIRING_BYE else _DISPLAY[white_outcome]
            cells[white][index] = CrossCell(None, "", f"{shown} ({_('bye')})", None)
            continue
        cells[white][index] = CrossCell(
            rank_of[black], "w", _DISPLAY.get(white_outcome, "*"), game_id
        )
        cells[black][index] = CrossCell(
            rank_of[white], "b", _DISPLAY.get(black_outcome, "*"), game_id
        )
    return table, [cells[line.participant.seed] for line in table.rows]


def round_robin_grid(table: Standings, rows: Snapshot) -> list[list[str]]:
    """The classic round-robin table: row i, column j = i's result(s) against j, by rank.

    The diagonal is ``×``; a double round robin shows both games (``1 ½``); a game
    still on is ``*``.
    """
    position = {line.participant.seed: index for index, line in enumerate(table.rows)}
    size = len(table.rows)
    grid: list[list[list[str]]] = [[[] for _ in range(size)] for _ in range(size)]
    for _n, _b, white, black, white_outcome, black_outcome, _g in rows.boards:
        if black is None:
            continue
        w, b = position[white], position[black]
        grid[w][b].append(_DISPLAY.get(white_outcome, "*"))
        grid[b][w].append(_DISPLAY.get(black_outcome, "*"))
    return [["×" if i == j else " ".join(grid[i][j]) for j in range(size)] for i in range(size)]


def trf(tournament: Tournament, *, rounds: int | None = None) -> str:
    """TRF-16 of the completed rounds (or the first ``rounds``), via the package's writer."""
    rows = read_rows(tournament)
    completed = rows.completed_rounds()
    count = completed if rounds is None else min(rounds, completed)
    # Absences announced for the next round are written only when it is the next to pair.
    live = rounds is None and completed == rows.paired_rounds
    state = snapshot(tournament, rows=rows, rounds=count, next_round=live)
    return pairing.write_trf(state, name=tournament.name)


def round_pairings(tournament: Tournament, number: int) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("white__user", "black__user", "game")
        .order_by("board")
    )


def describe(tournament: Tournament) -> dict[str, Any]:
    """Facts shown on the tournament page and in the API besides the model fields."""
    return {
        "rules_version": pairing.RULES_VERSION if tournament.format == "swiss" else "",
        "registration_open": registration_is_open(tournament),
    }

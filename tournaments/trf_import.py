"""Import a tournament from TRF-16 to continue it on the platform.

An organiser uploads a file (:func:`queue_import`); a job (:func:`run_import`) reads it
with the pure reader (``tournaments.pairing.read_trf``: any problem names its line) and
creates, in one transaction, a running Swiss:

* players with their TRF starting ranks and ratings, each the imported name
  ``Name@imported`` (accounts.imported; a name met twice gets its rank added).  When the
  organiser asks (``match_users``), the account whose username (or else unique display
  name) is the TRF name is *invited* (:class:`SeatInvitation`, a notification): only its
  owner's click puts it in the imported player's place (:func:`answer_invitation`) —
  nobody is entered in a tournament, or paired, without consenting;
* the played rounds as Round and Pairing rows with their result codes and no Game rows
  (what standings, tie-breaks, crosstables and the pairer read): games, forfeits, the
  pairing-allocated bye (``U``), half- and full-point byes (``H``/``F``); a zero-point
  bye is a missing board, as for a late entrant;
* forbidden pairs (``XXP``); a half-point bye announced for the next round becomes a
  bye request, a zero-point one marks the player absent.

Then the tournament goes on: the next round is paired by the platform (``advance``),
or waits as a draft with ``arbiter_publishes``.  Not imported: acceleration (``XXA``),
a full-point bye announced for the next round (refused with a message); players who
left are not marked withdrawn (the organiser marks them absent).
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.imported import imported_player
from core.errors import DomainError
from tournaments import errors, pairing, services
from tournaments.models import (
    ByeRequest,
    ForbiddenPair,
    Pairing,
    Participant,
    Round,
    SeatInvitation,
    Tournament,
    TrfImport,
)
from tournaments.pairing import Outcome

logger = logging.getLogger(__name__)

MAX_FILE_BYTES = 2_000_000  # 9999 players × 99 rounds is about that much


class _Refused(Exception):
    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def decode(data: bytes) -> str:
    """TRF files come as UTF-8 or (older programs) Windows-1252."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def queue_import(
    *,
    organiser: User,
    data: bytes,
    name: str = "",
    match_users: bool = False,
    arbiter_publishes: bool = False,
) -> TrfImport:
    """Keep the uploaded file and queue the import job (after the commit)."""
    if not services.can_organise(organiser):
        raise errors.CannotOrganise()
    if not data.strip():
        raise errors.InvalidImport(_("The file is empty."), fields={"file": [_("Required.")]})
    if len(data) > MAX_FILE_BYTES:
        message = _("A TRF file may have at most %(n)d bytes.") % {"n": MAX_FILE_BYTES}
        raise errors.InvalidImport(message, fields={"file": [message]})
    text = decode(data)
    if "\x00" in text:
        message = _("This is not a text file.")
        raise errors.InvalidImport(message, fields={"file": [message]})
    with transaction.atomic():
        job = TrfImport.objects.create(
            organiser=organiser,
            text=text,
            name=" ".join(name.split())[: services.MAX_NAME_LENGTH],
            match_users=match_users,
            arbiter_publishes=arbiter_publishes,
        )
        from tournaments.tasks import import_trf_task

        import_trf_task.delay(job.pk)
    return job


def run_import(*, import_id: int) -> TrfImport | None:
    """The job: import once (a re-delivered message finds it done and does nothing)."""
    with transaction.atomic():
        job = TrfImport.objects.select_for_update().filter(pk=import_id).first()
        if job is None or job.status != TrfImport.Status.PENDING:
            return job
        try:
            with transaction.atomic():
                tournament = _create(job)
        except _Refused as refusal:
            job.status, job.error_line, job.error = "failed", refusal.line, refusal.reason
        except DomainError as exc:  # e.g. an invalid tournament name
            job.status, job.error = "failed", str(exc.message)
        else:
            job.status, job.tournament = "done", tournament
            if tournament.status == Tournament.Status.RUNNING:
                from tournaments.tasks import advance_tournament

                advance_tournament.delay(tournament.pk)  # pairs the next round
        job.finished = timezone.now()
        job.save(update_fields=["status", "error_line", "error", "tournament", "finished"])
    logger.info("TRF import %s: %s", import_id, job.status)
    return job


def _create(job: TrfImport) -> Tournament:
    try:
        document = pairing.read_trf(job.text)
    except pairing.TrfError as exc:
        raise _Refused(exc.line, exc.reason) from exc
    state = document.tournament
    if not state.players or len(state.players) < 2:
        raise _Refused(None, _("A tournament needs at least two players."))
    if len(state.players) > services.player_limit():
        # No number in the sentence: it is stored as it is and translated when shown.
        raise _Refused(None, _("The file has more players than a tournament here may have."))
    if state.accelerations:
        raise _Refused(None, _("Acceleration (XXA) cannot be imported."))
    for seed, outcome in state.requested_byes.items():
        if outcome is Outcome.FULL_POINT_BYE:
            raise _Refused(
                None,
                _(
                    "Player %(seed)d: a full-point bye announced for the next round cannot "
                    "be imported."
                )
                % {"seed": seed},
            )
    played = state.rounds_played
    if not 1 <= state.total_rounds <= services.MAX_SWISS_ROUNDS:
        raise _Refused(None, _("The number of rounds (XXR) must be 1 to 99."))
    tournament = services.create_tournament(
        organiser=job.organiser,
        name=job.name or document.name or _("Imported tournament"),
        format=Tournament.Format.SWISS,
        rounds=state.total_rounds,
        bye_points=state.bye_points,
        arbiter_publishes=job.arbiter_publishes,
        # Half-point byes stay possible as in the file; no late entries into an import.
        late_entries=False,
    )
    now = timezone.now()
    finished = played >= state.total_rounds
    tournament.status = Tournament.Status.FINISHED if finished else Tournament.Status.RUNNING
    tournament.started = now
    tournament.finished = now if finished else None
    tournament.current_round = played
    tournament.save(update_fields=["status", "started", "finished", "current_round"])
    participants = _participants(job, tournament, state)
    _rounds(tournament, state, participants)
    for pair in state.forbidden_pairs:
        low, high = sorted((participants[seed] for seed in pair), key=lambda p: p.pk)
        ForbiddenPair.objects.create(tournament=tournament, first=low, second=high)
    for seed, outcome in state.requested_byes.items():
        if outcome is Outcome.HALF_POINT_BYE:
            ByeRequest.objects.create(participant=participants[seed], round_number=played + 1)
        else:  # a zero-point bye: the player is away
            Participant.objects.filter(pk=participants[seed].pk).update(absent=True)
    return tournament


def _participants(
    job: TrfImport, tournament: Tournament, state: pairing.Tournament
) -> dict[int, Participant]:
    taken: set[int] = set()
    rows = []
    invited: dict[int, User] = {}  # seed → the account asked whether it is that player
    for player in state.players:
        if job.match_users:
            account = _account_named(player.name)
            if account is not None and account.pk not in taken:
                invited[player.id] = account
                taken.add(account.pk)  # one invitation per account
        user = imported_player(player.name)
        if user.pk in taken:  # the same name twice: tell them apart by rank
            user = imported_player(f"{player.name} ({player.id})")
        taken.add(user.pk)
        rows.append(
            Participant(tournament=tournament, user=user, seed=player.id, rating=player.rating)
        )
    Participant.objects.bulk_create(rows)
    participants = {p.seed: p for p in Participant.objects.filter(tournament=tournament) if p.seed}
    _invite(job, tournament, {participants[seed]: account for seed, account in invited.items()})
    return participants


def _invite(job: TrfImport, tournament: Tournament, invited: dict[Participant, User]) -> None:
    """Ask each matched account whether it is the imported player (a notification with
    the link to answer; after the import's commit)."""
    invitations = SeatInvitation.objects.bulk_create(
        SeatInvitation(participant=seat, user=account) for seat, account in invited.items()
    )
    for invitation in invitations:
        services.notify_player(
            invitation.user,
            "tournament_invitation",
            params={
                "organiser": job.organiser.get_username(),
                "tournament": tournament.name,
                "name": invitation.participant.user.profile.display_name,
            },
            url=reverse("tournaments:invitations"),
            dedupe_key=f"tournament_invitation:{invitation.pk}",
        )


def _account_named(name: str) -> User | None:
    """The active account whose username, or else whose display name, is ``name`` (case
    aside); None when there is none or the display name is not unique."""
    name = " ".join(name.split())
    if not name:
        return None
    user = User.objects.filter(username__iexact=name, is_active=True).first()
    if user is not None:
        return user
    matches = list(User.objects.filter(profile__display_name__iexact=name, is_active=True)[:2])
    return matches[0] if len(matches) == 1 else None


def _rounds(
    tournament: Tournament, state: pairing.Tournament, participants: dict[int, Participant]
) -> None:
    for index in range(state.rounds_played):
        round_ = Round.objects.create(tournament=tournament, number=index + 1)
        games, byes = [], []
        for player in state.players:
            result = player.results[index]
            if result.opponent is None:
                if result.outcome is not Outcome.ZERO_POINT_BYE:  # Z: a missing board
                    byes.append((player.id, result.outcome))
                continue
            if result.opponent < player.id:
                continue  # listed with the opponent
            other = state.player(result.opponent).results[index]
            if result.color == "b" or (result.color is None and other.color == "w"):
                games.append((result.opponent, player.id, other.outcome, result.outcome))
            else:
                games.append((player.id, result.opponent, result.outcome, other.outcome))
        rows = [
            Pairing(
                round=round_,
                board=number,
                white=participants[white],
                black=participants[black],
                white_outcome=white_outcome,
                black_outcome=black_outcome,
            )
            for number, (white, black, white_outcome, black_outcome) in enumerate(games, 1)
        ]
        rows += [
            Pairing(round=round_, board=number, white=participants[seed], white_outcome=outcome)
            for number, (seed, outcome) in enumerate(byes, len(rows) + 1)
        ]
        Pairing.objects.bulk_create(rows)


# --- Invitations to imported places ---------------------------------------------------------


def invitations_of(user: User) -> list[SeatInvitation]:
    """The account's invitations, newest first, with what a page or the API shows."""
    return list(
        SeatInvitation.objects.filter(user=user).select_related(
            "participant__tournament__organiser", "participant__user__profile"
        )
    )


def answer_invitation(*, invitation_id: int, user: User, accept: bool) -> SeatInvitation:
    """The invited account's answer.  Accepted, the account takes the imported player's
    place: at once when that place has no game on, else when the next round is paired
    (:func:`take_accepted_places`: a game that started under the imported name ends
    under it).  Declined, the place stays the imported name's.  The same answer twice
    changes nothing; another answer is refused."""
    mine = SeatInvitation.objects.filter(pk=invitation_id, user=user)
    tournament_id = mine.values_list("participant__tournament_id", flat=True).first()
    if tournament_id is None:
        raise errors.NoInvitation()
    answer = SeatInvitation.Status.ACCEPTED if accept else SeatInvitation.Status.DECLINED
    with transaction.atomic():
        # The pairing of a round (which takes accepted places) waits for us, or we for it.
        tournament = services.locked_tournament(tournament_id)
        invitation = mine.select_for_update().select_related("participant").get()
        if invitation.status == answer:
            return invitation
        if invitation.status != SeatInvitation.Status.PENDING:
            raise errors.WrongTournamentState(_("This invitation has already been answered."))
        if accept and tournament.status == Tournament.Status.CANCELLED:
            raise errors.WrongTournamentState(_("The tournament was cancelled."))
        if accept and Participant.objects.filter(tournament=tournament, user=user).exists():
            raise errors.AlreadyJoined()
        invitation.status = answer
        invitation.answered = timezone.now()
        invitation.save(update_fields=["status", "answered"])
        if accept:
            take_accepted_places(tournament)
    return invitation


def take_accepted_places(tournament: Tournament) -> list[int]:
    """Put each account that accepted its invitation in its imported player's place,
    unless a game of that place is on (it then waits for the next pairing, which calls
    this again).  Inside the caller's transaction, the tournament row locked.  Returns
    the places taken now."""
    waiting = (
        SeatInvitation.objects.filter(
            participant__tournament=tournament, status=SeatInvitation.Status.ACCEPTED
        )
        .exclude(participant__user=F("user"))
        .select_related("participant")
    )
    taken = []
    for invitation in waiting:
        seat = invitation.participant
        if Pairing.objects.filter(Q(white=seat) | Q(black=seat), white_outcome="").exists():
            continue
        try:
            with transaction.atomic():
                Participant.objects.filter(pk=seat.pk).update(user=invitation.user)
        except IntegrityError:  # the account is in the tournament already
            logger.info("invitation %s: the account already plays", invitation.pk)
            continue
        taken.append(seat.pk)
    return taken

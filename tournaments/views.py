"""Tournament pages: list, create, tournament (standings), crosstable, rounds, downloads.

Views parse and format; every change goes through tournaments.services and a
refusal becomes a message in words.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.requests import SignedInHttpRequest
from tournaments import errors, selectors, services
from tournaments.api.views import filter_by_status, text_download, tournaments_queryset
from tournaments.forms import TIEBREAK_LABELS, TournamentForm
from tournaments.models import Pairing, Participant, Tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    queryset = tournaments_queryset()
    sections = [
        ("upcoming", _("Upcoming"), filter_by_status(queryset, "upcoming")[:50]),
        ("running", _("Running"), filter_by_status(queryset, "running")[:50]),
        ("finished", _("Finished"), filter_by_status(queryset, "finished")[:50]),
    ]
    return render(
        request,
        "tournaments/list.html",
        {"sections": sections, "can_organise": services.can_organise(request.user)},
    )


@login_required
def tournament_create(request: SignedInHttpRequest) -> HttpResponse:
    if not services.can_organise(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(
                organiser=request.user, **form.service_arguments()
            )
        except errors.InvalidTournament as exc:
            for field, problems in exc.details.get("fields", {}).items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        else:
            messages.success(request, _("Tournament created."))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return render(request, "tournaments/create.html", {"form": form})


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(tournaments_queryset(), pk=tournament_id)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    participants = list(tournament.participants.select_related("user__profile"))
    mine: Participant | None = None
    if request.user.is_authenticated:
        mine = next((p for p in participants if p.user_id == request.user.pk), None)
    table = selectors.standings(tournament) if tournament.started else None
    may_manage = services.may_manage(request.user, tournament)
    my_byes = sorted(mine.bye_requests.values_list("round_number", flat=True)) if mine else []
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "participants": participants,
            "mine": mine,
            "table": table,
            "tiebreak_labels": [(name, TIEBREAK_LABELS[name]) for name in tournament.tiebreak_list],
            "registration_open": selectors.registration_is_open(tournament),
            "may_manage": may_manage,
            "manage_absences": (
                may_manage
                and tournament.format == Tournament.Format.SWISS
                and tournament.status == Tournament.Status.RUNNING
            ),
            "rounds": range(1, tournament.current_round + 1),
            "my_byes": my_byes,
            "my_pairings": selectors.my_current_pairings(tournament, mine),
            "addable_bots": services.addable_bots(tournament) if may_manage else [],
            "bye_rounds": services.bye_rounds_open(tournament, mine, my_byes),
            **selectors.describe(tournament),
        },
    )


@login_required
@require_POST
def tournament_action(
    request: SignedInHttpRequest, tournament_id: int, action: str
) -> HttpResponse:
    tournament = _tournament(tournament_id)
    number = _posted_number(request, "round")  # 0 when missing: the service says why
    calls = {
        "join": (
            lambda: services.join(
                tournament=tournament, user=request.user, club=request.POST.get("club", "")
            ),
            _("Joined."),
        ),
        "withdraw": (
            lambda: services.withdraw(tournament=tournament, user=request.user),
            _("Withdrawn."),
        ),
        "start": (
            lambda: services.request_start(tournament=tournament, by=request.user),
            _("The tournament is starting: its players are ranked and round 1 paired."),
        ),
        "bye": (
            lambda: services.request_bye(
                tournament=tournament, user=request.user, round_number=number
            ),
            _("Half-point bye requested for round %(n)d.") % {"n": number},
        ),
        "cancel-bye": (
            lambda: services.cancel_bye(
                tournament=tournament, user=request.user, round_number=number
            ),
            _("Half-point bye for round %(n)d cancelled.") % {"n": number},
        ),
        # Organisers:
        "add-bot": (
            lambda: services.add_bot(
                tournament=tournament, username=request.POST.get("bot", ""), by=request.user
            ),
            _("The bot is in."),
        ),
        "absent": (lambda: _set_absent(request, tournament, True), _("Marked absent.")),
        "present": (lambda: _set_absent(request, tournament, False), _("Back in the pairings.")),
        "adjudicate": (lambda: _adjudicate(request, tournament, number), _("Board decided.")),
    }
    if action not in calls:
        raise Http404
    call, done = calls[action]
    try:
        call()
    except DomainError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, done)
    if action == "adjudicate" and number >= 1:
        return redirect("tournaments:round", tournament_id=tournament.pk, number=number)
    return redirect("tournaments:detail", tournament_id=tournament.pk)


def _posted_number(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return 0


def _set_absent(request: SignedInHttpRequest, tournament: Tournament, absent: bool) -> None:
    participant = get_object_or_404(
        Participant, pk=_posted_number(request, "participant"), tournament=tournament
    )
    services.set_absent(
        tournament=tournament, participant=participant, absent=absent, by=request.user
    )


def _adjudicate(request: SignedInHttpRequest, tournament: Tournament, number: int) -> None:
    pairing = get_object_or_404(
        Pairing.objects.select_related("round"),
        round__tournament=tournament,
        round__number=number,
        board=_posted_number(request, "board"),
    )
    services.adjudicate_board(
        pairing=pairing, decision=request.POST.get("result", ""), by=request.user
    )


def crosstable(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    rows = selectors.read_rows(tournament)
    table, cells = selectors.crosstable(tournament, rows=rows)
    grid = selectors.round_robin_grid(table, rows) if tournament.is_round_robin else None
    return render(
        request,
        "tournaments/crosstable.html",
        {
            "tournament": tournament,
            "table": table,
            "lines": list(zip(table.rows, cells, strict=True)),
            "grid": list(zip(table.rows, grid, strict=True)) if grid is not None else None,
            "rounds": range(1, table.rounds + 1),
        },
    )


# The organiser's choices for an unfinished board (services.ADJUDICATIONS), as shown.
ADJUDICATION_LABELS = [
    ("1-0", "1–0"),
    ("1/2-1/2", "½–½"),
    ("0-1", "0–1"),
    ("+-", gettext_lazy("+– (forfeit)")),
    ("-+", gettext_lazy("–+ (forfeit)")),
]


def round_page(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    boards = selectors.round_pairings(tournament, number)
    if not boards:
        raise Http404
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "number": number,
            "boards": boards,
            "rounds": range(1, tournament.current_round + 1),
            "bye": services.pairing.format_points(tournament.bye_points),
            "may_manage": services.may_manage(request.user, tournament),
            "decisions": ADJUDICATION_LABELS,
        },
    )


def trf_download(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    return text_download(selectors.trf(tournament), f"tournament-{tournament.pk}.trf")

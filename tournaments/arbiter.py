"""Arbiter control: draft Swiss rounds (preview, edit, publish) and forbidden pairs.

With ``Tournament.arbiter_publishes`` the pairing job (``services.pair_round``) stores the
round it computed as a :class:`~tournaments.models.DraftRound` instead of creating games.
The organiser sees it with the checker's warnings (the pure
``tournaments.pairing.check_tournament``, the same as ``python -m tournaments.pairing
check``: repeat pairings, forbidden pairs, byes, absolute colour constraints), may swap a
board's colours, swap two players, move a player to the bye or pair two players by hand —
warnings never block — and publishes it: a job claims the round exactly as an automatic
pairing does (``current_round`` n-1 → n) and creates its boards and games
(``services.create_round``).

Forbidden pairs: the organiser lists pairs of players; with ``avoid_same_club`` players
who gave the same club at join are forbidden pairs too (``selectors.forbidden_seed_pairs``).
The Swiss pairer never pairs them; round robins ignore them (their tables are fixed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors, pairing, selectors, services
from tournaments.models import DraftRound, ForbiddenPair, Participant, Round, Tournament

Boards = list[list[int | None]]  # [[white seed, black seed or None], ...]


# --- Drafts ---------------------------------------------------------------------------------


def store_draft(
    tournament: Tournament,
    number: int,
    boards: list[tuple[int, int]],
    half_point_byes: list[int],
) -> DraftRound:
    """Keep a computed pairing as the round's draft (called by ``services.pair_round``
    inside its transaction, the tournament row locked); an existing draft is kept."""
    draft, _created = DraftRound.objects.get_or_create(
        tournament=tournament,
        defaults={
            "number": number,
            "boards": [[white, black or None] for white, black in boards],
            "half_point_byes": list(half_point_byes),
        },
    )
    return draft


def draft_of(tournament: Tournament) -> DraftRound | None:
    return DraftRound.objects.filter(tournament=tournament).first()


@dataclass(frozen=True)
class DraftWarning:
    """A violated absolute criterion in a draft: the board, the players, what is wrong."""

    board: int | None
    seeds: tuple[int, ...]
    usernames: tuple[str, ...]
    rule: str
    message: str  # in the reader's language
    detail: str  # the checker's own words (seeds), as the command line prints them


def _rule_message(rule: str, names: str) -> str:
    messages = {
        "C1": _("%(players)s have already played each other."),
        "forbidden": _("%(players)s are a forbidden pair."),
        "C2": _(
            "%(players)s may not get the pairing-allocated bye: they already had a bye, "
            "a forfeit win or a full-point bye."
        ),
        "bye": _("More than one pairing-allocated bye: %(players)s."),
        "C3": _("%(players)s both have an absolute preference for the same colour."),
        "colour": _(
            "%(players)s would break the colour rules (a colour difference beyond 2, or "
            "three games in a row with the same colour)."
        ),
    }
    return messages.get(rule, "%(players)s") % {"players": names}


def warnings(tournament: Tournament, draft: DraftRound) -> list[DraftWarning]:
    """The checker's violations of the absolute criteria if the draft were published."""
    rows = selectors.read_rows(tournament)
    state = selectors.snapshot(tournament, rows=rows, rounds=draft.number - 1, next_round=True)
    boards = tuple(pairing.Board(white, black) for white, black in draft.boards)
    seeds = {p.id for p in state.players}
    if any(s not in seeds for board in boards for s in (board.white, board.black) if s):
        return []  # cannot happen: edits only move the draft's own players
    # Any result will do: the criteria look at who meets whom, with which colours.
    trial = pairing.record_round(
        state,
        pairing.RoundPairing(draft.number, boards),
        {board.white: pairing.Outcome.DRAW for board in boards if board.black is not None},
    )
    board_of = {
        seed: number
        for number, (white, black) in enumerate(draft.boards, start=1)
        for seed in (white, black)
        if seed
    }
    found = []
    for violation in pairing.check_tournament(trial, rules=tournament.pairing_rules):
        if violation.round != draft.number:
            continue
        usernames = tuple(rows.participants[s].user.get_username() for s in violation.players)
        found.append(
            DraftWarning(
                board=board_of.get(violation.players[0]),
                seeds=violation.players,
                usernames=usernames,
                rule=violation.rule,
                message=_rule_message(violation.rule, ", ".join(usernames)),
                detail=violation.message,
            )
        )
    return found


def _editable(tournament: Tournament, by: User) -> tuple[Tournament, DraftRound]:
    """Lock the tournament (the pairing job and the publication wait for us) and its draft."""
    tournament = services.locked_tournament(tournament)
    if not services.may_manage(by, tournament):
        raise errors.NotOrganiser()
    draft = DraftRound.objects.filter(tournament=tournament).first()
    if draft is None or draft.publishing:
        raise errors.NoDraftRound()
    return tournament, draft


def _position(boards: Boards, seed: int) -> tuple[int, int]:
    for index, board in enumerate(boards):
        if seed in board:
            return index, board.index(seed)
    raise errors.InvalidDraftEdit(
        _("Player %(seed)d is not paired in this round.") % {"seed": seed},
        fields={"players": [_("Not in this round: %(seed)d.") % {"seed": seed}]},
    )


def _tidy(boards: Boards) -> Boards:
    """Games first in their order, then the byes; empty boards dropped."""
    games = [b for b in boards if b[0] and b[1]]
    byes = [[b[0] or b[1], None] for b in boards if bool(b[0]) != bool(b[1])]
    return games + byes


def swap_colours(boards: Boards, board: int) -> Boards:
    if not 1 <= board <= len(boards) or boards[board - 1][1] is None:
        raise errors.InvalidDraftEdit(
            _("Board %(n)d is not a game of this round.") % {"n": board},
            fields={"board": [_("Choose a board with two players.")]},
        )
    boards[board - 1] = [boards[board - 1][1], boards[board - 1][0]]
    return boards


def swap_players(boards: Boards, first: int, second: int) -> Boards:
    """``first`` and ``second`` change places (boards, colours, the bye)."""
    (i, a), (j, b) = _position(boards, first), _position(boards, second)
    boards[i][a], boards[j][b] = second, first
    return boards


def move_to_bye(boards: Boards, seed: int) -> Boards:
    """``seed`` takes the pairing-allocated bye; its holder takes ``seed``'s place.  Without
    a bye in the round, ``seed``'s opponent is left with one too (the checker warns)."""
    holder = next((b[0] for b in boards if b[1] is None), None)
    if holder is not None:
        return _tidy(swap_players(boards, seed, holder))
    index, side = _position(boards, seed)
    boards[index][side] = None
    return _tidy([*boards, [seed, None]])


def pair_players(boards: Boards, white: int, black: int) -> Boards:
    """Fix a board by hand: ``white`` plays ``black`` (with those colours) on ``white``'s
    board; whoever they displace takes the place ``black`` leaves."""
    if white == black:
        raise errors.InvalidDraftEdit(
            _("A player cannot play themselves."),
            fields={"players": [_("Choose two different players.")]},
        )
    index, side = _position(boards, white)
    other = boards[index][1 - side]
    if other is None:  # white had the bye: white joins black's board instead
        black_index, black_side = _position(boards, black)
        displaced = boards[black_index][1 - black_side]
        boards[black_index] = [white, black]
        boards[index] = [displaced, None]
        return _tidy(boards)
    if other != black:
        swap_players(boards, black, other)
    index, _side = _position(boards, white)
    boards[index] = [white, black]
    return _tidy(boards)


EDITS = ("swap_colours", "swap", "bye", "pair")


def edit_draft(*, tournament: Tournament, by: User, action: str, **values: Any) -> DraftRound:
    """Apply one edit to the waiting round: ``swap_colours`` (``board``), ``swap``
    (``first``, ``second``), ``bye`` (``player``), ``pair`` (``white``, ``black``);
    players are seeds.  Warnings never block (see :func:`warnings`)."""
    with transaction.atomic():
        tournament, draft = _editable(tournament, by)
        boards: Boards = [list(board) for board in draft.boards]

        def seed(name: str) -> int:
            value = values.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise errors.InvalidDraftEdit(
                    _("A player's starting rank is needed (%(field)s).") % {"field": name},
                    fields={name: [_("A starting rank, e.g. 3.")]},
                )
            return value

        if action == "swap_colours":
            board = values.get("board")
            boards = swap_colours(boards, board if isinstance(board, int) else 0)
        elif action == "swap":
            boards = _tidy(swap_players(boards, seed("first"), seed("second")))
        elif action == "bye":
            boards = move_to_bye(boards, seed("player"))
        elif action == "pair":
            boards = pair_players(boards, seed("white"), seed("black"))
        else:
            raise errors.InvalidDraftEdit(
                _("Choose one of %(v)s.") % {"v": ", ".join(EDITS)},
                fields={"action": [_("Choose one of %(v)s.") % {"v": ", ".join(EDITS)}]},
            )
        draft.boards = boards
        draft.save(update_fields=["boards", "edited"])
    return draft


def publish(*, tournament: Tournament, by: User) -> DraftRound:
    """Publish the waiting round: a job (:func:`publish_now`) creates its games, as the
    start of a round is a job everywhere else."""
    with transaction.atomic():
        tournament, draft = _editable(tournament, by)
        draft.publishing = True
        draft.save(update_fields=["publishing", "edited"])
        from tournaments.tasks import publish_round_task

        publish_round_task.delay(tournament.pk, draft.number)
    return draft


def publish_now(*, tournament_id: int, number: int) -> Round | None:
    """The publication job: claim round ``number`` (exactly once, as ``pair_round`` does)
    and create it from the draft; None when there is nothing to do (a twin did it)."""
    with transaction.atomic():
        tournament = services.locked_tournament(tournament_id)
        draft = DraftRound.objects.filter(tournament=tournament, number=number).first()
        if draft is None or tournament.status != Tournament.Status.RUNNING:
            return None
        claimed = Tournament.objects.filter(
            pk=tournament.pk, status=Tournament.Status.RUNNING, current_round=number - 1
        ).update(current_round=number)
        if claimed != 1:
            draft.delete()  # stale: the round was paired meanwhile (a twin published it)
            return None
        tournament.current_round = number
        participants: dict[int | None, Participant] = {
            p.seed: p for p in tournament.participants.select_related("user")
        }
        boards = [(white, black or 0) for white, black in draft.boards]
        round_ = services.create_round(
            tournament, number, boards, list(draft.half_point_byes), participants
        )
        draft.delete()
    return round_


def set_arbiter_options(
    *,
    tournament: Tournament,
    by: User,
    arbiter_publishes: bool | None = None,
    avoid_same_club: bool | None = None,
) -> Tournament:
    """Organiser, Swiss: turn draft rounds or the same-club rule on or off.  Turning drafts
    off leaves a waiting draft to publish (nothing is lost)."""
    with transaction.atomic():
        tournament = services.locked_tournament(tournament)
        if not services.may_manage(by, tournament):
            raise errors.NotOrganiser()
        if tournament.format != Tournament.Format.SWISS:
            raise errors.WrongTournamentState(_("Only a Swiss has these arbiter options."))
        if tournament.is_over:
            raise errors.WrongTournamentState(_("The tournament is over."))
        if arbiter_publishes is not None:
            tournament.arbiter_publishes = arbiter_publishes
        if avoid_same_club is not None:
            tournament.avoid_same_club = avoid_same_club
        tournament.save(update_fields=["arbiter_publishes", "avoid_same_club"])
    return tournament


# --- Forbidden pairs ----------------------------------------------------------------------------


def _forbidden_pair_allowed(tournament: Tournament, by: User) -> Tournament:
    tournament = services.locked_tournament(tournament)  # a pairing of the round waits for us
    if not services.may_manage(by, tournament):
        raise errors.NotOrganiser()
    if tournament.format != Tournament.Format.SWISS:
        raise errors.WrongTournamentState(
            _("Only a Swiss pairs by forbidden pairs: a round robin's tables are fixed.")
        )
    if tournament.is_over:
        raise errors.WrongTournamentState(_("The tournament is over."))
    return tournament


def add_forbidden_pair(
    *, tournament: Tournament, by: User, first: Participant, second: Participant
) -> ForbiddenPair:
    """Organiser, Swiss: these two players are never paired (from the next pairing on).
    Listing a pair twice changes nothing."""
    with transaction.atomic():
        tournament = _forbidden_pair_allowed(tournament, by)
        if first.pk == second.pk or {first.tournament_id, second.tournament_id} != {tournament.pk}:
            raise errors.InvalidTournament(
                _("Choose two different players of this tournament."),
                fields={"players": [_("Choose two different players of this tournament.")]},
            )
        low, high = sorted((first, second), key=lambda p: p.pk)
        pair, _created = ForbiddenPair.objects.get_or_create(
            tournament=tournament, first=low, second=high
        )
    return pair


def remove_forbidden_pair(*, tournament: Tournament, by: User, pair_id: int) -> None:
    with transaction.atomic():
        tournament = _forbidden_pair_allowed(tournament, by)
        deleted, _details = ForbiddenPair.objects.filter(tournament=tournament, pk=pair_id).delete()
        if not deleted:
            raise errors.InvalidTournament(
                _("No such forbidden pair."), fields={"pair": [_("No such forbidden pair.")]}
            )


def forbidden_pairs(tournament: Tournament) -> list[ForbiddenPair]:
    return list(
        ForbiddenPair.objects.filter(tournament=tournament).select_related(
            "first__user", "second__user"
        )
    )

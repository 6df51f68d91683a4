"""Reading tournaments: snapshots, standings, crosstables, TRF and downloads.

Nothing here changes a row: the commands are ``tournaments.services``.  The arithmetic
(standings, tie-breaks, TRF) is the pure ``tournaments.pairing`` package; this module
turns rows into its values (:func:`snapshot`) and formats its answers.
"""

from __future__ import annotations

import datetime
import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, cast

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import pairing
from tournaments.models import ByeRequest, ForbiddenPair, Pairing, Participant, Tournament
from tournaments.pairing import Outcome, PlayerEntry, RoundResult

logger = logging.getLogger(__name__)


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


# The pairing package (pure Python) names its rules in English; these are the same
# sentences in the catalogue, the pairing library ("py4swiss 0.3.1", the last two
# words of the English) filled in.
_RULES_IN_WORDS = {
    "2026": gettext_noop("FIDE Dutch system (C.04.3), rules of February 2026, on %(library)s"),
    "2017": gettext_noop("FIDE Dutch system (C.04.3), rules before February 2026, via %(library)s"),
    "burstein": gettext_noop("FIDE Burstein system (C.04.4.2, February 2026), via %(library)s"),
    "dubov": gettext_noop("FIDE Dubov system (C.04.4.1, February 2026), via %(library)s"),
}


def rules_version(tournament: Tournament) -> str:
    """The pairing rules a Swiss is paired by, in words, in the active language ("" for
    a round robin)."""
    if tournament.format != Tournament.Format.SWISS:
        return ""
    if tournament.pairing_system == "dutch":
        key, english = tournament.pairing_rules, pairing.RULES_VERSIONS[tournament.pairing_rules]
    else:
        key, english = tournament.pairing_system, pairing.SYSTEM_VERSIONS[tournament.pairing_system]
    library = " ".join(english.split()[-2:])
    sentence = _RULES_IN_WORDS.get(key)
    if sentence is None or sentence % {"library": library} != english:
        return english  # a system or version added without its sentence here
    return _(sentence) % {"library": library}


def withdrawn_for(participant: Participant, round_number: int) -> bool:
    after = participant.withdrawn_after_round
    return after is not None and after < round_number


def total_rounds(tournament: Tournament) -> int:
    return tournament.rounds or 0


# (round, board, white seed, black seed or None, white outcome, black outcome, game id)
Board = tuple[int, int, int, int | None, str, str, int | None]


@dataclass(frozen=True)
class Snapshot:
    """Rows of a tournament read once: participants by seed and every board's facts."""

    tournament: Tournament
    participants: dict[int, Participant]
    boards: list[Board]

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
    # Seeds are given when the tournament starts, before any board: never None here.
    seeded = cast(dict[int, Participant], participants)
    return Snapshot(tournament, seeded, cast(list[Board], boards))


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
            withdrawn=withdrawn_for(participant, count + 1),
        )
        for seed, participant in sorted(rows.participants.items())
    ]
    requested: dict[int, Outcome] = {}
    if next_round:
        present = {seed for seed, p in rows.participants.items() if not withdrawn_for(p, count + 1)}
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
        forbidden_pairs=forbidden_seed_pairs(tournament, rows.participants),
    )


def forbidden_seed_pairs(
    tournament: Tournament, participants: dict[int, Participant]
) -> frozenset[frozenset[int]]:
    """Swiss: the seeds that must never meet — the organiser's pairs and, with
    ``avoid_same_club``, players who gave the same club (case and spacing aside).
    Round robins ignore them: their Berger tables are fixed."""
    if tournament.format != Tournament.Format.SWISS:
        return frozenset()
    seed_of = {p.pk: seed for seed, p in participants.items()}
    pairs = {
        frozenset((seed_of[first], seed_of[second]))
        for first, second in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
        if first in seed_of and second in seed_of
    }
    if tournament.avoid_same_club:
        clubs: dict[str, list[int]] = defaultdict(list)
        for seed, participant in participants.items():
            if participant.club.strip():
                clubs[participant.club.casefold().strip()].append(seed)
        pairs |= pairing.forbidden_pairs_from_groups(clubs.values())
    return frozenset(pairs)


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
    if tournament.format == Tournament.Format.KNOCKOUT:
        from tournaments import knockout

        return knockout.standings(tournament, rows)
    order = tuple(tournament.tiebreak_list)
    state = snapshot(tournament, rows=rows)
    provisional = any(not b[4] for b in rows.boards)
    # FIDE C.07 (2023): an opponent's rounds after a withdrawal count as draws.
    withdrawals = {
        seed: participant.withdrawn_after_round
        for seed, participant in rows.participants.items()
        if participant.withdrawn_after_round is not None
    }
    table = pairing.standings(state, order, withdrawals=withdrawals) if state.players else []
    # Before any game has a result, a tie-break says nothing (a bye alone would make
    # Sonneborn-Berger & co. rank players who have not played): shown blank.
    counted = any(b[3] is not None and b[4] for b in rows.boards)
    return Standings(
        rows=[
            StandingRow(
                rank=line.rank,
                participant=rows.participants[line.player_id],
                points=line.points,
                tiebreaks=tuple(
                    (name, pairing.format_tiebreak(name, value) if counted else "")
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
    cells: dict[int | None, list[CrossCell]] = defaultdict(
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
        "rules_version": rules_version(tournament),
        "registration_open": registration_is_open(tournament),
    }


def my_current_pairings(tournament: Tournament, participant: Participant | None) -> list[Pairing]:
    """A player's boards to show first on the tournament page: their games still being
    played, else their board of the latest round (a finished game, or a bye)."""
    if participant is None:
        return []
    from django.db.models import Q

    mine = list(
        Pairing.objects.filter(
            Q(white=participant) | Q(black=participant), round__tournament=tournament
        )
        .select_related("round", "game", "white__user", "black__user")
        .order_by("round__number", "board")
    )
    ongoing = [p for p in mine if p.game is not None and p.game.status != "finished"]
    return ongoing or mine[-1:]


def current_tournaments(limit: int = 10) -> list[Tournament]:
    """The newest tournaments that are not over (registering or running), newest first."""
    over = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    return list(Tournament.objects.exclude(status__in=over).order_by("-pk")[:limit])

"""Swiss pairing, FIDE Dutch system, through py4swiss behind a narrow adapter.

This is the only module that knows py4swiss. It turns our
:class:`~tournaments.pairing.model.Tournament` into py4swiss's parsed-TRF
objects, runs its Dutch engine and turns the answer back into a
:class:`~tournaments.pairing.model.RoundPairing`. To move to the rules in
force since February 2026, replace this module (keep ``pair_next_round``
and ``PairingError``) and update :data:`RULES_VERSION`.

Round 1 workaround. bbpPairings (the reference implementation) alternates
round-1 colours by each player's position among the players *present* in
round 1; py4swiss alternates by starting rank, which differs as soon as a
higher seed skips round 1. py4swiss can number players by their position
in its input instead of their starting rank ("rank" configuration, TRF
``XXC rank``): we switch that on for round 1 only. In round 1 positions and
starting ranks order players identically, so only the colour alternation
changes. From round 2 on, bbpPairings uses starting ranks again (for the
rare pair of players who both have no colour history), so we do too.
Measured against the examples in ``swiss-examples``: every v501 pairing is
reproduced (177/177).
"""

from __future__ import annotations

from py4swiss.engines import DutchEngine  # type: ignore[import-untyped]
from py4swiss.engines.common import PairingError as Py4SwissPairingError  # type: ignore[import-untyped]
from py4swiss.trf import ParsedTrf  # type: ignore[import-untyped]
from py4swiss.trf.codes import PlayerCode  # type: ignore[import-untyped]
from py4swiss.trf.results import ColorToken, ResultToken, ScoringPointSystemCode  # type: ignore[import-untyped]
from py4swiss.trf.results import RoundResult as Py4SwissRoundResult
from py4swiss.trf.sections import PlayerSection, XSection  # type: ignore[import-untyped]
from py4swiss.trf.sections.x_section import XSectionConfiguration  # type: ignore[import-untyped]

from tournaments.pairing.model import Board, Outcome, RoundPairing, RoundResult, Tournament

RULES_VERSION = "FIDE Dutch system (C.04.3), rules before February 2026, via py4swiss 0.3.1"

# py4swiss counts points in tenths; we count half-points.
_TENTHS_PER_HALF_POINT = 5


class PairingError(Exception):
    """No pairing of the next round satisfies the absolute criteria (or none is due)."""


def _to_py4swiss_result(result: RoundResult) -> Py4SwissRoundResult:
    color = ColorToken(result.color) if result.color else ColorToken.BYE_OR_NOT_PAIRED
    return Py4SwissRoundResult(
        id=result.opponent or 0, color=color, result=ResultToken(result.outcome.value)
    )


def _to_py4swiss(tournament: Tournament) -> ParsedTrf:
    absent = tournament.absent_next_round()
    sections = []
    for player in tournament.players:
        results = [_to_py4swiss_result(r) for r in player.results]
        points = player.points(tournament.bye_points)
        if player.id in absent:
            # py4swiss pairs exactly the players with one entry fewer than the
            # others: the absentees carry their entry for the coming round.
            outcome = absent[player.id]
            results.append(_to_py4swiss_result(RoundResult.bye(outcome)))
            points += outcome.points(tournament.bye_points)
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=player.id,
                name=player.name or None,
                fide_rating=player.rating or None,
                points_times_ten=points * _TENTHS_PER_HALF_POINT,
                rank=player.id,
                results=results,
            )
        )
    x_section = XSection(
        number_of_rounds=tournament.total_rounds,
        configuration=XSectionConfiguration(
            first_round_color=tournament.first_color == "w",
            by_rank=tournament.rounds_played == 0,
        ),
        forbidden_pairs={tuple(sorted(pair)) for pair in tournament.forbidden_pairs},
    )
    x_section.scoring_point_system.apply_code(
        ScoringPointSystemCode.PAIRING_ALLOCATED_BYE,
        tournament.bye_points * _TENTHS_PER_HALF_POINT,
    )
    return ParsedTrf(player_sections=sections, x_section=x_section)


def pair_next_round(tournament: Tournament) -> RoundPairing:
    """Pair round ``rounds_played + 1`` with the FIDE Dutch system.

    Withdrawn players and those in ``requested_byes`` are left out. Boards
    come in publishing order (FIDE C.04.2 D.9: by the score of the higher
    ranked player, then the sum of scores, then initial rank), the
    pairing-allocated bye last.

    Raises :class:`~tournaments.pairing.model.TournamentError` for
    inconsistent data and :class:`PairingError` when the tournament is over or
    no legal pairing exists (e.g. everyone left has already met).
    """
    tournament.validate()
    next_round = tournament.rounds_played + 1
    if next_round > tournament.total_rounds:
        raise PairingError(f"all {tournament.total_rounds} rounds have been paired")
    absent = tournament.absent_next_round()
    present = [p.id for p in tournament.players if p.id not in absent]
    if not present:
        return RoundPairing(next_round, ())
    if len(present) == 1:
        # py4swiss needs someone to pair; a lone player simply gets the bye,
        # unless they already had one (a second bye is forbidden, C.04.1 d).
        player = tournament.player(present[0])
        if any(_counts_as_bye(r) for r in player.results):
            raise PairingError(f"player {player.id} is alone and already had a bye")
        return RoundPairing(next_round, (Board(player.id, None),))
    try:
        pairings = DutchEngine.generate_pairings(_to_py4swiss(tournament))
    except Py4SwissPairingError as error:
        raise PairingError(f"round {next_round} cannot be paired: {error}") from error
    boards = tuple(Board(p.white, p.black or None) for p in pairings)
    return RoundPairing(next_round, boards)


def _counts_as_bye(result: RoundResult) -> bool:
    # FIDE C.04.1 d: a forfeit win counts like the pairing-allocated bye.
    return result.outcome in (Outcome.PAIRING_BYE, Outcome.FORFEIT_WIN)

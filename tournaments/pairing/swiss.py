"""Swiss pairing (FIDE Dutch, Burstein, Dubov) through py4swiss behind a narrow adapter.

This is the only module that knows py4swiss. It turns our
:class:`~tournaments.pairing.model.Tournament` into py4swiss's parsed-TRF
objects, runs the chosen system's building blocks (brackets, matchers) with
the player data corrected where py4swiss and the FIDE rules / bbpPairings
(the reference implementation) disagree, and turns the answer back into a
:class:`~tournaments.pairing.model.RoundPairing`. The loops that drive the
brackets are ours, so the corrections need no patching of py4swiss.

Corrections applied to py4swiss's player data (every system):

* **Pairing numbers.** Colour allocation by pairing number (Dutch E.5, and
  the last colour rule of Burstein and Dubov) and ties use the *effective*
  pairing number, as bbpPairings does in every round: players are numbered
  in starting-rank order, skipping players who have never been paired (no
  game, forfeit or pairing-allocated bye so far) and are absent from the
  round being paired. In round 1 that is the position among the players
  present; later it matters when two players without colour history meet
  (round 2 after half-point byes, late entrants) and someone above them
  never turned up. Since the renumbering keeps the order of the players
  present, only colours change.
* **Colour preferences** (FIDE C.04.3 A.6): py4swiss takes the side of an
  absolute preference from the colour difference even when only the last
  two games make it absolute; with a difference of +1 after two Blacks it
  says "absolute Black". The rule: a difference beyond +-1 decides; else two
  equal last colours ask for the other colour; else a difference of +-1 is
  a strong preference; else the mild preference alternates.

Dutch rules. ``rules="2017"`` is py4swiss's Dutch engine (the rules in force
until January 2026) with the corrections above: it reproduces bbpPairings
5.0.1 on every shipped example. ``rules="2026"`` (the default) changes the
player data for the rules of February 2026 (:func:`_dutch_2026`): the bye
eligibility (no pairing-allocated bye after any unplayed round worth a win),
floats (a zero-point unplayed round is no downfloat) and the choice of the
bye assignee (lowest score, then fewest unplayed games in the brackets
that place the bye when the bye is their one downfloater, among the players
who still let the others be paired); it also narrows the outlook on the
next bracket (C.7 counts only the next-bracket pairs after which the round can be
completed, :func:`_pair_bracket_2026`). Against bbpPairings' current
version this matches all 177 shipped examples (see
docs/pairing-package.md for the measurements on random tournaments).

The publishing order of the boards is ours too (C.04.2 D.9, see
:func:`pair_next_round`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from py4swiss.engines.burstein import bracket as burstein_bracket  # type: ignore[import-untyped]
from py4swiss.engines.burstein import bye_matcher as burstein_bye
from py4swiss.engines.burstein import pairer as burstein_pairer
from py4swiss.engines.burstein import player as burstein_player
from py4swiss.engines.burstein import state as burstein_state
from py4swiss.engines.common import (  # type: ignore[import-untyped]
    ColorPreference,
    ColorPreferenceSide,
    ColorPreferenceStrength,
    Float,
)
from py4swiss.engines.common import PairingError as Py4SwissPairingError
from py4swiss.engines.dubov import bracket as dubov_bracket  # type: ignore[import-untyped]
from py4swiss.engines.dubov import bye_matcher as dubov_bye
from py4swiss.engines.dubov import pairer as dubov_pairer
from py4swiss.engines.dubov import player as dubov_player
from py4swiss.engines.dubov import state as dubov_state
from py4swiss.engines.dutch import bracket as dutch_bracket  # type: ignore[import-untyped]
from py4swiss.engines.dutch import player as dutch_player
from py4swiss.engines.dutch import validity_matcher as dutch_validity
from py4swiss.trf import ParsedTrf  # type: ignore[import-untyped]
from py4swiss.trf.codes import PlayerCode  # type: ignore[import-untyped]
from py4swiss.trf.results import ColorToken, ResultToken, ScoringPointSystemCode  # type: ignore[import-untyped]
from py4swiss.trf.results import RoundResult as Py4SwissRoundResult
from py4swiss.trf.sections import PlayerSection, XSection  # type: ignore[import-untyped]
from py4swiss.trf.sections.x_section import XSectionConfiguration  # type: ignore[import-untyped]

from tournaments.pairing.model import (
    WIN_POINTS,
    Board,
    Outcome,
    RoundPairing,
    RoundResult,
    Tournament,
)

System = Literal["dutch", "burstein", "dubov"]
#: The Swiss systems :func:`pair_next_round` knows.
SYSTEMS: tuple[System, ...] = ("dutch", "burstein", "dubov")

Rules = Literal["2026", "2017"]
#: The Dutch rule versions: February 2026 (default) and the rules before (2017-2026).
RULES: tuple[Rules, ...] = ("2026", "2017")
DEFAULT_RULES: Rules = "2026"
#: What each Dutch rule version is, for people.
RULES_VERSIONS = {
    "2026": "FIDE Dutch system (C.04.3), rules of February 2026, on py4swiss 0.3.1",
    "2017": "FIDE Dutch system (C.04.3), rules before February 2026, via py4swiss 0.3.1",
}
RULES_VERSION = RULES_VERSIONS[DEFAULT_RULES]
#: What each system implements (shown to people; the Dutch entry is RULES_VERSION).
SYSTEM_VERSIONS = {
    "dutch": RULES_VERSION,
    "burstein": "FIDE Burstein system (C.04.4.2, February 2026), via py4swiss 0.3.1",
    "dubov": "FIDE Dubov system (C.04.4.1, February 2026), via py4swiss 0.3.1",
}

# py4swiss counts points in tenths; we count half-points.
_TENTHS_PER_HALF_POINT = 5

# A py4swiss player (pydantic model of one of its engines) and a pair of them;
# a player paired with himself has the pairing-allocated bye.
_Player = Any
_Pairs = list[tuple[_Player, _Player]]


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
        configuration=XSectionConfiguration(first_round_color=tournament.first_color == "w"),
        forbidden_pairs={tuple(sorted(pair)) for pair in tournament.forbidden_pairs},
        accelerations={
            player_id: [value * _TENTHS_PER_HALF_POINT for value in values]
            for player_id, values in tournament.accelerations.items()
        },
    )
    x_section.scoring_point_system.apply_code(
        ScoringPointSystemCode.PAIRING_ALLOCATED_BYE,
        tournament.bye_points * _TENTHS_PER_HALF_POINT,
    )
    return ParsedTrf(player_sections=sections, x_section=x_section)


def effective_pairing_numbers(tournament: Tournament) -> dict[int, int]:
    """Pairing numbers of the players to be paired next, as bbpPairings counts them.

    Players are numbered 1, 2, ... in starting-rank order, skipping those who
    have never been paired (no game, forfeit or pairing-allocated bye) and are
    absent from the next round.

    >>> from tournaments.pairing.model import Outcome, PlayerEntry, RoundResult
    >>> z = RoundResult.bye(Outcome.ZERO_POINT_BYE)
    >>> players = [PlayerEntry(1, "A", results=[z]), PlayerEntry(2, "B", results=[z]),
    ...            PlayerEntry(3, "C", results=[z])]
    >>> effective_pairing_numbers(Tournament(players, 3, requested_byes={1: Outcome.ZERO_POINT_BYE}))
    {2: 1, 3: 2}
    """
    absent = tournament.absent_next_round()
    numbers: dict[int, int] = {}
    counted = 0
    for player in tournament.players:
        present = player.id not in absent
        paired_before = any(
            r.opponent is not None or r.outcome is Outcome.PAIRING_BYE for r in player.results
        )
        if present or paired_before:
            counted += 1
            if present:
                numbers[player.id] = counted
    return numbers


def colour_preference(colours: Sequence[bool]) -> ColorPreference:
    """FIDE C.04.3 A.6 from the colours of the played games (True = White), in order."""
    whites = sum(1 for white in colours if white)
    difference = whites - (len(colours) - whites)
    if abs(difference) > 1:
        side = ColorPreferenceSide.BLACK if difference > 0 else ColorPreferenceSide.WHITE
        strength = ColorPreferenceStrength.ABSOLUTE
    elif len(colours) >= 2 and colours[-1] == colours[-2]:
        side = ColorPreferenceSide.BLACK if colours[-1] else ColorPreferenceSide.WHITE
        strength = ColorPreferenceStrength.ABSOLUTE
    elif difference:
        side = ColorPreferenceSide.BLACK if difference > 0 else ColorPreferenceSide.WHITE
        strength = ColorPreferenceStrength.STRONG
    elif colours:
        side = ColorPreferenceSide.BLACK if colours[-1] else ColorPreferenceSide.WHITE
        strength = ColorPreferenceStrength.MILD
    else:
        side = ColorPreferenceSide.NONE
        strength = ColorPreferenceStrength.NONE
    return ColorPreference(side=side, strength=strength)


def _corrected(players: list[_Player], numbers: dict[int, int]) -> list[_Player]:
    """py4swiss's players with our pairing numbers and colour preferences, best first."""
    fixed = [
        player.model_copy(
            update={
                "number": numbers[player.id],
                "color_preference": colour_preference(player.colors),
            }
        )
        for player in players
    ]
    fixed.sort(reverse=True)
    return fixed


def _dutch_2026(
    players: list[_Player], tournament: Tournament, forbidden: Any, *, unplayed: bool = True
) -> list[_Player]:
    """py4swiss's Dutch player data changed for the rules of February 2026.

    * Bye eligibility: no pairing-allocated bye after one, or after any
      unplayed round that scored a win's points (forfeit win, full-point bye,
      a full-point pairing bye).
    * Floats: an unplayed round is a downfloat only if it scored points
      (a zero-point bye or a forfeit loss is no float any more).
    * The bye assignee: the lowest score that still lets everyone else be
      paired, then (with ``unplayed``) the fewest unplayed games; py4swiss
      chooses among the players left eligible. The round is narrowed by score
      only; the unplayed games narrow it again when the brackets that place
      the bye are reached (:func:`_pair_dutch_rules`), because bbpPairings'
      current version lets them decide only there, not the choices of the
      brackets above, and only when the bye is the one player of its score
      to float down (:func:`_bye_is_single_downfloater`); the bracket of the
      bye's score is one of them when no one floats into it
      (:func:`_reaches_bye_score`).
    """
    bye_points = tournament.bye_points
    fixed = []
    for player in players:
        results = tournament.player(player.id).results
        update: dict[str, Any] = {
            "bye_received": any(
                not r.is_played
                and (r.outcome is Outcome.PAIRING_BYE or r.outcome.points(bye_points) >= WIN_POINTS)
                for r in results
            )
        }
        for attribute, back in (("float_1", 1), ("float_2", 2)):
            if len(results) >= back:
                result = results[-back]
                if not result.is_played and result.outcome.points(bye_points) == 0:
                    update[attribute] = Float.NONE
        fixed.append(player.model_copy(update=update))
    if len(fixed) % 2 == 0:
        return fixed
    rounds = tournament.rounds_played

    def bye_order(player: _Player) -> tuple[int, int]:
        return (player.points_with_acceleration, rounds - len(player.colors) if unplayed else 0)

    for limit in sorted({bye_order(p) for p in fixed if not p.bye_received}):
        trial = [
            p
            if p.bye_received or bye_order(p) <= limit
            else p.model_copy(update={"bye_received": True})
            for p in fixed
        ]
        if dutch_validity.ValidityMatcher(trial, forbidden).is_valid_matching():
            return trial
    return fixed


def _pair_dutch(
    trf: ParsedTrf, numbers: dict[int, int], round_number: int, tournament: Tournament
) -> _Pairs:
    return _pair_dutch_rules(trf, numbers, round_number, tournament, "2026")


def _pair_dutch_2017(
    trf: ParsedTrf, numbers: dict[int, int], round_number: int, tournament: Tournament
) -> _Pairs:
    return _pair_dutch_rules(trf, numbers, round_number, tournament, "2017")


def _pair_dutch_rules(
    trf: ParsedTrf, numbers: dict[int, int], round_number: int, tournament: Tournament, rules: Rules
) -> _Pairs:
    players = _corrected(dutch_player.get_player_infos_from_trf(trf), numbers)
    if rules == "2026":
        players = _dutch_2026(players, tournament, trf.x_section.forbidden_pairs, unplayed=False)
    initial_color = trf.x_section.configuration.first_round_color
    validity = dutch_validity.ValidityMatcher(players, trf.x_section.forbidden_pairs)
    if not validity.is_valid_matching():
        raise Py4SwissPairingError("Round can not be paired")
    forbidden = trf.x_section.forbidden_pairs
    brackets = dutch_bracket.Brackets(players, round_number)
    pairs: _Pairs = []
    bye_narrowed = False
    while not brackets.is_finished():
        bracket = brackets.get_current_bracket()
        if (
            rules == "2026"
            and not bye_narrowed
            and (
                bracket.last_pairing_bracket
                or bracket.penultimate_pairing_bracket
                or _reaches_bye_score(bracket, players)
            )
        ):
            # The fewest unplayed games choose the bye among the players left
            # when the bye's brackets are reached (see _dutch_2026), unless
            # someone else of the bye's score must float down too.
            bye_narrowed = True
            paired = {player.id for pair in pairs for player in pair}
            left = [player for player in players if player.id not in paired]
            if len(left) % 2 and _bye_is_single_downfloater(left, forbidden):
                for player in _dutch_2026(left, tournament, forbidden):
                    if player.bye_received:
                        next(p for p in left if p.id == player.id).bye_received = True
                validity = _validity_after(players, pairs, forbidden)
                bracket = brackets.get_current_bracket()
        if rules == "2026":
            bracket_pairs, validity = _pair_bracket_2026(
                bracket, validity, players, pairs, forbidden, initial_color
            )
        else:
            bracket_pairs = _pair_bracket(bracket, validity, initial_color)
        if bracket_pairs is None:
            brackets.collapse()
            continue
        brackets.apply_bracket_pairings(bracket_pairs)
        pairs.extend(bracket_pairs)
    return pairs


def _pair_bracket(
    bracket: Any,
    validity: Any,
    initial_color: bool,
    unrealisable: Sequence[tuple[_Player, _Player]] = (),
    outlook: list[tuple[_Player, _Player]] | None = None,
) -> _Pairs | None:
    """py4swiss's pairing of one bracket, or None when the round could not be completed.

    ``unrealisable`` are downfloater / next-bracket pairs that C.7's outlook
    must not count; ``outlook`` receives the pairs the outlook counted.
    """
    pairer = dutch_bracket.BracketPairer(bracket, validity, initial_color)
    # py4swiss keeps its bracket weights in a private attribute; dropping an
    # edge there is the only way to tell its C.7 outlook a pair cannot happen.
    matcher = pairer._bracket_matcher
    if unrealisable:
        for downfloater, lower in unrealisable:
            matcher.remove_weight(downfloater, lower)
        matcher.update_matching()
    pairer.determine_heterogeneous_s1()
    pairer.determine_heterogeneous_s2()
    pairer.determine_homogeneous_exchanges()
    pairer.determine_moves_from_s1_to_s2()
    pairer.determine_moves_from_s2_to_s1()
    pairer.perform_homogeneous_exchanges()
    pairer.transpose_homogeneous_s2()
    if not pairer.check_completion_criterium():
        return None
    if outlook is not None:
        lower_role = dutch_player.PlayerRole.LOWER
        outlook.extend(
            (player, partner)
            for player, partner in matcher.matching.items()
            if player.role != lower_role and partner.role == lower_role
        )
    bracket_pairs: _Pairs = pairer.get_player_pairs()
    return bracket_pairs


def _pair_bracket_2026(
    bracket: Any,
    validity: Any,
    players: list[_Player],
    pairs: _Pairs,
    forbidden: Any,
    initial_color: bool,
) -> tuple[_Pairs | None, Any]:
    """One bracket under the 2026 rules: C.7's outlook counts only pairs that can happen.

    C.7 chooses the downfloaters that pair best in the following bracket.
    py4swiss (the 2017 reading, as bbpPairings 5.0.1) counts any legal
    downfloater-resident pair there, even one after which the round cannot
    be completed. Our 2026 reading (it is what bbpPairings' current version
    does on exH10-r7 and on random tournaments) counts only pairs that
    still let the round be completed: an outlook pair that leaves the rest
    unpairable is dropped and the bracket paired again, and the retry is
    kept only if it has more realisable outlook pairs (exH10-r7: 59 could
    meet 47 only if 52 then met 49, whom he has played; so 58 downfloats,
    not 59). Pair counts only: the outlook's score differences stay py4swiss's.
    Returns the bracket's pairs (None: the round cannot be completed) and the
    validity matcher that has them fixed.
    """
    outlook: list[tuple[_Player, _Player]] = []
    result = _pair_bracket(bracket, validity, initial_color, (), outlook)
    if result is None or bracket.penultimate_pairing_bracket or bracket.last_pairing_bracket:
        return result, validity
    best, best_validity, best_realisable = result, validity, -1
    unrealisable: list[tuple[_Player, _Player]] = []
    while True:
        paired = {player.id for pair in [*pairs, *result] for player in pair}
        left = [player for player in players if player.id not in paired]
        failing = [pair for pair in outlook if not _completable(left, pair, forbidden)]
        # A retry wins only with more realisable outlook pairs; ties keep
        # the earlier (py4swiss's) choice.
        if len(outlook) - len(failing) > best_realisable:
            best, best_validity = result, validity
            best_realisable = len(outlook) - len(failing)
        if not failing:
            return best, best_validity
        unrealisable.extend(failing)
        validity = _validity_after(players, pairs, forbidden)
        outlook = []
        trial = _pair_bracket(bracket, validity, initial_color, unrealisable, outlook)
        if trial is None:
            return best, best_validity
        result = trial


def _reaches_bye_score(bracket: Any, players: list[_Player]) -> bool:
    """Whether the bracket's residents have the lowest score a bye assignee may have.

    bbpPairings master lets the fewest unplayed games place the bye already
    in this bracket, not only in the last one. With downfloaters from above
    in it, master's tentative matching of the round often floats one of them
    further down, which turns the criterion off there; we then wait for the
    last brackets, as before (random-2010-r7 in the tests).
    """
    eligible = [p.points_with_acceleration for p in players if not p.bye_received]
    residents = bracket.resident_list
    return (
        bool(eligible and residents)
        and not bracket.mdp_list
        and residents[0].points_with_acceleration <= min(eligible)
    )


def _bye_is_single_downfloater(left: list[_Player], forbidden: Any) -> bool:
    """Whether the players below the bye's score can all be paired among themselves.

    bbpPairings master applies "fewest unplayed games of the bye assignee"
    only in a bracket whose one downfloater is the bye assignee: when someone
    of the bye's score must also float down to a lower player, the criterion
    is off and the usual bracket criteria choose who gets the bye.
    """
    eligible = [p.points_with_acceleration for p in left if not p.bye_received]
    if not eligible:
        return False
    bye_score = min(eligible)
    lower = [p for p in left if p.points_with_acceleration < bye_score]
    if len(lower) % 2:
        return False
    return not lower or bool(dutch_validity.ValidityMatcher(lower, forbidden).is_valid_matching())


def _validity_after(players: list[_Player], pairs: _Pairs, forbidden: Any) -> Any:
    """A validity matcher of the round with ``pairs`` already fixed."""
    validity = dutch_validity.ValidityMatcher(players, forbidden)
    for white, black in pairs:
        if white is not black:
            validity.finalize_match(white, black)
    return validity


def _completable(left: list[_Player], pair: tuple[_Player, _Player], forbidden: Any) -> bool:
    """Whether the players ``left`` can all be paired (one bye at most) with ``pair`` fixed."""
    validity = dutch_validity.ValidityMatcher(left, forbidden)
    validity.finalize_match(*pair)
    return bool(validity.is_valid_matching())


def _pair_burstein(
    trf: ParsedTrf, numbers: dict[int, int], round_number: int, tournament: Tournament
) -> _Pairs:
    # C.04.4.2 1.6: the seeding rounds (half the rounds, at most 4) are Dutch.
    if round_number <= min(trf.x_section.number_of_rounds // 2, 4):
        return _pair_dutch(trf, numbers, round_number, tournament)
    players = _corrected(burstein_player.get_player_infos_from_trf(trf), numbers)
    forbidden = trf.x_section.forbidden_pairs
    pairs: _Pairs = []
    if len(players) % 2:
        bye = burstein_bye.ByeMatcher(players, forbidden).get_bye()
        pairs.append((bye, bye))
        players.remove(bye)
    bracket = burstein_bracket.Bracket(players)
    initial_color = trf.x_section.configuration.first_round_color
    while not bracket.is_finished():
        state = burstein_state.State.from_data(bracket.players, forbidden, initial_color)
        pairer = burstein_pairer.Pairer(bracket.players, state)
        pairer.determine_pairings()
        bracket_pairs = pairer.get_player_pairs()
        bracket.apply_pairings(bracket_pairs)
        pairs.extend(bracket_pairs)
    return pairs


def _pair_dubov(
    trf: ParsedTrf, numbers: dict[int, int], round_number: int, tournament: Tournament
) -> _Pairs:
    players = _corrected(dubov_player.get_player_infos_from_trf(trf), numbers)
    forbidden = trf.x_section.forbidden_pairs
    pairs: _Pairs = []
    if len(players) % 2:
        bye = dubov_bye.ByeMatcher(players, forbidden).get_bye()
        pairs.append((bye, bye))
        players.remove(bye)
    bracket = dubov_bracket.Bracket(players)
    initial_color = trf.x_section.configuration.first_round_color
    total = trf.x_section.number_of_rounds
    while not bracket.is_finished():
        state = dubov_state.State.from_data(
            bracket.players, round_number, total, forbidden, initial_color
        )
        pairer = dubov_pairer.Pairer(bracket.players, state)
        pairer.determine_initial_g1_and_g2()
        pairer.perform_g1_g2_recomposition()
        pairer.transpose_g2()
        bracket_pairs = pairer.get_player_pairs()
        bracket.apply_pairings(bracket_pairs)
        pairs.extend(bracket_pairs)
    return pairs


_DRIVERS: dict[str, Callable[[ParsedTrf, dict[int, int], int, Tournament], _Pairs]] = {
    "dutch": _pair_dutch,
    "burstein": _pair_burstein,
    "dubov": _pair_dubov,
}


def pair_next_round(
    tournament: Tournament, *, system: System = "dutch", rules: Rules = DEFAULT_RULES
) -> RoundPairing:
    """Pair round ``rounds_played + 1`` with the FIDE Dutch, Burstein or Dubov system.

    ``rules`` chooses the Dutch rules: ``"2026"`` (in force since February
    2026, the default) or ``"2017"`` (the rules before); Burstein and Dubov
    follow their February 2026 texts as py4swiss implements them.

    Withdrawn players and those in ``requested_byes`` are left out. Boards
    come in publishing order (FIDE C.04.2 D.9: by the score of the higher
    ranked player, then the sum of scores, then initial rank), the
    pairing-allocated bye last. Acceleration (``Tournament.accelerations``)
    changes the scores used for pairing, not the publishing order.

    Raises :class:`~tournaments.pairing.model.TournamentError` for
    inconsistent data and :class:`PairingError` when the tournament is over or
    no legal pairing exists (e.g. everyone left has already met).
    """
    if system not in _DRIVERS:
        raise ValueError(f"unknown pairing system {system!r}; known: {', '.join(SYSTEMS)}")
    if rules not in RULES:
        raise ValueError(f"unknown Dutch rules {rules!r}; known: {', '.join(RULES)}")
    tournament.validate()
    next_round = tournament.rounds_played + 1
    if next_round > tournament.total_rounds:
        raise PairingError(f"all {tournament.total_rounds} rounds have been paired")
    numbers = effective_pairing_numbers(tournament)
    if not numbers:
        return RoundPairing(next_round, ())
    if len(numbers) == 1:
        # py4swiss needs someone to pair; a lone player simply gets the bye,
        # unless they already had one (a second bye is forbidden, C.04.1 d).
        player = tournament.player(next(iter(numbers)))
        if any(_counts_as_bye(r) for r in player.results):
            raise PairingError(f"player {player.id} is alone and already had a bye")
        return RoundPairing(next_round, (Board(player.id, None),))
    driver = _pair_dutch_2017 if system == "dutch" and rules == "2017" else _DRIVERS[system]
    try:
        pairs = driver(_to_py4swiss(tournament), numbers, next_round, tournament)
    except Py4SwissPairingError as error:
        raise PairingError(f"round {next_round} cannot be paired: {error}") from error
    boards = [Board(white.id, None if white.id == black.id else black.id) for white, black in pairs]
    return RoundPairing(next_round, _publishing_order(tournament, boards))


def _publishing_order(tournament: Tournament, boards: Sequence[Board]) -> tuple[Board, ...]:
    points = tournament.points()

    def key(board: Board) -> tuple[int, int, int, int]:
        if board.black is None:
            return (1, 0, 0, 0)
        top, other = sorted((board.white, board.black), key=lambda p: (-points[p], p))
        return (0, -points[top], -points[other], top)

    return tuple(sorted(boards, key=key))


def _counts_as_bye(result: RoundResult) -> bool:
    # FIDE C.04.1 d: a forfeit win counts like the pairing-allocated bye.
    return result.outcome in (Outcome.PAIRING_BYE, Outcome.FORFEIT_WIN)

"""Check the rounds of a tournament against the absolute pairing criteria.

:func:`check_tournament` looks at every completed round in the light of the
rounds before it and reports what no Swiss pairing may do (FIDE C.04.1 and
the absolute criteria of C.04.3):

* ``C1`` two players meet again over the board (forfeits are not meetings);
* ``forbidden`` a forbidden pair (TRF ``XXP``) was paired;
* ``C2`` a pairing-allocated bye for a player who already had one, or who
  already won a round by forfeit (rules of 2026: or scored a win's points in
  any unplayed round, e.g. a full-point bye); ``bye`` more than one such bye
  in a round;
* ``C3`` two players with the same absolute colour preference meet (a colour
  difference beyond +-1, or the same colour in the last two games), unless
  one of them is a topscorer (more than half the maximum score) in the last
  round; ``colour`` a player ends the round with a colour difference beyond
  +-2 or with three equal colours running (allowed only in that same
  topscorer case).

Colours count over-the-board games only.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.pairing.model import WIN_POINTS, Outcome, RoundResult, Tournament


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken criterion: the round, the players involved and what happened."""

    round: int
    players: tuple[int, ...]
    rule: str
    message: str

    def __str__(self) -> str:
        return f"round {self.round}: {self.message} ({self.rule})"


def _colours(tournament: Tournament, player_id: int, rounds: int) -> list[str]:
    results = tournament.player(player_id).results[:rounds]
    return [r.color for r in results if r.is_played and r.color is not None]


def _absolute(colours: list[str]) -> str | None:
    """The colour a player must get (absolute preference), if any."""
    difference = colours.count("w") - colours.count("b")
    if difference > 1:
        return "b"
    if difference < -1:
        return "w"
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return "b" if colours[-1] == "w" else "w"
    return None


def _breaks_colour_rules(colours: list[str]) -> str | None:
    difference = colours.count("w") - colours.count("b")
    if abs(difference) > 2:
        return f"colour difference {difference:+d}"
    if len(colours) >= 3 and len(set(colours[-3:])) == 1:
        return f"three {'Whites' if colours[-1] == 'w' else 'Blacks'} in a row"
    return None


def _bye_before(tournament: Tournament, result: RoundResult, rules: str) -> str | None:
    """What in an earlier round rules out the pairing-allocated bye, if anything."""
    if result.outcome is Outcome.PAIRING_BYE:
        return "bye"
    if result.outcome is Outcome.FORFEIT_WIN:
        return "forfeit win"
    if (
        rules == "2026"
        and not result.is_played
        and result.outcome.points(tournament.bye_points) >= WIN_POINTS
    ):
        return "full-point bye"
    return None


def check_tournament(tournament: Tournament, *, rules: str = "2026") -> list[Violation]:
    """Every violation of the absolute criteria in the completed rounds, in round order.

    ``rules`` (``"2026"`` or ``"2017"``) only changes which earlier rounds
    rule out the pairing-allocated bye.

    Raises :class:`~tournaments.pairing.model.TournamentError` for data that
    contradicts itself (a game listed on one side only...).
    """
    if rules not in ("2026", "2017"):
        raise ValueError(f"unknown rules {rules!r}")
    tournament.validate()
    violations: list[Violation] = []
    last_round = tournament.total_rounds
    for round_number in range(1, tournament.rounds_played + 1):
        before = round_number - 1
        maximum = WIN_POINTS * before
        scores = {
            p.id: sum(r.outcome.points(tournament.bye_points) for r in p.results[:before])
            for p in tournament.players
        }
        byes = []
        for player in tournament.players:
            result = player.results[before]
            if result.outcome is Outcome.PAIRING_BYE:
                byes.append(player.id)
                earlier = [_bye_before(tournament, r, rules) for r in player.results[:before]]
                kind = next((k for k in earlier if k is not None), None)
                if kind is not None:
                    violations.append(
                        Violation(
                            round_number,
                            (player.id,),
                            "C2",
                            f"player {player.id} gets the pairing-allocated bye after a {kind}",
                        )
                    )
            opponent = result.opponent
            if opponent is None or opponent < player.id:
                continue
            pair = (player.id, opponent)
            if frozenset(pair) in tournament.forbidden_pairs:
                violations.append(
                    Violation(
                        round_number,
                        pair,
                        "forbidden",
                        f"players {player.id} and {opponent} are a forbidden pair",
                    )
                )
            if not result.is_played:
                continue
            met_before = any(
                r.is_played and r.opponent == opponent for r in player.results[:before]
            )
            if met_before:
                violations.append(
                    Violation(
                        round_number,
                        pair,
                        "C1",
                        f"players {player.id} and {opponent} meet again",
                    )
                )
            topscorer = round_number == last_round and any(2 * scores[p] > maximum for p in pair)
            if topscorer:
                continue
            history = {p: _colours(tournament, p, before) for p in pair}
            wanted = {p: _absolute(history[p]) for p in pair}
            if wanted[player.id] is not None and wanted[player.id] == wanted[opponent]:
                colour = "White" if wanted[player.id] == "w" else "Black"
                violations.append(
                    Violation(
                        round_number,
                        pair,
                        "C3",
                        f"players {player.id} and {opponent} both have an absolute "
                        f"preference for {colour}",
                    )
                )
            for p in pair:
                problem = _breaks_colour_rules(_colours(tournament, p, round_number))
                if problem is not None:
                    violations.append(
                        Violation(round_number, (p,), "colour", f"player {p} gets {problem}")
                    )
        if len(byes) > 1:
            violations.append(
                Violation(
                    round_number,
                    tuple(byes),
                    "bye",
                    f"{len(byes)} pairing-allocated byes: players {', '.join(map(str, byes))}",
                )
            )
    return violations

"""Knockout cups: single elimination on top of the tournament services.

A cup is a ``Tournament`` with format ``knockout``.  Its starting ranks (rating,
then name: ``services.start_tournament``) are the seeds; the bracket, the tie
rule and what to pair next are the pure ``tournaments.pairing.knockout``.  Each
tournament round holds the games paired together: a bracket round's matches, or
the replays of its drawn matches (colours swapped), so a player has at most one
game per round and the standings, crosstable, TRF and ``.agn`` downloads work
unchanged.  Round 1 also has a bye board for each top seed that skips it.

``services.pair_round`` and ``services.advance`` hand a cup to :func:`pair_round`
and :func:`advance`; the round is claimed exactly as for the other formats
(``current_round`` moved from n-1 to n by one transaction only).
"""

from __future__ import annotations

from typing import Any, cast

from tournaments import selectors, services
from tournaments.models import Pairing, Round, Tournament
from tournaments.pairing import Outcome
from tournaments.pairing import knockout as bracket_rules


def bracket(tournament: Tournament) -> bracket_rules.Bracket:
    """The cup's bracket after every game paired so far (one query)."""
    # Seeds are given when the cup starts, before any board: never None here.
    games = [
        bracket_rules.KnockoutGame(
            number, cast(int, white), cast(int, black), white_outcome, black_outcome
        )
        for number, white, black, white_outcome, black_outcome in Pairing.objects.filter(
            round__tournament=tournament, black__isnull=False
        )
        .order_by("round__number", "board")
        .values_list(
            "round__number", "white__seed", "black__seed", "white_outcome", "black_outcome"
        )
    ]
    players = tournament.participants.filter(seed__isnull=False).count()
    return bracket_rules.build_bracket(players, games, tournament.tie_rule)


def pair_round(tournament: Tournament, round_number: int) -> Round | None:
    """Pair the cup's next games as round ``round_number`` (called by
    ``services.pair_round`` with the tournament row locked and running)."""
    pk = tournament.pk
    if round_number > 1 and services.unfinished_pairings(pk, round_number - 1):
        return None
    state = bracket(tournament)
    boards = state.next_boards()
    if not boards:
        if state.champion is not None:
            services.finish_if_over(pk)
        return None
    claimed = Tournament.objects.filter(
        pk=pk, status=Tournament.Status.RUNNING, current_round=round_number - 1
    ).update(current_round=round_number)
    if claimed != 1:
        return None
    tournament.current_round = round_number
    participants = {p.seed: p for p in tournament.participants.select_related("user")}
    round_ = Round.objects.create(tournament=tournament, number=round_number)
    rows = [
        services.create_board(tournament, round_, number, participants[white], participants[black])
        for number, (white, black) in enumerate(boards, start=1)
    ]
    if round_number == 1:
        byes = [m.high for m in state.rounds[0] if m.decided_by == "bye" and m.high is not None]
        for number, seed in enumerate(byes, start=len(rows) + 1):
            rows.append(
                Pairing(
                    round=round_,
                    board=number,
                    white=participants[seed],
                    white_outcome=Outcome.PAIRING_BYE,
                )
            )
    Pairing.objects.bulk_create(rows)
    services.announce_round(tournament, round_number, rows)
    if not services.unfinished_pairings(pk, round_number):
        # Only forfeits (withdrawn players): nothing will finish this round but us.
        from tournaments.tasks import advance_tournament

        advance_tournament.delay(pk)
    return round_


def advance(tournament: Tournament) -> str:
    """``services.advance`` for a cup: replays, the next bracket round, or the end."""
    pk = tournament.pk
    current = tournament.current_round
    if services.unfinished_pairings(pk, current):
        return "waiting"
    if bracket(tournament).champion is not None:
        return "finished" if services.finish_if_over(pk) else "idle"
    if services.pair_round(tournament_id=pk, round_number=current + 1) is not None:
        return "paired"
    return "idle"


def standings(tournament: Tournament, rows: selectors.Snapshot) -> selectors.Standings:
    """A cup's standings: by the place reached (1, 2, 3, 5 …), then seed; points are
    the games' (byes count nothing)."""
    state = bracket(tournament)
    places = bracket_rules.placements(state)
    points = dict.fromkeys(rows.participants, 0)
    for _n, _b, white, black, white_outcome, black_outcome, _g in rows.boards:
        if black is None or not white_outcome:
            continue
        points[white] += _HALF_POINTS.get(white_outcome, 0)
        points[black] += _HALF_POINTS.get(black_outcome, 0)
    order = sorted(rows.participants, key=lambda seed: (places.get(seed, 1), seed))
    return selectors.Standings(
        rows=[
            selectors.StandingRow(
                rank=places.get(seed, 1),
                participant=rows.participants[seed],
                points=points[seed],
                tiebreaks=(),
            )
            for seed in order
        ],
        tiebreaks=(),
        rounds=rows.paired_rounds,
        provisional=any(not board[4] for board in rows.boards),
    )


_HALF_POINTS = {"1": 2, "+": 2, "=": 1}


# --- Reading: the bracket as the page and the API show it --------------------------------


def bracket_payload(tournament: Tournament) -> dict[str, Any]:
    """The bracket with names and game ids: rounds → matches → games."""
    state = bracket(tournament)
    participants = {
        p.seed: p for p in tournament.participants.select_related("user").filter(seed__isnull=False)
    }
    game_ids = {
        (number, white): game_id
        for number, white, game_id in Pairing.objects.filter(
            round__tournament=tournament, black__isnull=False
        ).values_list("round__number", "white__seed", "game_id")
    }

    def player(seed: int | None) -> dict[str, Any] | None:
        if seed is None or seed not in participants:
            return None
        return {"seed": seed, "username": participants[seed].user.get_username()}

    return {
        "tie_rule": tournament.tie_rule,
        "champion": player(state.champion),
        "rounds": [
            {
                "number": number,
                "matches": [
                    {
                        "slot": match.slot,
                        "high": player(match.high),
                        "low": player(match.low),
                        "winner": match.winner,
                        "decided_by": match.decided_by,
                        "games": [
                            {
                                "round": game.round,
                                "white": game.white,
                                "black": game.black,
                                "result": _result(game),
                                "game": game_ids.get((game.round, game.white)),
                            }
                            for game in match.games
                        ],
                    }
                    for match in matches
                ],
            }
            for number, matches in enumerate(state.rounds, start=1)
        ],
    }


_ASCII = {"1": "1", "=": "1/2", "0": "0", "+": "+", "-": "-"}


def _result(game: bracket_rules.KnockoutGame) -> str:
    if not game.finished:
        return "*"
    return f"{_ASCII[game.white_outcome]}-{_ASCII[game.black_outcome]}"

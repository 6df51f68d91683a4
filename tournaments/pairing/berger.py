"""Round robin schedules from the FIDE Berger tables (C.05, Annex 1).

With n players let m = n (n even) or n + 1 (n odd, player m being the
"dummy": whoever meets m has the bye). Round 1 pairs ``1-m, 2-(m-1), ...``
with the first-named player having White. Each later round renames every
number k < m to ``((k - 1 + m/2) mod (m - 1)) + 1`` while boards and the
"first named is White" rule stay; m stays on board 1 with Black in odd
rounds and White in even rounds. This is exactly the published tables.
"""

from __future__ import annotations

Round = list[tuple[int, int]]


def _single_cycle(n: int) -> list[Round]:
    m = n if n % 2 == 0 else n + 1
    half = m // 2
    boards = [(k, m + 1 - k) for k in range(1, half + 1)]
    rounds: list[Round] = []
    for round_number in range(1, m):
        if round_number > 1:
            rotated: Round = []
            for board_index, (first, second) in enumerate(boards):
                if board_index == 0:
                    # Board 1 always holds m: only its opponent moves, and m's
                    # colour alternates (Black in odd rounds, White in even).
                    other = first if second == m else second
                    other = (other - 1 + half) % (m - 1) + 1
                    rotated.append((m, other) if round_number % 2 == 0 else (other, m))
                else:
                    rotated.append(
                        (
                            (first - 1 + half) % (m - 1) + 1,
                            (second - 1 + half) % (m - 1) + 1,
                        )
                    )
            boards = rotated
        rounds.append(list(boards))
    if m != n:
        # Odd n: the dummy m means a bye, written (id, 0) and listed last.
        rounds = [
            [pair for pair in rnd if m not in pair]
            + [(a if b == m else b, 0) for a, b in rnd if m in (a, b)]
            for rnd in rounds
        ]
    return rounds


def berger_rounds(n: int, *, double: bool = False) -> list[Round]:
    """All rounds of a round robin for players 1..n as ``(white, black)`` pairs.

    A bye is ``(id, 0)`` (odd n), placed after the real boards. With
    ``double=True`` the cycle is played twice, the second time with colours
    reversed; following FIDE's recommendation the last two rounds of the
    *first* cycle are swapped, so that nobody plays the same colour three
    times running across the change of cycle (the second cycle keeps the
    table order).

    >>> berger_rounds(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    >>> berger_rounds(3)[0]
    [(2, 3), (1, 0)]
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {n}")
    first = _single_cycle(n)
    if not double:
        return first
    second = [[(b, a) if b else (a, b) for a, b in rnd] for rnd in first]
    if len(first) >= 2:
        first = [*first[:-2], first[-1], first[-2]]
    return first + second

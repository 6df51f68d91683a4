"""The repetition rule (RULES.md §5): the third occurrence of the same position
(pieces, side to move and scores) in a game is a draw.

Quiet turns keep a compact key of the position before them, not a copy; these
tests compare the engine with a naive count of position strings, and check that
the key names a position exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import Position, Termination, Turn
from engine.position import _repetition_key
from engine.tests.randompos import random_game_position

SQUARE = ",".join(f"{c}1-12" for c in "ABCDEFGHIJKL")  # 144 cells, room to wander
BIG_BOARD = ",".join(f"{c}1-99" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def exhausted(board: str, rng: random.Random) -> Position:
    """12 adaptoids a side with one leg and one pincer each, at random: no action exists,
    so turns are moves, attacks and passes."""
    cells = list(Position.from_string(f"- w 0-0 {board}").board.cells)
    rng.shuffle(cells)
    white, black = cells[:12], cells[12:24]
    pieces = [(c, "W") for c in white] + [(c, "B") for c in black]
    order = Position.from_string(f"- w 0-0 {board}").board.index
    pieces.sort(key=lambda p: order[p[0]])
    return Position.from_string(f"{','.join(f'{c}{w}11' for c, w in pieces)} w 0-0 {board}")


def wander(pos: Position, rng: random.Random) -> Turn:
    """A random legal turn; often the mover's last move backwards (so positions repeat)."""
    turns = list(pos.legal_turns)
    if pos.ply >= 2 and rng.random() < 0.7:
        own = pos.turn_stack[-2].move
        if own is not None and not own[2]:
            back = Turn(move=(own[1], own[0], False))
            if back in turns:
                return back
    return rng.choice(turns)


def wandering_game(pos: Position, rng: random.Random, plies: int) -> Iterator[Position]:
    for _ in range(plies):
        if pos.outcome() is not None:
            return
        pos.push(wander(pos, rng))
        yield pos


def test_repetition_matches_a_naive_count() -> None:
    rng = random.Random(5)
    draws = checks = 0
    for game in range(12):
        pos = exhausted(SQUARE, rng)
        seen = [pos.to_string()]
        for _ in wandering_game(pos, rng, 100):
            seen.append(pos.to_string())
            occurrences = seen.count(seen[-1])
            for count in (1, 2, 3, 4):
                assert pos.is_repetition(count) == (occurrences >= count), (game, pos.ply, count)
                checks += 1
            outcome = pos.outcome()
            if occurrences >= 3 and pos._state_outcome() is None:
                assert outcome is not None and outcome.termination is Termination.REPETITION
                draws += 1
            elif outcome is not None:
                assert outcome.termination is not Termination.REPETITION
    assert draws >= 5 and checks > 1000  # the test saw repetitions


def test_pop_and_copy_keep_the_count() -> None:
    rng = random.Random(9)
    pos = exhausted(SQUARE, rng)
    history = [pos.to_string()]
    for _ in range(200):
        if pos.ply and rng.random() < 0.3:
            pos.pop()
            history.pop()
        elif pos.outcome() is None:
            pos.push(wander(pos, rng))
            history.append(pos.to_string())
        clone = pos.copy()
        for p in (pos, clone):
            assert p.is_repetition(2) == (history.count(history[-1]) >= 2)
            assert p.is_repetition(3) == (history.count(history[-1]) >= 3)
        assert str(clone.root()) == history[0]


def test_a_long_walk_on_the_largest_board_draws_exactly_at_the_third_occurrence() -> None:
    # White walks round a ring of 6 cells, Black round a triangle of 3: the start
    # position comes back after 12 turns, and for the third time after 24.
    white_ring = [(11, 10), (11, 11), (10, 11), (9, 10), (9, 9), (10, 9)]
    black_triangle = [(10, 60), (11, 60), (11, 61)]

    def name(cell: tuple[int, int]) -> str:
        return f"{chr(65 + cell[0])}{cell[1] + 1}"

    pieces = [(white_ring[0], "W"), (black_triangle[0], "B")]
    pieces += [((2 * k + 1, 80), "W") for k in range(11)]
    pieces += [((2 * k + 1, 90), "B") for k in range(11)]
    text = ",".join(f"{name(c)}{w}11" for c, w in sorted(pieces))
    pos = Position.from_string(f"{text} w 0-0 {BIG_BOARD}")
    loops = (white_ring, black_triangle)
    for ply in range(24):
        assert pos.outcome() is None, ply
        assert pos.is_repetition(2) == (ply >= 12), ply
        assert not pos.is_repetition(3), ply
        loop = loops[ply % 2]
        k = ply // 2
        pos.push_text(f"{name(loop[k % len(loop)])}-{name(loop[(k + 1) % len(loop)])}")
        assert type(pos._stack[-1][3]) is bytes  # quiet: keeps a key, not a copy
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    pos.pop()
    assert pos.outcome() is None


def test_only_quiet_turns_keep_a_key() -> None:
    pos = exhausted(SQUARE, random.Random(1))
    pos.push_text("pass")
    key = pos._stack[-1][3]
    assert type(key) is bytes and len(key) == 24 * 3 + 9  # not a copy of the position
    pos = Position.standard()
    pos.push_text("D3")
    assert pos._stack[-1][3] is None  # an action
    pos = Position.from_string("D2W11,D3B00,D6B00,E5B00 w 0-0")
    pos.push_text("D2xD3,D3L")
    assert pos._stack[-1][3] is None  # a capture


def _key(pos: Position) -> bytes:
    (white, black), (white_score, black_score) = pos._occ, pos._score
    return _repetition_key(
        white, black, pos._legs, pos._pins, {}, pos._side, white_score, black_score
    )


def test_the_key_names_a_position_exactly() -> None:
    rng = random.Random(3)
    by_key: dict[tuple[str, bytes], str] = {}
    for _ in range(1500):
        pos = random_game_position(rng, max_turns=30)
        assert by_key.setdefault((str(pos.board), _key(pos)), str(pos)) == str(pos)
    assert len(set(by_key.values())) == len(by_key) > 1000


def test_a_quiet_turn_keeps_the_key_of_the_position_before_it() -> None:
    rng = random.Random(4)
    quiet = 0
    for _ in range(10):
        pos = exhausted(SQUARE, rng)
        for _ in range(60):
            if pos.outcome() is not None:
                break
            before = _key(pos)
            pos.push(wander(pos, rng))
            kept = pos._stack[-1][3]
            if kept is not None:
                assert kept == before
                quiet += 1
    assert quiet > 40


def test_copies_count_repetitions_apart_from_their_original() -> None:
    # a game with captures between its quiet runs is copied; the original goes back
    # to the start and plays on another way, then the copy goes back through its own
    rng = random.Random(12)
    captures = checks = 0

    def check(pos: Position, history: list[str]) -> None:
        nonlocal checks
        for count in (2, 3):
            assert pos.is_repetition(count) == (history.count(history[-1]) >= count)
            checks += 1

    for _ in range(6):
        pos = exhausted(SQUARE, rng)
        history = [pos.to_string()]
        for _ in wandering_game(pos, rng, 150):
            history.append(pos.to_string())
            captures += pos._stack[-1][3] is None
        clone, clone_history = pos.copy(), history[:]
        while pos.ply:
            pos.pop()
            history.pop()
            check(pos, history)
        for _ in wandering_game(pos, rng, 150):
            history.append(pos.to_string())
            check(pos, history)
        while clone.ply:
            clone.pop()
            clone_history.pop()
            check(clone, clone_history)
    assert captures > 10 and checks > 500

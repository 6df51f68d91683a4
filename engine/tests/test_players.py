"""The computer players: legality, determinism, budgets, tactics, matches."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Position, Turn
from engine.players import PLAYER_NAMES, SearchPlayer, get_player
from engine.players import search as search_module
from engine.players.evaluation import (
    FEATURES,
    HAND_WEIGHTS,
    WEIGHTS,
    WIN,
    Weights,
    evaluate,
    features,
    make_evaluate,
    position_key,
)
from engine.players.match import MatchResult, play_game, play_match
from engine.players.search_v1 import SearchV1Player

ROOT = Path(__file__).resolve().parents[2]

# White to move at 4-0: the capture C3xD4 wins at once.
WIN_BY_ATTACK = "C3W11,D4B00,F7B00,G7B00 w 4-0"
# White to move at 4-0: creating on B2 leaves A1 (1 limb) without an empty
# neighbour, so it starves at the end of the turn and White reaches 5.
WIN_BY_STARVATION = "A1B01,A2W00,B1W00,G7B00 w 4-0"
# Black has 4 points and D5 (1 leg, 1 pincer) attacks any white adaptoid that
# comes next to it with at most 1 pincer: D3-D4 or creating on D4 loses.
LOSS_IN_ONE = "D3W10,D5B11,G7B00 w 0-4"


def midgame_positions(count: int, seed: int = 5) -> list[Position]:
    """Positions after 6-30 random turns (not over)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.standard()
        for _ in range(rng.randrange(6, 31)):
            if pos.outcome() is not None:
                break
            pos.push(pos.random_turn(rng))
        if pos.outcome() is None:
            out.append(pos)
    return out


def test_names_and_unknown_name() -> None:
    assert PLAYER_NAMES[:2] == ("random", "greedy")
    assert "search" in PLAYER_NAMES
    for name in PLAYER_NAMES:
        assert get_player(name).name == name
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        get_player("nobody")


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_every_turn_is_legal_in_whole_games(name: str) -> None:
    rng = random.Random(11)
    player = get_player(name, seed=3)
    for _game in range(2):
        pos = Position.standard()
        for _ in range(40):
            if pos.outcome() is not None:
                break
            if pos.side_to_move.index == 0:
                turn = player.choose(pos, seconds=0.03)
                assert turn in pos.legal_turns, (str(pos), str(turn))
            else:
                turn = pos.random_turn(rng)
            pos.push(turn)


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_choose_leaves_the_position_unchanged(name: str) -> None:
    pos = midgame_positions(1)[0]
    before, ply = str(pos), pos.ply
    get_player(name, seed=1).choose(pos, seconds=0.05)
    assert (str(pos), pos.ply) == (before, ply)


def test_choose_refuses_a_finished_game_and_a_bad_budget() -> None:
    with pytest.raises(ValueError, match="over"):
        get_player("greedy").choose(Position("D2W00,D6B00 b 5-0"), seconds=1)
    with pytest.raises(ValueError, match="more than 0"):
        get_player("greedy").choose(Position.standard(), seconds=0)


def test_a_single_legal_turn_is_returned_at_once() -> None:
    # White's only adaptoid has 6 limbs and no empty neighbour: the only turn is a pass
    pos = Position("A1W06,A2B00,B1B00,B2B00 w 0-0")
    assert [str(t) for t in pos.legal_turns] == ["pass"]
    for name in PLAYER_NAMES:
        assert get_player(name).choose(pos, seconds=0.5).is_pass


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_same_seed_same_game(name: str) -> None:
    def game(seed: int) -> list[str]:
        player = get_player(name, seed=seed)
        opponent = random.Random(2)
        pos = Position.standard()
        out = []
        for _ in range(30):
            if pos.outcome() is not None:
                break
            mover = player.choose(pos, seconds=1) if pos.ply % 2 == 0 else None
            turn = mover or pos.random_turn(opponent)
            out.append(str(turn))
            pos.push(turn)
        return out

    assert game(7) == game(7)


def test_depth_limited_search_is_deterministic() -> None:
    for pos in midgame_positions(3, seed=8):
        a = get_player("search-1", seed=1).choose(pos, seconds=20)
        b = get_player("search-1", seed=1).choose(pos, seconds=20)
        assert a == b


def test_random_players_differ_by_seed() -> None:
    pos = midgame_positions(1)[0]
    seen = {str(get_player("random", seed=s).choose(pos, seconds=1)) for s in range(20)}
    assert len(seen) > 3


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_every_player_respects_its_budget(name: str) -> None:
    budget = 0.2
    for pos in midgame_positions(4, seed=9):
        player = get_player(name, seed=0)
        began = time.perf_counter()
        turn = player.choose(pos, seconds=budget)
        elapsed = time.perf_counter() - began
        assert turn in pos.legal_turns
        assert elapsed < 3 * budget  # generous: the machine may be loaded


def test_search_uses_its_time_to_look_deeper() -> None:
    pos = midgame_positions(1, seed=4)[0]
    player = get_player("search", seed=0)
    player.choose(pos, seconds=1.0)
    assert int(player.info["depth"]) >= 2
    assert int(player.info["nodes"]) > 50


@pytest.mark.parametrize("name", ["greedy", "search-1", "search-2", "search"])
@pytest.mark.parametrize("text", [WIN_BY_ATTACK, WIN_BY_STARVATION])
def test_a_winning_turn_is_played(name: str, text: str) -> None:
    pos = Position(text)
    turn = get_player(name, seed=0).choose(pos, seconds=1)
    pos.push(turn)
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner is not None
    assert outcome.winner.index == 0, str(turn)


def test_greedy_takes_a_capture_when_one_exists() -> None:
    # C3 (1 leg, 1 pincer) can capture D4 (no pincers): a point for nothing
    pos = Position("C3W11,D4B00,E7B00,G7B10 w 0-0")
    turn = get_player("greedy", seed=0).choose(pos, seconds=1)
    assert turn.move == ("C3", "D4", True)


def _opponent_wins_next(pos: Position, turn: Turn) -> bool:
    """True if some reply to ``turn`` wins for the opponent."""
    pos.push(turn)
    try:
        for reply in list(pos.legal_turns):
            pos.push(reply)
            outcome = pos.outcome()
            pos.pop()
            if outcome is not None and outcome.winner is not None:
                return True
        return False
    finally:
        pos.pop()


@pytest.mark.parametrize("name", ["search-1", "search-2", "search"])
def test_search_avoids_a_loss_in_one(name: str) -> None:
    pos = Position(LOSS_IN_ONE)
    losing = {str(turn) for turn in list(pos.legal_turns) if _opponent_wins_next(pos, turn)}
    assert {"D3-D4,C3", "D4"} <= losing  # the position is as described
    player = get_player(name, seed=0)
    turn = player.choose(pos, seconds=1)
    assert str(turn) not in losing
    assert int(player.info["value"]) > -WIN // 2


@pytest.mark.parametrize("max_nodes", [35_000, 40_000])
def test_an_unfinished_depth_that_refutes_the_best_turn_does_not_pick_it(
    max_nodes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # at these budgets depth 5 stops right after proving the depth-4 best
    # turn (D3-E4,E4L) lost in 4 plies; the next turn of depth 4 is played.
    # The case was found with the hand-set weights (with the fitted ones
    # the depth-4 best turn is not a loss at depth 5), and it tests the
    # search, not the weights: the search is given that evaluation.
    monkeypatch.setattr(search_module, "evaluate", make_evaluate(HAND_WEIGHTS))
    player = SearchPlayer("search", seed=0, max_nodes=max_nodes)
    turn = player.choose(Position(LOSS_IN_ONE), seconds=1000)
    assert player.info["depth"] == 4
    assert str(turn) != "D3-E4,E4L"
    assert int(player.info["value"]) > -WIN // 2


def test_search_sees_the_win_and_says_so() -> None:
    player = get_player("search", seed=0)
    turn = player.choose(Position(WIN_BY_STARVATION), seconds=1)
    assert turn == Turn.parse("B2")
    assert int(player.info["value"]) >= WIN - 10


def test_evaluation_is_antisymmetric_on_a_mirror_start() -> None:
    assert evaluate(Position.standard()) == 0
    ahead = Position("D2W00,D6B00 w 1-0")
    behind = Position("D2W00,D6B00 b 1-0")
    assert evaluate(ahead) > 0 > evaluate(behind)
    assert evaluate(ahead) == -evaluate(behind)


def test_evaluation_counts_a_sure_starvation() -> None:
    # Black's D4 (3 limbs) has 2 empty neighbours: it dies at the end of White's turn
    doomed = Position("C3W00,C4W00,D3W00,D5W00,D4B21,G7B00 w 0-0")
    safe = Position("C3W00,C4W00,D3W00,D5W00,D4B10,G7B00 w 0-0")
    assert evaluate(doomed) > evaluate(safe) + 500


def test_evaluation_is_the_weighted_sum_of_its_features() -> None:
    # the fitting tools rely on it: features() counts what evaluate() weights
    rng = random.Random(4)
    other = Weights(*(rng.randrange(-900, 900) for _ in FEATURES))
    other_evaluate = make_evaluate(other)
    positions = midgame_positions(40, seed=9) + [
        Position("C3W00,C4W00,D3W00,D5W00,D4B21,G7B00 w 0-0"),  # a sure starvation
        Position("C3W11,D4B00,F7B00,G7B00 w 4-0"),  # a winning capture
        Position("D4W10,D5B11,G7B00 w 0-4"),  # the opponent's winning threat
        Position("D2W00,D6B00 b 1-3"),  # adaptoids without legs
    ]
    for pos in positions:
        f = features(pos)
        assert len(f) == len(FEATURES)
        assert evaluate(pos) == sum(w * x for w, x in zip(WEIGHTS, f, strict=True))
        assert other_evaluate(pos) == sum(w * x for w, x in zip(other, f, strict=True))
    # every term is exercised by some position (else the test shows nothing for it)
    assert all(any(features(pos)[k] for pos in positions) for k in range(len(FEATURES)))


def test_position_key_follows_equality() -> None:
    a = Position.standard()
    a.push_text("D2L")
    a.push_text("D6L")
    b = Position("D2W10,D6B10 w 0-0")
    assert a == b and position_key(a) == position_key(b)
    assert position_key(a) != position_key(Position("D2W10,D6B10 b 0-0"))


def test_match_alternates_colours_and_counts_from_a() -> None:
    match = play_match("greedy", "random", games=4, seconds=0.2, seed=1)
    assert [(g.white, g.black) for g in match.games] == [
        ("greedy", "random"),
        ("random", "greedy"),
    ] * 2
    wins, losses, draws = match.counts()
    assert wins + losses + draws == 4
    assert wins == 4
    assert match.summary().startswith("greedy vs random: 4-0-0, score 100.0% ± 0.0%, ")


def test_match_score_and_confidence_interval() -> None:
    match = MatchResult("a", "b", 1.0)
    match.a_scores = [1.0, 0.0, 0.5, 1.0]
    mean, half = match.score()
    assert mean == pytest.approx(62.5)
    # sample sd of (1, 0, .5, 1) = 0.4787; 1.96 * 0.4787 / 2 = 0.4691
    assert half == pytest.approx(46.91, abs=0.01)


def test_a_game_stops_at_the_turn_cap_as_a_draw() -> None:
    game = play_game("random", "random", seconds=0.1, seed=4, max_turns=6)
    assert (game.result, game.reason, game.turns) == ("1/2-1/2", "the 6-turn cap", 6)


def test_match_command_prints_one_summary_line() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "match",
            "greedy",
            "random",
            "--games",
            "2",
            "--time",
            "0.2",
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("game 1: greedy (white) - random (black) 1-0")
    assert lines[1].startswith("game 2: random (white) - greedy (black) 0-1")
    assert re.fullmatch(
        r"greedy vs random: 2-0-0, score 100\.0% ± 0\.0%, \d+\.\d turns per game", lines[-1]
    )


def test_match_command_rejects_an_unknown_player() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine", "match", "greedy", "deep-blue"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 2
    assert "unknown player 'deep-blue'" in out.stderr


# search-v1 is the search of commit 4d4b7f8, frozen. These are the turns, values
# and node counts the committed code of 4d4b7f8 (engine/players/search.py and
# evaluation.py) gave at a fixed depth with seed 5, on positions after random
# turns: the frozen copy must reproduce them exactly.
V1_GOLDEN = [
    (
        (
            "B1W00,B4B00,B5B10,C1W01,C2W00,C3W00,C4B02,C5B00,C6B00,D2W00,D3W01,D5B00,"
            "E2W00,E4W11,E5W00,E6B20,E7B00,F3B00,F5W00,G4B00,G5B00,G6B00 b 1-3"
        ),
        [(2, "B5-A4,D5L", 912, 1354), (3, "B5-A4,D5L", 2212, 26987)],
    ),
    (
        (
            "A1W00,A2B10,B2B00,B5B10,C1W00,C2W10,C4B20,C5B10,D2W01,D4B00,D5B00,D6B02,"
            "E2W10,E3W01,E4W20,E5W00,E7B10,F7B00 b 0-2"
        ),
        [(2, "C4-C3,B1", 2168, 3187)],
    ),
    (
        (
            "A1B01,B3B12,B4B00,C2W01,C3B00,C4B10,C6B10,D2W03,D6W20,D7W00,E2W00,E3W01,"
            "E4W01,E6B01,F7B00 b 1-1"
        ),
        [(2, "C4-D5,E7", 2047, 996), (3, "C4-D5,E7", 2457, 57611)],
    ),
    (
        (
            "B1B30,B2W10,B3W00,C4B00,C5B00,D4B00,D7B01,E4W00,E6B00,E7B00,F3W11,F4W11,"
            "F5W10,G5W10,G6W00 w 1-0"
        ),
        [(2, "F5-F6,C2", 2704, 1164)],
    ),
    (
        (
            "B2W11,B5B10,C4B00,C5B00,D1W01,D2W10,D3W11,D4B00,D6B10,E6B00,E7B00,F3W00,"
            "F4W00,G7B10 b 0-0"
        ),
        [(2, "B5-C6,D4P", -545, 3100)],
    ),
    (
        (
            "B1W00,B3B00,C1W20,C2W01,C3B00,C4B00,D4B00,D7B21,E2W01,E3W00,E5B01,E7B01,"
            "F3W11,F5B00,F7B11,G6B11,G7B00 w 0-2"
        ),
        [(2, "F3-F4,G5", -244, 463), (3, "F3-F4,C2L", 1133, 14918)],
    ),
]


@pytest.mark.parametrize(("text", "expected"), V1_GOLDEN)
def test_search_v1_plays_exactly_as_the_search_of_4d4b7f8(
    text: str, expected: list[tuple[int, str, int, int]]
) -> None:
    from engine.players import SearchV1Player

    pos = Position(text)
    for depth, turn, value, nodes in expected:
        player = SearchV1Player("search-v1", seed=5, max_depth=depth)
        assert str(player.choose(pos, seconds=60)) == turn
        assert (player.info["value"], player.info["nodes"]) == (value, nodes)


def test_search_v1_is_registered_and_frozen_apart_from_search() -> None:
    from engine.players import SearchV1Player

    assert isinstance(get_player("search-v1"), SearchV1Player)
    assert PLAYER_NAMES.index("search-v1") < PLAYER_NAMES.index("search")
    # its own copy of the search and the evaluation: later changes to those never reach it
    for module in ("search_v1.py", "evaluation_v1.py"):
        source = (ROOT / "engine" / "players" / module).read_text()
        assert "engine.players.search " not in source
        assert "from engine.players.evaluation import" not in source


def test_a_match_in_parallel_processes_plays_the_same_games() -> None:
    def games(jobs: int) -> list[tuple[str, str, int, str]]:
        match = play_match(
            "greedy", "random", games=4, seconds=0.2, seed=6, random_turns=2, jobs=jobs
        )
        return [(g.white, g.result, g.turns, g.final) for g in match.games]

    assert games(2) == games(1)


def test_match_module_command_takes_jobs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.players.match", "greedy", "random", "--games", "2"]
        + ["--time", "0.2", "--seed", "3", "--jobs", "2", "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("greedy vs random: 2-0-0, score 100.0% ± 0.0%, ")


def test_the_search_checks_borrowed_turns_as_the_generator_does() -> None:
    # the table's turn and the killers come from other positions: _is_legal must
    # accept exactly the generated turns
    from engine.players.search import _is_legal

    positions = midgame_positions(12, seed=31) + [Position(LOSS_IN_ONE), Position(WIN_BY_ATTACK)]
    pool = {raw for pos in positions for raw in pos._raw_turns()}
    for pos in positions:
        legal = set(pos._raw_turns())
        assert {raw for raw in pool if _is_legal(pos, raw)} == legal & pool
        assert all(_is_legal(pos, raw) for raw in legal)


# White (3 points) to move has no winning turn, but E3L wins on the next turn
# whatever Black replies (found by a depth-3 search, checked by brute force below).
WIN_IN_TWO = (
    "A1W00,A2W00,A3W01,B1W00,C1W00,C2W00,C3W00,C4B00,C5B00,C6B10,D2W00,D4B00,"
    "D6B00,E2W00,E3W01,E7B21,F4B00,F5B00,F7B00,G5B00,G6B00,G7B00 w 3-2"
)


def _wins_now(pos: Position) -> bool:
    """True if the side to move has a turn that wins at once."""
    me = pos.side_to_move
    for turn in list(pos.legal_turns):
        pos.push(turn)
        outcome = pos.outcome()
        pos.pop()
        if outcome is not None and outcome.winner is me:
            return True
    return False


@pytest.mark.parametrize("name", ["search-2", "search", "search-v1"])
def test_search_finds_a_win_in_two_turns(name: str) -> None:
    pos = Position(WIN_IN_TWO)
    assert not _wins_now(pos)
    player = get_player(name, seed=0)
    turn = player.choose(pos, seconds=2)
    assert int(player.info["value"]) >= WIN - 3  # it knows: a win at the third turn from here
    pos.push(turn)
    replies = list(pos.legal_turns)
    assert replies
    for reply in replies:
        pos.push(reply)
        assert _wins_now(pos), (str(turn), str(reply))
        pos.pop()


def test_late_move_reductions_search_fewer_positions_to_a_depth() -> None:
    # the shipped search reduces late quiet turns (and prunes nothing else by
    # default); the same search without the reductions must look at more
    # positions to reach the same depth (and both play legal turns).  Depth 4:
    # at depth 3 the re-searches of the reduced turns cost about what they save.
    full_nodes = pruned_nodes = 0
    for pos in midgame_positions(2, seed=3):
        full = SearchPlayer("full", seed=0, max_depth=4, lmr=False)
        pruned = SearchPlayer("pruned", seed=0, max_depth=4)
        assert (pruned.futility, pruned.lmp, pruned.lmr) == ((), 0, True)
        for player in (full, pruned):
            raw = player.search(pos, time.perf_counter() + 600)
            assert raw in pos._raw_turns()
        full_nodes += full.nodes
        pruned_nodes += pruned.nodes
    assert pruned_nodes < full_nodes


def test_search_outplays_search_v1_at_equal_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 17's claim in a form CI can run: at the same depth (2 turns, no
    # clock: deterministic on any machine) the search with the fitted
    # evaluation wins 11 of these 12 openings against search-v1; with the
    # hand-set weights swapped in it wins 7 (docs/players.md, "Strength").
    from engine import players

    monkeypatch.setitem(
        players._FACTORIES,
        "search-v1-depth-2",
        lambda name, seed: SearchV1Player(name, seed=seed, max_depth=2),
    )
    match = play_match(
        "search-1", "search-v1-depth-2", games=12, seconds=1000.0, seed=1, random_turns=2
    )
    wins = match.counts()[0]
    assert wins >= 10, match.summary()

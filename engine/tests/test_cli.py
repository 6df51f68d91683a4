"""The command line, run as a subprocess exactly as outside checks run it."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        input=stdin,
        timeout=120,
    )
    assert "Traceback" not in result.stderr
    return result


def test_legal_from_start() -> None:
    result = run("legal", "start")
    assert result.returncode == 0
    assert result.stdout.split() == ["C1", "C2", "D1", "D2L", "D2P", "D3", "E2", "E3"]


def test_legal_output_is_plain_sorted() -> None:
    result = run("legal", "B4W21,C1W00,D4B22,E3W31,E5B00,F7B03 w 0-0")
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines == sorted(lines) and "E3xE5,F5" in lines


def test_perft() -> None:
    result = run("perft", "D2W00,D6B00 w 0-0", "3")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "976"


def test_perft_divide_ends_with_the_total() -> None:
    result = run("perft", "start", "2", "--divide")
    lines = result.stdout.splitlines()
    assert lines[-1] == "64" and len(lines) == 9


def test_play() -> None:
    result = run("play", "start", "D2L", "C6", "d2-d3 , d3p")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["C6B00,D3W11,D6B00 b 0-0", "*"]


def test_play_starvation_example_and_result() -> None:
    start = "B4W21,B5B00,C1W00,C3W00,C5W00,D4B32,D5B00,E3W21,E7B00,F7B22 w 0-0"
    result = run("play", start, "C4")
    assert result.stdout.splitlines() == [
        "B4W21,B5B00,C1W00,C3W00,C4W00,C5W00,D5B00,E3W21,E7B00 b 2-0",
        "*",
    ]
    won = run("play", "D2W11,D3B00,D6B00 w 4-0", "D2xD3")
    assert won.stdout.splitlines() == ["D3W11,D6B00 b 5-0", "1-0"]


def test_illegal_turn_exits_1_with_one_line() -> None:
    result = run("play", "start", "D2-D4")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "error: turn 1: illegal turn 'D2-D4' in 'D2W00,D6B00 w 0-0': D2 has no legs"
    ]


def test_bad_turn_syntax_exits_2() -> None:
    result = run("play", "start", "D2-D4-D6")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_bad_position_exits_2() -> None:
    for args in (("legal", "D2W00 x 0-0"), ("perft", "Z9W00 w 0-0", "1"), ("play", "nonsense")):
        result = run(*args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("error: invalid position"), args
        assert len(result.stderr.strip().splitlines()) == 1


def test_bad_usage_exits_2() -> None:
    assert run().returncode == 2
    assert run("perft", "start", "x").returncode == 2
    assert run("frobnicate").returncode == 2


def test_check(tmp_path: pathlib.Path) -> None:
    good = tmp_path / "good.agn"
    good.write_text('[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. D3 C6 *\n\n1. D2L *\n')
    result = run("check", str(good))
    assert result.returncode == 0
    assert result.stdout.splitlines()[:2] == [
        "game 1: ok (A - B, 2 turns, *)",
        "game 2: ok (?, 1 turn, *)",
    ]
    assert len(result.stdout.splitlines()) == 2 and result.stderr == ""
    bad = tmp_path / "bad.agn"
    bad.write_text("1. D3 C6 *\n\n1. D3 C6 2. D2-D4 *\n\n1. D2P *\n")
    result = run("check", str(bad))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game 1: ok")
    assert lines[1].startswith("game 2: illegal") and "turn 3" in lines[1] and "D2-D4" in lines[1]
    assert lines[2].startswith("game 3: ok")
    assert len(lines) == 3
    assert len(result.stderr.splitlines()) == 1 and "game 2" in result.stderr


def test_check_syntax_only_problems_exit_2(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "bad.agn"
    bad.write_text("1. D3 Q? *\n")
    assert run("check", str(bad)).returncode == 2
    missing = run("check", str(tmp_path / "missing.agn"))
    assert missing.returncode == 2 and missing.stderr.startswith("error: cannot read")


def test_selfplay_summary() -> None:
    result = run("selfplay", "--games", "20", "--seed", "3")
    assert result.returncode == 0
    line = result.stdout.splitlines()[-1]
    assert line.startswith("20 games, seed 3") and "games/s" in line
    again = run("selfplay", "--games", "20", "--seed", "3")
    strip = lambda s: s.split(";")[:2]
    assert strip(again.stdout.splitlines()[-1]) == strip(line)

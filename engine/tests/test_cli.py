"""The command line, run as a subprocess exactly as outside checks run it."""

from __future__ import annotations

import pathlib
import random
import subprocess
import sys

import pytest

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
    assert again.stdout.splitlines()[-1].split(";")[:2] == line.split(";")[:2]


NINES = "9" * 5000


def test_usage_errors_are_one_line() -> None:
    for args in ((), ("perft", "start", "x"), ("frobnicate",), ("perft",), ("legal", "--nope")):
        result = run(*args)
        assert result.returncode == 2, args
        assert result.stdout == "", args
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: python -m engine"), (args, lines)
        assert lines[0].endswith("(see --help)")


def test_huge_numbers_are_one_line_errors() -> None:
    for args in (
        ("play", "start", f"D{NINES}"),
        ("play", "start", "D3", f"C{NINES}-C6"),
        ("legal", f"D2W00,D6B00 w 0-{NINES}"),
        ("perft", f"D2W00,D6B00 w 0-0 A1-{NINES}", "1"),
        ("perft", "start", NINES),
        ("selfplay", "--games", NINES),
        ("selfplay", "--seed", NINES),
    ):
        result = run(*args)
        assert result.returncode == 2, args[:2]
        [line] = result.stderr.splitlines()
        assert line.startswith("error: ") and "characters)" in line and len(line) < 400, line


def test_non_ascii_turns_are_refused() -> None:
    for turn in ("pa\u017fs", "\u01313", "\u017f2", "D3\u00a0"):
        board = ",".join(f"{c}1-9" for c in "ABCDEFGHIJKLMNOPQRS")  # has I3 and S2
        result = run("play", f"D2W00,D6B00 w 0-0 {board}", turn)
        assert result.returncode == 2, turn
        [line] = result.stderr.splitlines()
        assert "non-ASCII" in line and "a turn is written in ASCII" in line


def test_numbers_are_ascii_digits() -> None:
    for value in ("\uff13", "1_0", " 3", "0x10", "3.0"):
        result = run("selfplay", "--games", value)
        assert result.returncode == 2, value
        assert "is not a whole number" in result.stderr
    assert run("selfplay", "--games", "+2", "--seed", "-5").returncode == 0


def test_match_time_must_be_finite_positive_and_sane() -> None:
    for value in ("inf", "Infinity", "nan", "0", "-1", "1e9", "3601", "1_0", "\uff11", ""):
        result = run("match", "random", "random", "--games", "1", "--time", value)
        assert result.returncode == 2, value
        [line] = result.stderr.splitlines()
        assert "is not a number of seconds more than 0 and at most 3600" in line, line
    ok = run("match", "random", "random", "--games", "1", "--max-turns", "4", "--time", "0.05")
    assert ok.returncode == 0 and ok.stdout.splitlines()[-1].startswith("random vs random")


def test_no_input_makes_a_traceback(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # In process, bounded: random argument lists built from hostile pieces.
    from engine.cli import main

    rng = random.Random(2026)
    record = tmp_path / "r.agn"
    pieces = [
        "start", "D2W00,D6B00 w 0-0", "D2W00,D6B00 b 4-4", f"D2W00 w 0-{NINES}", "- w 0-0 A1-2",
        "D2W00,D6B00\u00a0w 0-0", "D2W07 w 0-0", "D3", "d2l", "pa\u017fs", "\u01313", "pass",
        f"D{NINES}", "D2-D3,D2", "x", "", " ", "\n", "0", "1", "2", "-1", NINES, "\uff13",
        "--divide", "--nope", "-", str(record), str(tmp_path), "\udcff", "D2xD3", "E3xE5,F4",
    ]  # fmt: skip
    contents = [
        b"1. D3 C6 *\n", b"\xef\xbb\xbf1. D3 *\n", b"\xff\xfe\x00", b"[Event \"\xc3\xa6\"]\n\n1. D3 *",
        f"1. D{NINES} *".encode(), "1. pa\u017fs *".encode(), b"{ open", b"",
    ]  # fmt: skip
    for case in range(150):
        record.write_bytes(rng.choice(contents))
        command = rng.choice(["legal", "perft", "play", "check", "nonsense"])
        argv = [command, *(rng.choice(pieces) for _ in range(rng.randint(0, 4)))]
        if command == "perft" and len(argv) > 2 and argv[2] not in ("0", "1", "x", NINES):
            argv[2] = "1"  # bounded work
        status = main(argv)
        _out, err = capsys.readouterr()
        assert status in (0, 1, 2), (case, argv)
        assert "Traceback" not in err and len(err.splitlines()) <= 1, (case, argv, err)

"""The command line contract: ``python -m tournaments.pairing FILE.trf``."""

import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.pairing.tests.conftest import EXAMPLES, Expected

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments.pairing", *args],
        capture_output=True,
        check=False,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_prints_the_pairing_like_bbppairings(expected: Expected) -> None:
    result = run(str(EXAMPLES / "exJ04-r1.trf"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert int(lines[0]) == len(lines) - 1
    pairs = [[int(x) for x in line.split()] for line in lines[1:]]
    assert all(len(pair) == 2 for pair in pairs)
    assert sorted(pairs) == expected["exJ04-r1.trf"]["master"]
    assert pairs[0] == [1, 23] and pairs[-1] == [43, 0]  # board order: top board first, bye last


def test_unreadable_file_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      Ann" + " " * 31 + "18x0\nXXR 3\n")
    result = run(str(bad))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "line 1" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("content", [None, b"\xff\xfe\x00garbage", b""])
def test_missing_or_binary_file_exits_2(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "t.trf"
    if content is not None:
        path.write_bytes(content)
    result = run(str(path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_no_valid_pairing_exits_1(tmp_path: Path) -> None:
    # Two players who already met: round 2 cannot be paired.
    path = tmp_path / "t.trf"
    path.write_text(
        "001    1      Ann                               1800"
        "                             0.5    1     2 w =\n"
        "001    2      Bob                               1700"
        "                             0.5    2     1 b =\n"
        "XXR 3\n"
    )
    result = run(str(path))
    assert result.returncode == 1
    assert "no valid pairing" in result.stderr and "Traceback" not in result.stderr


def test_standings_prints_the_contract(tmp_path: Path) -> None:
    """``standings FILE --tiebreaks …``: header, then ``RANK ID POINTS TB…`` in rank order.

    The file is the withdrawal example of test_standings (values computed by
    hand there); TRF has no withdrawal mark, so the command takes 6's
    trailing zero-point byes for a withdrawal, exactly as that example says.
    """
    from tournaments.pairing import write_trf
    from tournaments.pairing.tests.test_standings import swiss_with_withdrawal

    path = tmp_path / "t.trf"
    path.write_text(write_trf(swiss_with_withdrawal()))
    result = run("standings", str(path), "--tiebreaks", "BH,BH-C1,SB,WIN,WON,PS")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "RANK ID POINTS BH BH-C1 SB WIN WON PS",
        "1 1 3.5 6.5 6 5 3 3 8.5",
        "2 2 3 8 5 4.75 2 2 8",
        "3 3 2 8.5 8 3.5 1 0 5.5",
        "4 6 1.5 5.5 4 1.5 1 1 5",
        "5 5 1 8.5 7.5 1 1 0 2",
        "6 4 0.5 11 9 1 0 0 0.5",
    ]


def test_standings_rejects_an_unknown_tiebreak(expected: Expected) -> None:
    result = run("standings", str(EXAMPLES / "exJ04-r2.trf"), "--tiebreaks", "BH,XYZ")
    assert result.returncode == 2 and "XYZ" in result.stderr and "Traceback" not in result.stderr


def test_pair_takes_the_system(expected: Expected) -> None:
    name = str(EXAMPLES / "exH00-r3.trf")
    dutch = run("pair", name, "--system", "dutch")
    assert dutch.returncode == 0 and dutch.stdout == run(name).stdout
    for system in ("burstein", "dubov"):
        other = run(name, "--system", system)
        assert other.returncode == 0, other.stderr
        assert int(other.stdout.split()[0]) == 35  # 70 players, everyone paired
    assert run(name, "--system", "swiss").returncode == 2


def test_pair_takes_the_rules(expected: Expected) -> None:
    name = "exJ02-r3.trf"
    for rules, version in (("2026", "master"), ("2017", "v501")):
        result = run(str(EXAMPLES / name), "--rules", rules)
        assert result.returncode == 0, result.stderr
        pairs = sorted([int(x) for x in line.split()] for line in result.stdout.splitlines()[1:])
        assert pairs == expected[name][version]
    assert run(str(EXAMPLES / name), "--rules", "2009").returncode == 2


def test_check_reports_each_violation_and_exits_1(tmp_path: Path) -> None:
    # Round 2 repeats round 1's game 1-2.
    path = tmp_path / "t.trf"
    path.write_text(
        "001    1      Ann                               1800"
        "                             1.0    1     2 w 1     2 b 0\n"
        "001    2      Bob                               1700"
        "                             1.0    2     1 b 0     1 w 1\n"
        "XXR 3\n"
    )
    result = run("check", str(path))
    assert result.returncode == 1
    assert result.stdout == "round 2: players 1 and 2 meet again (C1)\n"


def test_check_accepts_a_legal_file(expected: Expected) -> None:
    result = run("check", str(EXAMPLES / "exJ04-r5.trf"))
    assert result.returncode == 0, result.stdout
    assert result.stdout == "no violations\n"


def test_accelerated_round_one_follows_xxa(tmp_path: Path) -> None:
    """Baku acceleration: the top half starts a point up, so 1 meets 12, not 24."""
    from tournaments.pairing import Tournament, write_trf
    from tournaments.pairing.simulate import random_entrants_tournament

    plain = random_entrants_tournament(46, 9, seed=4)
    top = {p: (2, 2, 2, 1, 1) for p in range(1, 24)}
    path = tmp_path / "t.trf"
    path.write_text(write_trf(Tournament(plain.players, 9, accelerations=top)))
    assert "XXA    1  1.0  1.0  1.0  0.5  0.5" in path.read_text()
    result = run(str(path))
    assert result.returncode == 0, result.stderr
    pairs = [tuple(map(int, line.split())) for line in result.stdout.splitlines()[1:]]

    def halves(first: int, last: int) -> list[tuple[int, int]]:
        # Top half against bottom half, the top player White on odd boards.
        k = (last - first + 1) // 2
        boards = [(first + j, first + k + j) for j in range(k)]
        return [(a, b) if j % 2 == 0 else (b, a) for j, (a, b) in enumerate(boards)]

    # The 23 accelerated players: 1-12 ... 11-22; 23 floats down to 24; 25-46 by halves.
    assert pairs == [*halves(1, 22), (23, 24), *halves(25, 46)]

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
    assert sorted(pairs) == expected["exJ04-r1.trf"]["v501"]
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

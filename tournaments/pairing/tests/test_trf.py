"""TRF-16 reader and writer."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Outcome,
    PlayerEntry,
    RoundResult,
    Tournament,
    TrfError,
    pair_next_round,
    read_trf,
    write_trf,
)
from tournaments.pairing.simulate import play_random_rounds, random_entrants_tournament
from tournaments.pairing.tests.conftest import EXAMPLES, example_names

# Two rounds: 1 beat 2 then drew 3 (who had the bye in round 1); 2 forfeited
# round 2 against 4; 4 had a half-point bye in round 1 and asks for a
# half-point bye in round 3 too.
SMALL = (
    "012 Club Open\n"
    "001    1      Ann                               1800"
    "                             1.5    1     2 w 1     3 b =\n"
    "001    2      Bob                               1700"
    "                             0.0    4     1 b 0     4 w -\n"
    "001    3      Cid                               1650"
    "                             1.5    2  0000 - U     1 w =\n"
    "001    4      Dee                                   "
    "                             2.0    3  0000 - H     2 b +  0000 - H\n"
    "XXR 5\n"
    "XXC black1\n"
    "XXP 1 4\n"
)


def test_reads_players_results_and_extensions() -> None:
    document = read_trf(SMALL)
    t = document.tournament
    assert document.name == "Club Open"
    assert (t.total_rounds, t.first_color, t.rounds_played) == (5, "b", 2)
    assert t.forbidden_pairs == {frozenset((1, 4))}
    assert t.player(1) == PlayerEntry(
        1, "Ann", 1800, (RoundResult(2, "w", Outcome.WIN), RoundResult(3, "b", Outcome.DRAW))
    )
    assert t.player(4).rating == 0
    assert t.player(2).results[1] == RoundResult(4, "w", Outcome.FORFEIT_LOSS)
    assert t.player(3).results[0] == RoundResult.bye(Outcome.PAIRING_BYE)
    # The entry past the completed rounds announces an absence next round.
    assert dict(t.requested_byes) == {4: Outcome.HALF_POINT_BYE}
    assert t.points() == {1: 3, 2: 0, 3: 3, 4: 3}


@pytest.mark.parametrize("newline", ["\r", "\n", "\r\n"])
def test_any_line_end_reads_the_same(newline: str) -> None:
    assert read_trf(SMALL.replace("\n", newline)) == read_trf(SMALL)


def test_round_trip_keeps_everything_we_model() -> None:
    t = read_trf(SMALL).tournament
    text = write_trf(t, name="Club Open", newline="\r")
    assert "\n" not in text
    assert read_trf(text) == read_trf(SMALL)
    assert write_trf(read_trf(text).tournament, name="Club Open") == write_trf(t, name="Club Open")


def test_written_columns_follow_trf16() -> None:
    line = write_trf(read_trf(SMALL).tournament).splitlines()[0]
    assert line[0:3] == "001" and line[4:8] == "   1"
    assert line[14:47].rstrip() == "Ann" and line[48:52] == "1800"
    assert line[80:84] == " 1.5" and line[85:89] == "   1"
    assert line[91:99] == "   2 w 1" and line[101:109] == "   3 b ="


def test_bye_value_and_withdrawal_are_written() -> None:
    t = Tournament(
        (
            PlayerEntry(1, "A", results=[RoundResult.bye(Outcome.PAIRING_BYE)]),
            PlayerEntry(2, "B", results=[RoundResult.bye(Outcome.ZERO_POINT_BYE)], withdrawn=True),
        ),
        3,
        bye_points=1,
    )
    text = write_trf(t)
    assert "XXS PAB=0.5" in text and "BBU 0.5" in text
    again = read_trf(text).tournament
    assert again.bye_points == 1 and again.points() == {1: 1, 2: 0}
    # TRF has no "withdrawn": it becomes a zero-point absence next round.
    assert dict(again.requested_byes) == {2: Outcome.ZERO_POINT_BYE}


@pytest.mark.parametrize("seed", range(6))
def test_simulated_tournaments_round_trip(seed: int) -> None:
    t = random_entrants_tournament(9 + seed, 7, seed=seed, first_color="wb"[seed % 2])
    t = play_random_rounds(
        t, 1 + seed, pair_next_round, seed=seed, absence_rate=0.1, forfeit_rate=0.1
    )
    assert read_trf(write_trf(t, name="Sim")).tournament == t


def test_names_are_made_to_fit_their_column() -> None:
    t = Tournament((PlayerEntry(1, "  A\nvery\tlong " + "x" * 40, 12345),), 1)
    line = write_trf(t).splitlines()[0]
    assert line[14:47] == "A very long " + "x" * 21 and line[48:52] == "    "
    assert read_trf(write_trf(t)).tournament.player(1).name == "A very long " + "x" * 21


@pytest.mark.parametrize("name", example_names())
def test_every_example_round_trips(name: str) -> None:
    original = read_trf((EXAMPLES / name).read_text())
    assert read_trf(write_trf(original.tournament, name=original.name)) == original


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (SMALL.replace("1800", "18x0"), 2, "bad rating '18x0'"),
        (SMALL.replace("0.0    4", "0.5    4"), 3, "points 0.5 do not match the results (0)"),
        (SMALL.replace("   2 w 1", "   2 w 7"), 2, "round 1: unknown result code '7'"),
        (SMALL.replace("   2 w 1", "   2 x 1"), 2, "round 1: bad colour 'x'"),
        (SMALL.replace("   2 w 1", "   2 b 1"), 2, "round 1: both players had the same colour"),
        (
            SMALL.replace("   2 w 1", "   2 w =").replace("1.5    1 ", "1.0    1 "),
            2,
            "round 1: results '=' and '0' do not match",
        ),
        (SMALL.replace("XXR 5\n", ""), None, "missing XXR (total number of rounds)"),
        (SMALL.replace("XXR 5", "XXR five"), 6, "bad number of rounds 'five'"),
        (SMALL.replace("XXC black1", "XXC rank"), 7, "unsupported XXC option 'rank'"),
        (SMALL.replace("XXP 1 4", "XXP 1"), 8, "XXP needs at least two players"),
        (SMALL.replace("001    3", "001    7"), None, "starting ranks must be 1..4: 3 is missing"),
        (
            SMALL.replace("  0000 - H\n", "     1 b 1\n").replace("2.0    3", "2.5    3"),
            5,
            "opponent 1 does not list this game",
        ),
        ("XXR 3\n", None, "no player lines (001)"),
    ],
)
def test_errors_name_the_line_and_the_reason(text: str, line: int | None, reason: str) -> None:
    with pytest.raises(TrfError) as caught:
        read_trf(text)
    assert caught.value.line == line
    assert reason in caught.value.reason
    assert isinstance(caught.value, ValueError)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_raises_only_trf_error(text: str) -> None:
    try:
        read_trf(text)
    except TrfError:
        pass


_TRF_ALPHABET = st.sampled_from(list("0123456789 .wb-+=HFUZWDLx\n\r") + ["001 ", "XXR ", "XXP "])


@settings(max_examples=500, deadline=None)
@given(
    position=st.integers(min_value=0, max_value=len(SMALL)),
    length=st.integers(min_value=0, max_value=12),
    insert=st.lists(_TRF_ALPHABET, max_size=12).map("".join),
)
def test_mutated_files_raise_only_trf_error(position: int, length: int, insert: str) -> None:
    """Damage a valid file anywhere: the reader answers or raises TrfError, nothing else."""
    text = SMALL[:position] + insert + SMALL[position + length :]
    try:
        read_trf(text)
    except TrfError:
        pass


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("XYZ 1 2", "unknown TRF record: 'XYZ 1 2'"),
        ("013 Team A    1    2", "team records are not supported"),
        ("XXZ 3", "XXZ is not supported"),
        ("260   1   3    1    2", "forbidden-pair records (260)"),
        ("BBW 2.0", "only the standard point system is supported (BBW = 1): 'BBW 2.0'"),
        ("XXS W=1.0 D=0.4", "only the standard point system is supported (D = 0.5)"),
        ("XXS QQ=1", "unknown XXS entry 'QQ'"),
        ("x", "unknown TRF record: 'x'"),
    ],
)
def test_lines_we_do_not_understand_are_refused_with_their_number(extra: str, reason: str) -> None:
    text = SMALL + extra + "\n"
    with pytest.raises(TrfError) as caught:
        read_trf(text)
    assert caught.value.line == 9
    assert reason in caught.value.reason


def test_header_records_and_standard_points_are_accepted() -> None:
    extra = (
        "022 Utrecht\n"
        "042 2026/01/10\n"
        "092 FIDE_DUTCH_2025\n"
        "122 90'+30''\n"
        "\n"
        "BBW 1.0\n"
        "BBD 0.5\n"
        "XXS W=1.0 D=0.5 L=0.0\n"
    )
    assert read_trf(SMALL + extra) == read_trf(SMALL)


def test_acceleration_lines_are_read_and_written() -> None:
    text = SMALL + "XXA    1  1.0  0.5\nXXA    3  1.0\n"
    t = read_trf(text).tournament
    assert t.accelerations == {1: (2, 1), 3: (2,)}
    assert t.acceleration(1, 2) == 1 and t.acceleration(1, 3) == 0 and t.acceleration(2, 1) == 0
    assert read_trf(write_trf(t)).tournament == t
    assert "XXA    1  1.0  0.5" in write_trf(t)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("XXA    9  1.0", "XXA names unknown player 9"),
        ("XXA    1x 1.0", "misaligned XXA field"),
        ("XXA    1  x.0", "bad points"),
        ("XXA", "bad XXA line"),
    ],
)
def test_bad_acceleration_lines(line: str, reason: str) -> None:
    with pytest.raises(TrfError, match=reason):
        read_trf(SMALL + line + "\n")


def test_standings_files_may_omit_xxr() -> None:
    text = (
        SMALL.replace("XXR 5\n", "").replace("  0000 - H\n", "\n").replace("2.0    3", "1.5    3")
    )
    with pytest.raises(TrfError, match="missing XXR"):
        read_trf(text)
    assert read_trf(text, require_total_rounds=False).tournament.total_rounds == 2


def test_forfeits_without_opponent_read_as_bbppairings_reads_them() -> None:
    # 2 forfeits round 2 "against nobody" (withdrawn), 3 wins one the same way.
    text = SMALL.replace("     4 w -", "  0000 - -").replace("     2 b +", "  0000 - +")
    t = read_trf(text).tournament
    assert t.player(2).results[1] == RoundResult.bye(Outcome.ZERO_POINT_BYE)
    assert t.player(4).results[1] == RoundResult.bye(Outcome.PAIRING_BYE)


def test_a_line_that_stops_early_gets_zero_point_byes() -> None:
    text = (
        "001    1      Ann                               1800"
        "                             1.5    1     2 w 1     2 b =\n"
        "001    2      Bob                               1700"
        "                             0.5    3     1 b 0     1 w =\n"
        "001    3      Cid                               1650"
        "                             1.0    2  0000 - U\n"
        "XXR 3\n"
    )
    t = read_trf(text).tournament
    assert t.rounds_played == 2 and not t.requested_byes
    assert t.player(3).results == (
        RoundResult.bye(Outcome.PAIRING_BYE),
        RoundResult.bye(Outcome.ZERO_POINT_BYE),
    )

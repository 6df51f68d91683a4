"""Game records (.agn): reading, writing, errors per game."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest

from engine import Position, Turn
from engine.record import GameRecord, RecordError, read_games, write_game, write_games

GOOD = """\
[Event "Club night"]
[Site "Here"]
[Date "2026.11.30"]
[Round "1"]
[White "Ann"]
[Black "Bob"]
[Result "*"]

1. D3 C6 2. D3L { a comment
  over two lines } 2... C6P 3. d3-d4 , E4 *
"""


def test_read_a_game_with_a_multiline_comment() -> None:
    [game] = read_games(GOOD)
    assert game.errors == []
    assert game.headers["White"] == "Ann"
    assert game.turns == ["D3", "C6", "D3L", "C6P", "D3-D4,E4"]
    assert game.comments == {3: "a comment over two lines"}
    assert game.result == "*"
    assert game.start == "D2W00,D6B00 w 0-0"
    assert str(game.replay()) == "C6B01,D2W00,D4W10,D6B00,E4W00 b 0-0"


def test_canonical_text_reads_back_to_the_same_game() -> None:
    [game] = read_games(GOOD)
    text = write_game(game)
    assert "3. D3-D4,E4 *" in text
    [again] = read_games(text)
    assert again == game
    assert write_game(again) == text


def test_reader_streams_from_a_file_like_object_and_keeps_going_after_bad_games() -> None:
    bad_turn = GOOD.replace("2... C6P", "2... C6-C5")
    bad_syntax = GOOD.replace("C6P", "C6Q")
    text = f"{GOOD}\n{bad_turn}\n{bad_syntax}\n{GOOD}"
    games = list(read_games(io.StringIO(text)))
    assert [g.index for g in games] == [1, 2, 3, 4]
    assert games[0].errors == [] and games[3].errors == []
    [illegal] = games[1].errors
    assert illegal.kind == "illegal" and illegal.game_index == 2 and illegal.turn_number == 4
    assert "C6 has no legs" in illegal.message
    [syntax] = games[2].errors
    assert syntax.kind == "syntax" and syntax.turn_number == 4


def test_the_reader_does_not_need_the_whole_file() -> None:
    def lines() -> Iterator[str]:  # a generator: read_games must consume it lazily
        yield from GOOD.splitlines(keepends=True)
        raise AssertionError("read past the first game")

    first = next(read_games(lines()))
    assert first.errors == []


def test_missing_result_and_bad_tags_are_reported() -> None:
    text = '[Event "x"\n\n1. D3 C6\n\n[Event "y"]\n\n1. D3 *\n'
    games = list(read_games(text))
    assert len(games) == 2
    messages = [e.message for e in games[0].errors]
    assert any("malformed tag pair" in m for m in messages)
    assert any("no result token" in m for m in messages)
    assert games[1].errors == []


def test_result_must_match_the_rules() -> None:
    text = '[Position "D2W11,D3B00,D6B00 w 4-0"]\n[Opening "position"]\n\n1. D2xD3 0-1\n'
    [game] = read_games(text)
    assert [e.kind for e in game.errors] == ["illegal"]
    assert "ended 1-0 by captures" in game.errors[0].message


def test_turns_after_the_end_are_illegal() -> None:
    text = '[Position "D2W11,D3B00,D6B00 w 4-0"]\n[Opening "position"]\n\n1. D2xD3 1... D6L 1-0\n'
    [game] = read_games(text)
    assert game.errors and "the game is over" in game.errors[0].message


def test_black_to_move_start_and_custom_board() -> None:
    pos = Position.from_string("A1W00,B3B00 b 0-0 A1-3,B2-3")
    pos.push_text("B2")
    pos.push_text("A2")
    record = GameRecord.from_position(pos, headers={"Event": "tiny"})
    text = write_game(record)
    assert '[Board "A1-3,B2-3"]' in text
    assert '[Position "A1W00,B3B00 b 0-0 A1-3,B2-3"]' in text
    assert "1... B2 2. A2 *" in text
    [back] = read_games(text)
    assert back.errors == []
    assert back.replay() == pos


def test_pie_opening_is_tagged() -> None:
    pos = Position.pie_setup("C3", "E5")
    record = GameRecord.from_position(pos)
    assert record.headers["Opening"] == "pie"
    [back] = read_games(write_game(record))
    assert back.errors == [] and back.start == "C3W00,E5B00 w 0-0"


def test_lines_are_wrapped_at_80_columns_and_games_round_trip() -> None:
    rng = random.Random(7)
    records = []
    for _ in range(20):
        pos = Position.standard()
        while pos.outcome() is None:
            pos.push(pos.random_turn(rng))
        record = GameRecord.from_position(pos, headers={"White": 'A "quoted" \\ name'})
        record.comments[rng.randrange(len(record.turns) + 1)] = "note " * 30
        records.append(record)
    out = io.StringIO()
    assert write_games(records, out) == 20
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    back = list(read_games(text))
    assert len(back) == 20
    for original, again in zip(records, back, strict=True):
        assert again.errors == []
        assert again.turns == original.turns
        assert again.result == original.result
        assert again.headers["White"] == 'A "quoted" \\ name'
        assert again.headers["Termination"] == original.headers["Termination"]
        assert again.comments == {k: v.strip() for k, v in original.comments.items()}
        assert write_game(again) == write_game(original)


def test_record_error_str() -> None:
    assert str(RecordError(2, 5, "bad")) == "game 2, turn 5: bad"


def test_from_position_rejects_a_bad_result() -> None:
    with pytest.raises(ValueError):
        GameRecord.from_position(Position.standard(), result="2-0")


def test_games_without_tags_and_several_on_one_line() -> None:
    games = list(
        read_games("1. D3 C6 * 1. D2L 1/2-1/2 ; a rest-of-line comment\n% escape\n1. E3 *")
    )
    assert [g.turns for g in games] == [["D3", "C6"], ["D2L"], ["E3"]]
    assert [g.result for g in games] == ["*", "1/2-1/2", "*"]
    assert all(g.errors == [] for g in games)
    assert games[1].comments == {}  # the comment after the result belongs to the next game
    assert games[2].comments == {0: "a rest-of-line comment"}


def test_wrong_turn_numbers_are_reported() -> None:
    [game] = read_games("1. D3 2. C6 *")
    assert game.errors and "turn number '2.' where '1...' belongs" in game.errors[0].message


def test_unclosed_comment() -> None:
    [game] = read_games("1. D3 { never closed\n C6 *\n")
    assert any("not closed" in e.message for e in game.errors)


def test_the_movetext_is_checked_as_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # A one-game file of any length must not be held as tokens until its result:
    # each turn is parsed and played when its line is read.
    parsed: list[str] = []
    real_parse = Turn.parse

    def parse(text: str) -> Turn:
        parsed.append(text)
        return real_parse(text)

    monkeypatch.setattr(Turn, "parse", staticmethod(parse))

    def lines() -> Iterator[str]:
        yield '[Event "long"]\n'
        yield "\n"
        yield "1. D3 C6\n"
        assert set(parsed) == {"D3", "C6"}
        yield "2. D3L C6L\n"
        assert set(parsed) == {"D3", "C6", "D3L", "C6L"}
        yield "*\n"

    [game] = read_games(lines())
    assert game.errors == [] and game.turns == ["D3", "C6", "D3L", "C6L"]


def test_repeated_turn_texts_share_one_string() -> None:
    [game] = read_games("1. D3 C6 2. D3L C6L 3. d3l c6l 4. D3P C6P 5. d3p c6p *")
    assert game.errors == []
    assert game.turns == ["D3", "C6", "D3L", "C6L", "D3L", "C6L", "D3P", "C6P", "D3P", "C6P"]
    first: dict[str, int] = {}
    for turn in game.turns:
        assert id(turn) == first.setdefault(turn, id(turn))


def test_errors_keep_their_order_when_streaming() -> None:
    # tag errors, then the missing result, then the start position, then the movetext
    text = '[Event "x"\n[Position "D2W00 x 0-0"]\n[Opening "position"]\n\n1. D3 Q? C6\n'
    [game] = read_games(text)
    messages = [e.message for e in game.errors]
    assert len(messages) == 3
    assert "malformed tag pair" in messages[0]
    assert "no result token" in messages[1]
    assert "Position tag" in messages[2]
    text = "1. D3 { open\n"
    [game] = read_games(text)
    assert ["not closed" in e.message for e in game.errors] == [True, False]
    assert "no result token" in game.errors[1].message


def test_tokens_after_a_result_wait_for_the_next_games_tags() -> None:
    text = '1. D3 * {next}\n[Position "C3W00,E5B00 b 0-0"]\n[Opening "pie"]\n\n1... E5L *\n'
    first, second = read_games(text)
    assert first.errors == [] and second.errors == []
    assert second.start == "C3W00,E5B00 b 0-0" and second.comments == {0: "next"}
    assert second.turns == ["E5L"]


def test_a_game_on_one_long_line_without_a_line_break() -> None:
    rng = random.Random(11)
    pos = Position.standard()
    while pos.outcome() is None:
        pos.push(pos.random_turn(rng))
    text = write_game(GameRecord.from_position(pos), columns=10**9).splitlines()[-1]
    assert "\n" not in text and text.endswith(pos.result())
    [game] = read_games(text)
    assert game.errors == [] and game.turns == [str(t) for t in pos.turn_stack]

"""Adaptoid rules engine: boards, positions, turns, records (see docs/engine-api.md).

>>> from engine import Position
>>> pos = Position.standard()
>>> pos.legal_turns.count()
8
>>> pos.push_text("D2P")
Turn.parse('D2P')
>>> str(pos), pos.result()
('D2W01,D6B00 b 0-0', '*')
"""

from engine.board import STANDARD_BOARD, Board
from engine.errors import (
    IllegalTurnError,
    InvalidBoardError,
    InvalidPositionError,
    InvalidTurnError,
)
from engine.position import (
    STANDARD_START,
    Color,
    LegalTurns,
    Outcome,
    Piece,
    Position,
    Termination,
)
from engine.record import GameRecord, RecordError, read_games, write_game, write_games
from engine.turn import Turn

__all__ = [
    "STANDARD_BOARD",
    "STANDARD_START",
    "Board",
    "Color",
    "GameRecord",
    "IllegalTurnError",
    "InvalidBoardError",
    "InvalidPositionError",
    "InvalidTurnError",
    "LegalTurns",
    "Outcome",
    "Piece",
    "Position",
    "RecordError",
    "Termination",
    "Turn",
    "read_games",
    "write_game",
    "write_games",
]

__version__ = "0.1.0"

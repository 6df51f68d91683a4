"""A deliberately naive reference implementation of the rules, for testing only.

Written straight from RULES.md with dicts and sets, sharing no code with the
engine (it even parses position strings itself). It is slow and obviously
correct; the tests compare the engine against it (the legality oracle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STANDARD_BOARD = "A1-4,B1-5,C1-6,D1-7,E2-7,F3-7,G4-7"

Cell = tuple[int, int]


def name(cell: Cell) -> str:
    return f"{COLUMNS[cell[0]]}{cell[1] + 1}"


def parse_cell(text: str) -> Cell:
    return COLUMNS.index(text[0].upper()), int(text[1:]) - 1


def parse_board(text: str) -> frozenset[Cell]:
    cells = set()
    for item in text.split(","):
        column = COLUMNS.index(item[0].upper())
        rows = item[1:].split("-")
        first, last = int(rows[0]), int(rows[-1])
        for row in range(first, last + 1):
            cells.add((column, row - 1))
    return frozenset(cells)


def board_text(cells: frozenset[Cell]) -> str:
    parts = []
    for column in sorted({c for c, _ in cells}):
        rows = sorted(r for c, r in cells if c == column)
        run = [rows[0]]
        for r in rows[1:] + [None]:
            if r is not None and r == run[-1] + 1:
                run.append(r)
                continue
            letter = COLUMNS[column]
            if len(run) == 1:
                parts.append(f"{letter}{run[0] + 1}")
            else:
                parts.append(f"{letter}{run[0] + 1}-{run[-1] + 1}")
            if r is not None:
                run = [r]
    return ",".join(parts)


@dataclass
class Adaptoid:
    color: str  # "W" or "B"
    legs: int
    pincers: int


@dataclass
class State:
    cells: frozenset[Cell]
    pieces: dict[Cell, Adaptoid] = field(default_factory=dict)
    side: str = "W"
    score: dict[str, int] = field(default_factory=lambda: {"W": 0, "B": 0})

    def copy(self) -> State:
        return State(
            self.cells,
            {c: Adaptoid(a.color, a.legs, a.pincers) for c, a in self.pieces.items()},
            self.side,
            dict(self.score),
        )


def other(color: str) -> str:
    return "B" if color == "W" else "W"


def parse(text: str) -> State:
    fields = text.split()
    cells = parse_board(fields[3] if len(fields) == 4 else STANDARD_BOARD)
    state = State(cells)
    if fields[0] != "-":
        for item in fields[0].split(","):
            cell = parse_cell(item[:-3])
            state.pieces[cell] = Adaptoid(item[-3].upper(), int(item[-2]), int(item[-1]))
    state.side = fields[1].upper()
    white, black = fields[2].split("-")
    state.score = {"W": int(white), "B": int(black)}
    return state


def to_string(state: State) -> str:
    items = [f"{name(c)}{a.color}{a.legs}{a.pincers}" for c, a in sorted(state.pieces.items())]
    text = f"{','.join(items) or '-'} {state.side.lower()} {state.score['W']}-{state.score['B']}"
    if state.cells != parse_board(STANDARD_BOARD):
        text += " " + board_text(state.cells)
    return text


def neighbours(state: State, cell: Cell) -> list[Cell]:
    c, r = cell
    candidates = [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1), (c + 1, r + 1), (c - 1, r - 1)]
    return [n for n in candidates if n in state.cells]


def someone_won(state: State) -> bool:
    colors = {a.color for a in state.pieces.values()}
    return state.score["W"] >= 5 or state.score["B"] >= 5 or "W" not in colors or "B" not in colors


def move_targets(state: State, start: Cell) -> tuple[set[Cell], set[Cell]]:
    """Empty cells and attackable enemies reachable by the adaptoid on ``start``."""
    mover = state.pieces[start]
    empty_targets: set[Cell] = set()
    enemies: set[Cell] = set()
    frontier = {start}
    visited = {start}
    for _step in range(mover.legs):
        next_frontier = set()
        for cell in frontier:
            for n in neighbours(state, cell):
                if n not in state.pieces:
                    if n not in visited:
                        visited.add(n)
                        next_frontier.add(n)
                        empty_targets.add(n)
                elif state.pieces[n].color != mover.color:
                    enemies.add(n)
        frontier = next_frontier
    attackable = {
        e for e in enemies if mover.pincers >= 1 and mover.pincers >= state.pieces[e].pincers
    }
    return empty_targets, attackable


def apply_move(state: State, start: Cell, end: Cell) -> State:
    new = state.copy()
    mover = new.pieces.pop(start)
    if end in new.pieces:  # attack
        enemy = new.pieces.pop(end)
        new.score[mover.color] += 1
        if mover.pincers > enemy.pincers:
            new.pieces[end] = mover
        else:  # equal: both removed, both score
            new.score[enemy.color] += 1
    else:
        new.pieces[end] = mover
    return new


def actions(state: State, color: str) -> list[tuple[str, Cell]]:
    own = [c for c, a in state.pieces.items() if a.color == color]
    legs = sum(state.pieces[c].legs for c in own)
    pincers = sum(state.pieces[c].pincers for c in own)
    result: list[tuple[str, Cell]] = []
    if len(own) < 12:
        for cell in state.cells:
            if cell not in state.pieces and any(n in own for n in neighbours(state, cell)):
                result.append(("create", cell))
    for c in own:
        a = state.pieces[c]
        if a.legs + a.pincers < 6:
            if legs < 12:
                result.append(("leg", c))
            if pincers < 12:
                result.append(("pincer", c))
    return result


def apply_action(state: State, color: str, action: tuple[str, Cell]) -> State:
    new = state.copy()
    kind, cell = action
    if kind == "create":
        new.pieces[cell] = Adaptoid(color, 0, 0)
    elif kind == "leg":
        new.pieces[cell].legs += 1
    else:
        new.pieces[cell].pincers += 1
    return new


def starve(state: State, color: str) -> State:
    new = state.copy()
    doomed = []
    for cell, a in state.pieces.items():
        if a.color == color:
            continue
        empty = sum(1 for n in neighbours(state, cell) if n not in state.pieces)
        if empty < a.legs + a.pincers:
            doomed.append(cell)
    for cell in doomed:
        del new.pieces[cell]
        new.score[color] += 1
    return new


def legal_turns(state: State) -> dict[str, State]:
    """Every legal turn (canonical text) and the position it leads to."""
    if someone_won(state):
        return {}
    color = state.side
    options: list[tuple[str | None, State]] = [(None, state)]
    for cell, a in sorted(state.pieces.items()):
        if a.color != color or a.legs == 0:
            continue
        empty_targets, attackable = move_targets(state, cell)
        for end in sorted(empty_targets):
            options.append((f"{name(cell)}-{name(end)}", apply_move(state, cell, end)))
        for end in sorted(attackable):
            options.append((f"{name(cell)}x{name(end)}", apply_move(state, cell, end)))
    result: dict[str, State] = {}
    for move, after_move in options:
        if move is not None and someone_won(after_move):
            final = after_move.copy()
            final.side = other(color)
            result[move] = final
            continue
        available = actions(after_move, color)
        if not available:
            final = starve(after_move, color)
            final.side = other(color)
            result[move or "pass"] = final
            continue
        for action in available:
            kind, cell = action
            text = name(cell) + {"create": "", "leg": "L", "pincer": "P"}[kind]
            final = starve(apply_action(after_move, color, action), color)
            final.side = other(color)
            result[f"{move},{text}" if move else text] = final
    return result


def perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    turns = legal_turns(state)
    if depth == 1:
        return len(turns)
    return sum(perft(s, depth - 1) for s in turns.values())

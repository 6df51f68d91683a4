"""Conditional turns: the waiting player's answers, prepared in advance.

While the opponent thinks, the player who has just moved may leave *lines*: each one
alternates an opponent turn and the reply to play to it (``[t1, r1, t2, r2, …]``).
Lines that begin alike are merged into one tree; two different replies to the same
opponent turn (after the same beginning) are a conflict.  When the opponent's turn
begins a line, ``play_turn`` asks ``take_reply`` for the reply and plays it at once,
as that player, in the same transaction; the tree is cut to what follows.  Any other
opponent turn deletes the lines.

A line must end on a reply (an even number of turns, at least two): a line ending on
an opponent turn would prepare nothing.  Every turn is checked by the engine from the
game's current position when the lines are set, so a reply cannot be illegal when it
is played; ``take_reply`` checks again all the same and drops the lines if it is.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from engine import IllegalTurnError, InvalidTurnError, Position
from engine import Turn as EngineTurn
from games import errors, services
from games.engine_messages import translate_reason
from games.models import ConditionalLines, Game
from games.models import Turn as TurnRow

logger = logging.getLogger(__name__)

MAX_LINES = 64
MAX_LINE_TURNS = 40


class Branch(TypedDict):
    reply: str
    next: dict[str, Branch]


Tree = dict[str, Branch]


@dataclass(frozen=True)
class Lines:
    """A player's conditional lines for the opponent's turn number `ply`."""

    ply: int
    lines: list[list[str]]


@dataclass(frozen=True)
class Reply:
    """The turn take_reply found: `player` plays `text` now."""

    player: User
    text: str


def flatten(tree: Tree) -> list[list[str]]:
    """Every root-to-leaf path of the tree, as lines (insertion order).

    >>> flatten({"D2P": {"reply": "D6P", "next": {"D2L": {"reply": "D6L", "next": {}}}},
    ...          "D2L": {"reply": "D6L", "next": {}}})
    [['D2P', 'D6P', 'D2L', 'D6L'], ['D2L', 'D6L']]
    """
    lines: list[list[str]] = []
    for opponent_turn, branch in tree.items():
        head = [opponent_turn, branch["reply"]]
        tails = flatten(branch["next"])
        lines.extend([head + tail for tail in tails] if tails else [head])
    return lines


# --- Setting, reading, deleting ---------------------------------------------------------


def _parse_lines(lines: list[list[str]]) -> list[list[EngineTurn]]:
    """Shape and notation of every line, before any state is looked at (like play_turn:
    a malformed request is a 400 whatever the game)."""
    if len(lines) > MAX_LINES:
        message = _("At most %(n)d lines.") % {"n": MAX_LINES}
        raise errors.InvalidInput(message, fields={"lines": [message]})
    parsed = []
    for i, line in enumerate(lines):
        if len(line) < 2 or len(line) % 2 or len(line) > MAX_LINE_TURNS:
            message = _(
                "lines[%(line)d]: a line alternates the opponent's turn and your reply and "
                "ends on a reply: an even number of turns, 2 to %(max)d."
            ) % {"line": i, "max": MAX_LINE_TURNS}
            raise errors.InvalidInput(message, fields={"lines": {str(i): [message]}}, line=i)
        turns = []
        for j, text in enumerate(line):
            try:
                turns.append(EngineTurn.parse(text))
            except InvalidTurnError as exc:
                raise errors.InvalidLineTurn(
                    _("lines[%(line)d][%(index)d] %(turn)s: %(reason)s")
                    % {"line": i, "index": j, "turn": text, "reason": translate_reason(exc.reason)},
                    line=i,
                    index=j,
                    turn=text,
                    reason=exc.reason,
                ) from None
        parsed.append(turns)
    return parsed


def _illegal(i: int, j: int, text: str, reason: str) -> errors.IllegalLineTurn:
    return errors.IllegalLineTurn(
        _("lines[%(line)d][%(index)d] %(turn)s is not legal there: %(reason)s")
        % {"line": i, "index": j, "turn": text, "reason": translate_reason(reason)},
        line=i,
        index=j,
        turn=text,
        reason=reason,
    )


def build_tree(position: Position, lines: list[list[EngineTurn]]) -> Tree:
    """Check every line with the engine from `position` and merge them into a tree."""
    tree: Tree = {}
    # Which line first set each branch, by the beginning leading to it (for conflicts).
    origin: dict[tuple[str, ...], int] = {}
    for i, line in enumerate(lines):
        board = position.copy()
        texts: list[str] = []
        for j, turn in enumerate(line):
            if board.outcome() is not None:
                raise _illegal(i, j, str(turn), "the game is over before this turn")
            try:
                checked = board.parse_turn(str(turn))
            except IllegalTurnError as exc:
                raise _illegal(i, j, str(turn), exc.reason) from None
            board.push(checked)
            texts.append(str(checked))
        node = tree
        for k in range(0, len(texts), 2):
            opponent_turn, reply = texts[k], texts[k + 1]
            branch = node.get(opponent_turn)
            if branch is None:
                branch = node[opponent_turn] = {"reply": reply, "next": {}}
                origin[tuple(texts[: k + 1])] = i
            elif branch["reply"] != reply:
                other = origin[tuple(texts[: k + 1])]
                raise errors.ConditionalConflict(
                    _(
                        "lines[%(line)d][%(index)d] answers %(turn)s with %(reply)s, "
                        "lines[%(other)d] with %(other_reply)s: one reply per turn."
                    )
                    % {
                        "line": i,
                        "index": k + 1,
                        "turn": opponent_turn,
                        "reply": reply,
                        "other": other,
                        "other_reply": branch["reply"],
                    },
                    line=i,
                    index=k + 1,
                    turn=reply,
                    conflicts_with=other,
                )
            node = branch["next"]
    return tree


def set_lines(*, game: Game, player: User, ply: int, lines: list[list[str]]) -> Lines:
    """Replace `player`'s conditional lines in `game` (no lines: delete them).

    `ply` must be the opponent's next turn (the game's ply + 1) and `player` the one
    waiting for it.  Raises InvalidInput / InvalidLineTurn (400), NotAPlayer /
    NotWaiting (403), GameOver / WrongPhase / StalePly (409), IllegalLineTurn /
    ConditionalConflict (422).  Returns the merged tree as lines, canonical.
    """
    parsed = _parse_lines(lines)
    with transaction.atomic():
        # The turn path holds this lock too: lines are set before a turn or after it.
        game = services.locked_game(game)
        color = game.color_of(player.pk)
        if color is None:
            raise errors.NotAPlayer()
        if game.status == Game.Status.FINISHED:
            raise errors.GameOver()
        if game.status == Game.Status.SETUP:
            raise errors.WrongPhase(_("The pie setup is not finished yet."))
        if ply != game.ply + 1:
            raise errors.StalePly(
                _("The opponent's next turn is %(expected)d, not %(ply)d.")
                % {"ply": ply, "expected": game.ply + 1},
                expected_ply=game.ply + 1,
            )
        if game.to_move == color:
            raise errors.NotWaiting()
        position = services.replay(game, getattr(game, "stored_turn_texts", None))
        tree = build_tree(position, parsed)
        if not tree:
            ConditionalLines.objects.filter(game=game, author=player).delete()
        else:
            ConditionalLines.objects.update_or_create(
                game=game, author=player, defaults={"ply": ply, "tree": tree}
            )
            if not game.has_conditional_lines:  # play_turn looks for lines only then
                Game.objects.filter(pk=game.pk).update(has_conditional_lines=True)
    return Lines(ply=ply, lines=flatten(tree))


def _live_row(game: Game, player: User) -> ConditionalLines | None:
    if not player.is_authenticated or game.status != Game.Status.ACTIVE:
        return None
    return ConditionalLines.objects.filter(game=game, author=player, ply=game.ply + 1).first()


def lines_of(*, game: Game, player: User) -> Lines | None:
    """`player`'s live lines in `game` (for the next turn of an active game), or None."""
    row = _live_row(game, player)
    if row is None:
        return None
    return Lines(ply=row.ply, lines=flatten(row.tree))


@dataclass(frozen=True)
class Node:
    """One opponent turn of a tree and the reply to it, numbered, for the pages."""

    ply: int
    opponent_turn: str
    reply: str
    children: list[Node]


def tree_of(*, game: Game, player: User) -> list[Node]:
    """`player`'s live lines in `game` as a tree of numbered nodes (none: empty)."""
    row = _live_row(game, player)

    def nodes(tree: Tree, ply: int) -> list[Node]:
        return [
            Node(ply, turn, branch["reply"], nodes(branch["next"], ply + 2))
            for turn, branch in tree.items()
        ]

    return nodes(row.tree, row.ply) if row is not None else []


def delete_lines(*, game: Game, player: User) -> None:
    """Remove `player`'s lines in `game` (none: nothing to do)."""
    with transaction.atomic():
        game = services.locked_game(game)  # not in the middle of a turn that plays them
        if game.color_of(player.pk) is None:
            raise errors.NotAPlayer()
        ConditionalLines.objects.filter(game=game, author=player).delete()


# --- Playing them (called by services.play_turn) -----------------------------------------


def take_reply(*, game: Game, turn: TurnRow, position: Position) -> Reply | None:
    """After `turn` was stored (game and position updated, under the row lock): the
    reply prepared for it, or None.

    The lines answering this turn are cut to what follows the reply; every other line
    of the game is deleted (a different turn was played, or they are stale).  The
    reply is played only in an active game where its author must act now.
    """
    if not game.has_conditional_lines:  # the usual case: no query at all
        return None
    rows = list(ConditionalLines.objects.filter(game=game))
    active = game.status == Game.Status.ACTIVE
    author_id = game.who_must_act() if active else None
    # Lines for a later turn (just cut, after a reply) wait for it; the rest are used
    # now or stale, and go unless they answer this very turn.  A finished game: all go.
    waiting = [row for row in rows if row.ply > turn.ply] if active else []
    live = next((row for row in rows if row.author_id == author_id and row.ply == turn.ply), None)
    stale = [row.pk for row in rows if row is not live and row not in waiting]
    if stale:
        ConditionalLines.objects.filter(pk__in=stale).delete()
    reply = _reply_from(game=game, live=live, turn=turn, position=position)
    if not waiting and (live is None or live.pk is None):
        # Nothing left in this game: the next turns need not look.
        Game.objects.filter(pk=game.pk).update(has_conditional_lines=False)
        game.has_conditional_lines = False
    return reply


def _reply_from(
    *, game: Game, live: ConditionalLines | None, turn: TurnRow, position: Position
) -> Reply | None:
    """The reply of the `live` lines to `turn`; they are cut to what follows it, or
    deleted (no reply for this turn, a refused reply, or nothing follows)."""
    if live is None:
        return None
    author_id = live.author_id
    branch: Branch | None = live.tree.get(turn.text)
    if branch is None:
        live.delete()
        return None
    reply = branch["reply"]
    try:
        position.copy().parse_turn(reply)
    except (InvalidTurnError, IllegalTurnError) as exc:
        # Checked from this very position when the lines were set: never expected.
        logger.error(
            "conditional reply %r of user %s in game %s refused, lines dropped: %s",
            reply,
            author_id,
            game.pk,
            exc,
        )
        live.delete()
        return None
    if branch["next"]:
        live.tree = branch["next"]
        live.ply = turn.ply + 2  # the opponent's turn after this reply
        live.save(update_fields=["tree", "ply", "updated"])
    else:
        live.delete()
    author = game.white if author_id == game.white_id else game.black
    return Reply(player=author, text=reply)


def drop_lines(*, game: Game, author_id: Any) -> None:
    """The reply could not be played after all: its author's lines go too."""
    ConditionalLines.objects.filter(game=game, author_id=author_id).delete()

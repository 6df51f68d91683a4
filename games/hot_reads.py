"""The locked game of every turn, as one named SQL statement (PostgreSQL).

``services.locked_game`` through the ORM compiles a five-table ``select_related`` with
an ``ArraySubquery`` on every call: about a quarter of a turn's CPU went into building
that SQL (docs/load.md).  Here it is written once, its column lists taken from the
models (``core.rows``), so a field added to a model is read without touching this file.
Other databases keep the queryset (``services.locked_game``); ``games/tests/
test_hot_reads.py`` checks both give the same instances.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import Profile
from core.rows import RowReader, column
from games.models import Game
from games.models import Turn as TurnRow


class _LockedGameRead:
    def __init__(self) -> None:
        user_model = get_user_model()
        self.game = RowReader(Game, "g")
        self.white = RowReader(user_model, "w")
        self.white_profile = RowReader(Profile, "wp")
        self.black = RowReader(user_model, "b")
        self.black_profile = RowReader(Profile, "bp")
        users, profiles = user_model._meta.db_table, Profile._meta.db_table
        profile_user = Profile._meta.get_field("user").column
        turn = {name: column(TurnRow, name) for name in ("game", "ply", "text")}
        readers = (self.game, self.white, self.white_profile, self.black, self.black_profile)
        # Only the game row is locked (FOR UPDATE OF g): other games of the same players
        # must not wait, as with select_for_update(of=("self",)).
        self.sql = (
            f"SELECT {', '.join(reader.columns() for reader in readers)}, "
            f'ARRAY(SELECT t."{turn["text"]}" FROM "{TurnRow._meta.db_table}" t '
            f'WHERE t."{turn["game"]}" = g."id" ORDER BY t."{turn["ply"]}") '
            f'FROM "{Game._meta.db_table}" g '
            f'JOIN "{users}" w ON w."id" = g."{Game._meta.get_field("white").column}" '
            f'LEFT JOIN "{profiles}" wp ON wp."{profile_user}" = w."id" '
            f'JOIN "{users}" b ON b."id" = g."{Game._meta.get_field("black").column}" '
            f'LEFT JOIN "{profiles}" bp ON bp."{profile_user}" = b."id" '
            'WHERE g."id" = %s FOR UPDATE OF g'
        )

    def __call__(self, game_id: int) -> Game:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [game_id])
            row = cursor.fetchone()
        if row is None:
            raise Game.DoesNotExist(f"No game {game_id}.")
        game = self.game.load(row)
        at = self.game.width
        for color, user_reader, profile_reader in (
            ("white", self.white, self.white_profile),
            ("black", self.black, self.black_profile),
        ):
            user = user_reader.load(row, at)
            at += user_reader.width
            if row[at] is not None:  # the profile's id: a user without one is left lazy
                user.profile = profile_reader.load(row, at)
            at += profile_reader.width
            setattr(game, color, user)
        game.stored_turn_texts = list(row[at])
        return game


@cache
def _statement() -> _LockedGameRead:
    return _LockedGameRead()  # built at first use: the models' apps must be ready


def locked_game(game_id: int) -> Game:
    """The game row locked for the transaction, with both players, their profiles and
    the texts of its stored turns (``stored_turn_texts``) — one round trip."""
    return _statement()(game_id)

"""The named SQL reads of every API turn (games.hot_reads, accounts.hot_reads, through
core.rows) load the same instances as the querysets they replace on PostgreSQL, lock
only the game row, and follow the models: a field added to a model is read too."""

from __future__ import annotations

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Model

from accounts import hot_reads as account_reads
from accounts import services as account_services
from accounts.models import ApiToken, Profile
from core.rows import RowReader
from games import hot_reads, services
from games.models import Game
from games.models import Turn as TurnRow


@pytest.fixture
def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the named statements are PostgreSQL's (CI); SQLite uses the querysets")


def _columns(instance: Model) -> dict[str, object]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


@pytest.mark.parametrize("model", [Game, get_user_model(), Profile, ApiToken, TurnRow])
def test_a_row_reader_takes_every_column_in_the_order_the_model_is_built_with(model) -> None:
    # Model.from_db takes a full row positionally: the order must be concrete_fields'.
    reader = RowReader(model, "x")
    assert reader.attnames == [field.attname for field in model._meta.concrete_fields]


@pytest.mark.django_db
def test_the_locked_game_read_loads_what_the_queryset_loads(on_postgresql, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    game, _ = services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    game, _ = services.play_turn(game=game, player=bob.user, text="D6L", ply=2)
    with transaction.atomic():
        read = hot_reads.locked_game(game.pk)
    expected = Game.objects.select_related("white__profile", "black__profile").get(pk=game.pk)
    assert _columns(read) == _columns(expected)
    assert read.stored_turn_texts == ["D2L", "D6L"]
    with _no_queries():  # players and profiles came with the game
        for color in ("white", "black"):
            assert _columns(getattr(read, color)) == _columns(getattr(expected, color))
            assert _columns(getattr(read, color).profile) == _columns(
                getattr(expected, color).profile
            )
            assert getattr(read, color).profile.user is getattr(read, color)
    # A real instance: it saves as the ORM's would.
    with transaction.atomic():
        read = hot_reads.locked_game(game.pk)
        read.position = expected.position
        read.save(update_fields=["position"])


class _no_queries:
    def __enter__(self) -> None:
        from django.test.utils import CaptureQueriesContext

        self.capture = CaptureQueriesContext(connection)
        self.capture.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.capture.__exit__(*exc)
        assert len(self.capture) == 0, [query["sql"] for query in self.capture]


@pytest.mark.django_db
def test_a_game_that_does_not_exist_is_does_not_exist(on_postgresql) -> None:
    with transaction.atomic(), pytest.raises(Game.DoesNotExist):
        hot_reads.locked_game(987654321)


def _other_connection() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    params.pop("server_side_binding", None)
    return psycopg.connect(**params, autocommit=True)


@pytest.mark.django_db(transaction=True)
def test_only_the_game_row_is_locked(on_postgresql, alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    users = get_user_model()._meta.db_table
    with transaction.atomic():
        hot_reads.locked_game(game.pk)
        with _other_connection() as other:
            other.execute("SET lock_timeout = '200ms'")
            # The players and their profiles stay free (their other games go on)...
            other.execute(f'SELECT 1 FROM "{users}" WHERE id = %s FOR UPDATE', [alice.user.pk])
            other.execute(
                f'SELECT 1 FROM "{Profile._meta.db_table}" WHERE user_id = %s FOR UPDATE',
                [bob.user.pk],
            )
            # ...the game row waits for this transaction.
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(
                    f'SELECT 1 FROM "{Game._meta.db_table}" WHERE id = %s FOR UPDATE', [game.pk]
                )


@pytest.mark.django_db
def test_the_token_read_finds_the_token_the_queryset_finds(on_postgresql, alice) -> None:
    prefix = alice.token.partition(".")[0]
    read = account_reads.live_token(prefix)
    expected = ApiToken.objects.select_related("user").get(prefix=prefix)
    assert read is not None
    assert _columns(read) == _columns(expected)
    assert _columns(read.user) == _columns(expected.user)
    assert account_services.user_for_token(alice.token) == alice.user
    account_services.revoke_token(token=expected)
    assert account_reads.live_token(prefix) is None
    assert account_services.user_for_token(alice.token) is None

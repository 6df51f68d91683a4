"""The named SQL writes of every turn (games.hot_writes, stream.events, notifications
through core.rows) write the rows the ORM would, and fail here when a model gains what a
raw statement would skip (a save() override, save signals' receivers, database-computed
fields)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.db.models.signals import post_save
from django.utils import timezone

from core.rows import RowWriter, unsupported
from games import hot_writes, services
from games.models import Game
from games.models import Turn as TurnRow
from notifications.models import Kind, Notification
from notifications.services import mark_game_read, notify
from stream import events
from stream.models import Event


def _columns(instance: Model) -> dict[str, object]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


@pytest.mark.parametrize("model", [TurnRow, Game, Event, Notification])
def test_the_models_written_by_named_statements_need_nothing_only_save_does(model) -> None:
    assert unsupported(model) == []


def test_unsupported_names_a_save_receiver(db) -> None:
    def receiver(**kwargs: object) -> None:
        pass

    post_save.connect(receiver, sender=TurnRow)
    try:
        assert unsupported(TurnRow) == ["Turn has post_save receivers"]
    finally:
        post_save.disconnect(receiver, sender=TurnRow)


def test_a_row_writer_inserts_every_column_but_the_key() -> None:
    writer = RowWriter(TurnRow)
    assert [field.attname for field in writer.insert_fields] == [
        field.attname for field in TurnRow._meta.concrete_fields if not field.primary_key
    ]
    assert writer.insert_sql(2).count("(%s, %s, %s, %s, %s, %s)") == 2


@pytest.mark.django_db
def test_a_played_turn_is_stored_as_the_orm_stores_it(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    before = timezone.now()
    game, _ = services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    game, _ = services.play_turn(game=game, player=bob.user, text="D6L", ply=2)
    rows = list(TurnRow.objects.filter(game=game).order_by("ply"))
    assert [(row.ply, row.text, row.player_id, row.automatic) for row in rows] == [
        (1, "D2L", alice.user.pk, False),
        (2, "D6L", bob.user.pk, False),
    ]
    assert all(row.created >= before for row in rows)  # auto_now_add filled
    stored = Game.objects.get(pk=game.pk)
    assert _columns(stored) == _columns(game)  # every changed column, "updated" included
    assert stored.updated >= before and stored.ply == 2 and stored.to_move == "white"


@pytest.mark.django_db
def test_the_turn_statement_keeps_the_unique_ply_and_the_game_unchanged(alice, bob) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement write is PostgreSQL's (CI); SQLite saves twice")
    game = services.start_game(white=alice.user, black=bob.user)
    game, _ = services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    again = TurnRow(game=game, ply=1, text="D2R", player=alice.user)
    game.position = "changed"
    with pytest.raises(IntegrityError), transaction.atomic():
        hot_writes.record_turn(again, game, ("position",))
    # Both writes of the statement or neither: the game row is as it was.
    assert Game.objects.get(pk=game.pk).position != "changed"
    assert TurnRow.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_stream_events_are_stored_as_bulk_create_stores_them(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    Event.objects.all().delete()
    before = timezone.now()
    events.record_game(game, Event.Type.TURN, {"turn": {"ply": 1, "text": "D2L"}})
    rows = list(Event.objects.order_by("id"))
    assert [row.user_id for row in rows] == sorted([alice.user.pk, bob.user.pk])
    for row in rows:
        assert row.type == Event.Type.TURN
        assert row.created >= before
        assert row.payload["turn"] == {"ply": 1, "text": "D2L"}
        assert row.payload["game"]["id"] == game.pk
        assert row.payload["game"]["color"] == game.color_of(row.user_id)


@pytest.mark.django_db
def test_marking_a_game_read_changes_the_rows_the_queryset_would(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    other = services.start_game(white=alice.user, black=bob.user)
    Notification.objects.all().delete()
    earlier = timezone.now() - dt.timedelta(days=1)
    unread = notify(user=alice.user, kind=Kind.YOUR_TURN, game=game)
    seen = notify(user=alice.user, kind=Kind.YOUR_TURN, game=game)
    Notification.objects.filter(pk=seen.pk).update(read=earlier)
    elsewhere = notify(user=alice.user, kind=Kind.YOUR_TURN, game=other)
    not_hers = notify(user=bob.user, kind=Kind.YOUR_TURN, game=game)
    assert mark_game_read(user=alice.user, game=game) == 1
    read = dict(Notification.objects.values_list("pk", "read"))
    assert read[unread.pk] is not None and read[unread.pk] > earlier
    assert read[seen.pk] == earlier  # already read: left as it was
    assert read[elsewhere.pk] is None and read[not_hers.pk] is None
    assert mark_game_read(user=alice.user, game=game) == 0


@pytest.mark.django_db
def test_a_notification_is_stored_as_save_stores_it(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    row = notify(user=alice.user, kind=Kind.YOUR_TURN, game=game, params={"opponent": "bob"})
    stored = Notification.objects.get(pk=row.pk)
    assert _columns(stored) == _columns(row)
    assert stored.params == {"opponent": "bob", "game": game.pk}
    assert stored.url == f"/games/{game.pk}/"
    # The unique (user, dedupe_key) still holds, without spoiling the transaction.
    with transaction.atomic():
        assert notify(user=alice.user, kind=Kind.YOUR_TURN, game=game, dedupe_key="k")
        assert notify(user=alice.user, kind=Kind.YOUR_TURN, game=game, dedupe_key="k") is None
        assert Notification.objects.filter(dedupe_key="k").count() == 1


@pytest.mark.django_db
def test_a_turn_reads_the_movers_notices_and_tells_the_opponent(alice, bob) -> None:
    game = services.start_game(white=alice.user, black=bob.user)
    told_alice = Notification.objects.get(user=alice.user, game=game, read__isnull=True)
    game, _ = services.play_turn(game=game, player=alice.user, text="D2L", ply=1)
    told_alice.refresh_from_db()
    assert told_alice.read is not None  # she played: what she was told is read
    (told_bob,) = Notification.objects.filter(user=bob.user, game=game, read__isnull=True)
    assert told_bob.kind == Kind.YOUR_TURN and told_bob.params["opponent"]
    game, _ = services.play_turn(game=game, player=bob.user, text="D6L", ply=2)
    told_bob.refresh_from_db()
    assert told_bob.read is not None
    # Alice's new "your turn" is the only unread one: the statement that marks Bob's
    # notices read never marks the row it inserts.
    unread = Notification.objects.filter(game=game, read__isnull=True)
    assert [(row.user_id, row.kind) for row in unread] == [(alice.user.pk, Kind.YOUR_TURN)]
    assert mark_game_read(user=alice.user, game=game) == 1

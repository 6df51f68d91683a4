"""games.compiled.atomic_batch: batchable writes sent as one statement, and nothing else
changes — reads, savepoints, errors and signals behave as if each write had been sent
at once."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models.signals import post_save
from django.test.utils import CaptureQueriesContext

from games import services
from games.compiled import CompiledInsert, CompiledUpdate, atomic_batch
from games.models import Game, Turn
from stream.models import Event

pytestmark = pytest.mark.django_db

ON_POSTGRESQL = connection.vendor == "postgresql"
INSERT_EVENTS = CompiledInsert(Event, batchable=True)
INSERT_TURN = CompiledInsert(Turn, batchable=True)
SAVE_POSITION = CompiledUpdate(Game, ["position", "updated"], batchable=True)
SAVE_PLY = CompiledUpdate(Game, ["ply", "updated"], batchable=True)


def _game() -> Game:
    white = services.register_account(username="wb-white", password="pass-word-4711")
    black = services.register_account(username="wb-black", password="pass-word-4711")
    return services.start_game(white=white, black=black, rated=False)


def _events(game: Game, count: int = 2) -> list[Event]:
    return [
        Event(user_id=game.white_id, type=Event.Type.TURN, payload={"n": n}) for n in range(count)
    ]


def _writes(captured: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith(("INSERT", "UPDATE", "WITH"))
    ]


def test_the_writes_go_in_one_statement_with_their_keys_and_values() -> None:
    game = _game()
    events = _events(game)
    turn = Turn(game=game, ply=1, text="D2L", player=game.white)
    game.position = "A1W00 w 0-0"
    with CaptureQueriesContext(connection) as captured, atomic_batch():
        INSERT_TURN.insert([turn])
        SAVE_POSITION.update(game)
        INSERT_EVENTS.insert(events)
        assert turn.pk is None or not ON_POSTGRESQL  # held back until the block ends
    writes = _writes(captured)
    if ON_POSTGRESQL:
        assert len(writes) == 1 and writes[0].startswith("WITH"), writes
    assert turn.pk is not None and not turn._state.adding
    assert [event.pk for event in events] == sorted(event.pk for event in events)
    assert Turn.objects.get(pk=turn.pk).text == "D2L"
    assert Game.objects.get(pk=game.pk).position == "A1W00 w 0-0"
    stored = Event.objects.filter(pk__in=[event.pk for event in events]).order_by("pk")
    assert [event.payload for event in stored] == [{"n": 0}, {"n": 1}]
    assert stored[0].created == events[0].created  # auto_now_add, as save() sets it


def test_a_read_sees_the_writes_held_back() -> None:
    game = _game()
    events = _events(game, 1)
    with atomic_batch():
        INSERT_EVENTS.insert(events)
        assert Event.objects.filter(user_id=game.white_id, payload__n=0).exists()
        assert events[0].pk is not None  # sent before the read


def test_an_update_after_a_write_to_its_table_is_sent_apart() -> None:
    game = _game()
    game.position, game.ply = "A1W00 w 0-0", 7
    with CaptureQueriesContext(connection) as captured, atomic_batch():
        SAVE_POSITION.update(game)
        SAVE_PLY.update(game)  # the same row: one statement must not update it twice
        INSERT_EVENTS.insert(_events(game, 1))
    stored = Game.objects.get(pk=game.pk)
    assert (stored.position, stored.ply) == ("A1W00 w 0-0", 7)
    if ON_POSTGRESQL:
        assert [sql.split()[0] for sql in _writes(captured)] == ["UPDATE", "WITH"]


def test_a_rolled_back_savepoint_undoes_only_its_own_writes() -> None:
    game = _game()
    kept, undone = _events(game, 1), _events(game, 1)
    with atomic_batch():
        INSERT_EVENTS.insert(kept)
        try:
            with transaction.atomic():  # the savepoint sends the waiting write first
                INSERT_EVENTS.insert(undone)
                raise RuntimeError("undo")
        except RuntimeError:
            pass
    assert Event.objects.filter(pk=kept[0].pk).exists()
    assert Event.objects.filter(user_id=game.white_id, type=Event.Type.TURN).count() == 1


def test_an_error_in_the_block_writes_nothing() -> None:
    game = _game()
    with pytest.raises(RuntimeError), atomic_batch():
        INSERT_EVENTS.insert(_events(game))
        raise RuntimeError("no")
    assert not Event.objects.filter(user_id=game.white_id, type=Event.Type.TURN).exists()


def test_a_refused_batch_fails_the_block_even_if_a_caller_swallowed_the_error() -> None:
    game = _game()
    services.play_turn(game=game, player=game.white, text="D2L", ply=1)
    duplicate = Turn(game=game, ply=1, text="D2P", player=game.white)  # (game, ply) is unique
    with pytest.raises(IntegrityError), atomic_batch():
        INSERT_EVENTS.insert(_events(game, 1))
        INSERT_TURN.insert([duplicate])
        try:
            Game.objects.get(pk=game.pk)  # sends the batch, which the database refuses
        except DatabaseError:
            pass  # a caller that gives up on its own query must not commit the batch
    assert list(game.turns.values_list("text", flat=True)) == ["D2L"]
    assert not Event.objects.filter(type=Event.Type.TURN, payload__n=0).exists()


def test_post_save_follows_the_write_with_the_key() -> None:
    game = _game()
    seen: list[tuple[str, object, bool, bool]] = []

    def on_save(sender: type, instance: object, created: bool, **kwargs: object) -> None:
        stored = sender.objects.filter(pk=instance.pk).exists()  # type: ignore[attr-defined]
        seen.append((sender.__name__, instance.pk, created, stored))

    post_save.connect(on_save, sender=Event)
    post_save.connect(on_save, sender=Game)
    try:
        events = _events(game, 1)
        with atomic_batch():
            SAVE_POSITION.update(game)
            INSERT_EVENTS.insert(events)
    finally:
        post_save.disconnect(on_save, sender=Event)
        post_save.disconnect(on_save, sender=Game)
    assert seen == [("Game", game.pk, False, True), ("Event", events[0].pk, True, True)]


def test_a_missing_row_is_refused_in_a_batch_too() -> None:
    game = _game()
    gone = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"), atomic_batch():
        SAVE_POSITION.update(gone)
    with pytest.raises(DatabaseError, match="did not affect any rows"), atomic_batch():
        SAVE_POSITION.update(gone)
        INSERT_EVENTS.insert(_events(gone, 1))
        try:
            Event.objects.exists()  # sends the batch: its update found no row
        except DatabaseError:
            pass  # swallowed here, still the block must not commit the event
    assert not Event.objects.filter(type=Event.Type.TURN).exists()


def test_writes_that_are_not_batchable_go_at_once() -> None:
    game = _game()
    events = _events(game, 1)
    with atomic_batch():
        CompiledInsert(Event).insert(events)
        assert events[0].pk is not None


def test_a_played_turn_is_one_write_statement_and_emails_the_notified_row(
    django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core import mail

    from config.celery import app
    from notifications.models import Notification

    game = _game()
    game.black.email = "black@example.com"
    game.black.save(update_fields=["email"])
    # The email task runs in this process when the commit queues it (its key is read then).
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    with (
        django_capture_on_commit_callbacks(execute=True),
        CaptureQueriesContext(connection) as captured,
    ):
        game, _ = services.play_turn(game=game, player=game.white, text="D2L", ply=1)
    notification = Notification.objects.get(user=game.black, game=game)
    assert notification.email_state == "sent"
    assert [message.to for message in mail.outbox] == [["black@example.com"]]
    if ON_POSTGRESQL:
        # The turn and the game in one statement, sent by the stream events' plain
        # bulk_create (stream app) that follows; the e-mailed player's recent
        # notifications are read next (to batch e-mails); then the notification.
        writes = _writes(captured)
        assert [sql.split()[0] for sql in writes] == ["WITH", "INSERT", "INSERT"], writes
        assert all(table in writes[0] for table in ('"games_turn"', '"games_game"'))
        assert '"games_event"' in writes[1]
        assert '"notifications_notification"' in writes[2]

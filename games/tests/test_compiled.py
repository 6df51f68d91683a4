"""games.compiled.CompiledQuery: the same instances as the ORM, compiled once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction
from django.db.models.signals import post_save
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import services
from games.compiled import CompiledInsert, CompiledQuery, CompiledUpdate, CompiledValues
from games.models import ApiToken, Game, Turn
from stream.models import Event

pytestmark = pytest.mark.django_db


def _game() -> Game:
    white = services.register_account(username="cq-white", password="pass-word-4711")
    black = services.register_account(username="cq-black", password="pass-word-4711")
    return services.start_game(white=white, black=black, rated=False)


def _locked_query() -> CompiledQuery[Game]:
    return CompiledQuery(
        lambda pk: (
            Game.objects.select_for_update(of=("self",))
            .select_related("white__profile", "black__profile")
            .filter(pk=pk)
        ),
        int,
    )


def test_instances_equal_the_orms_with_their_related_objects() -> None:
    game = _game()
    query = _locked_query()
    with transaction.atomic():
        expected = (
            Game.objects.select_related("white__profile", "black__profile").filter(pk=game.pk).get()
        )
        for _ in range(2):  # the first run compiles, the second reuses
            (found,) = query.fetch(game.pk)
            assert found == expected
            assert [getattr(found, f.attname) for f in Game._meta.concrete_fields] == [
                getattr(expected, f.attname) for f in Game._meta.concrete_fields
            ]
            with CaptureQueriesContext(connection) as captured:
                # select_related objects came with the row: no query for them.
                assert found.white.username == "cq-white"
                assert found.black.profile.user_id == expected.black_id
                assert found.white.profile.time_zone == expected.white.profile.time_zone
            assert len(captured) == 0


def test_other_values_other_rows_and_no_row() -> None:
    first, second = _game(), None
    white, black = first.white, first.black
    second = services.start_game(white=black, black=white, rated=False)
    query = _locked_query()
    with transaction.atomic():
        assert [g.white_id for g in query.fetch(first.pk)] == [white.pk]
        assert [g.white_id for g in query.fetch(second.pk)] == [black.pk]
        assert query.fetch(second.pk + 1000) == []


def test_one_query_and_the_sql_is_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    query = _locked_query()
    compiles = []
    original = CompiledQuery._compile

    def counting(self: CompiledQuery[Game], alias: str) -> object:
        compiles.append(alias)
        return original(self, alias)

    monkeypatch.setattr(CompiledQuery, "_compile", counting)
    with transaction.atomic():
        for _ in range(3):
            with CaptureQueriesContext(connection) as captured:
                query.fetch(game.pk)
            assert len(captured) == 1
            if connection.vendor == "postgresql":
                assert "FOR UPDATE OF" in captured[0]["sql"]
    assert compiles == ["default"]


def test_string_arguments_and_constant_parameters() -> None:
    services.register_account(username="cq-token", password="pass-word-4711")
    raw = services.issue_token(username="cq-token", password="pass-word-4711")
    prefix = raw.partition(".")[0]
    query = CompiledQuery(
        lambda prefix: ApiToken.objects.select_related("user").filter(
            prefix=prefix, user__is_active=True
        ),
        str,
    )
    (token,) = query.fetch(prefix)
    assert token.user.username == "cq-token"
    assert query.fetch("nope") == []
    User.objects.filter(username="cq-token").update(is_active=False)
    assert query.fetch(prefix) == []  # the constant True stays a parameter of its own


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_by_django() -> None:
    game = _game()
    query = _locked_query()
    with transaction.atomic():
        query.fetch(game.pk)  # compiled inside a transaction...
    with pytest.raises(TransactionManagementError):
        query.fetch(game.pk)  # ...and still refused outside one


def test_shapes_that_do_not_pass_arguments_unchanged_are_refused() -> None:
    # icontains wraps the value in %…%: it does not reach the SQL unchanged.
    query = CompiledQuery(lambda name: User.objects.filter(username__icontains=name), str)
    with pytest.raises(TypeError, match="unchanged"):
        query.fetch("a")
    values = CompiledQuery(lambda pk: User.objects.filter(pk=pk).values_list("pk"), int)
    with pytest.raises(TypeError, match="model instances"):
        values.fetch(1)
    instances = CompiledValues(lambda pk: User.objects.filter(pk=pk), int)
    with pytest.raises(TypeError, match="flat values_list"):
        instances.fetch(1)
    with pytest.raises(TypeError, match="int or str"):
        CompiledQuery(lambda day: User.objects.filter(date_joined=day), float).fetch(1.0)
    with pytest.raises(TypeError, match="expected 1 values"):
        _locked_query().fetch(1, 2)


def test_values_in_order() -> None:
    game = _game()
    for ply, text in enumerate(["D2L", "D6L", "D2P"], start=1):
        mover = game.white if ply % 2 else game.black
        game, _created = services.play_turn(game=game, player=mover, text=text, ply=ply)
    texts = CompiledValues(
        lambda pk: Turn.objects.filter(game_id=pk).order_by("ply").values_list("text", flat=True),
        int,
    )
    expected = list(game.turns.order_by("ply").values_list("text", flat=True))
    assert texts.fetch(game.pk) == expected == ["D2L", "D6L", "D2P"]
    assert texts.fetch(game.pk + 1000) == []


def test_insert_writes_the_rows_as_save_does(django_capture_on_commit_callbacks) -> None:
    game = _game()
    saved: list[tuple[int, bool]] = []

    def on_save(sender: type, instance: Event, created: bool, **kwargs: object) -> None:
        saved.append((instance.pk, created))

    post_save.connect(on_save, sender=Event)
    try:
        events = [
            Event(user_id=game.white_id, type=Event.Type.TURN, payload={"n": 1, "s": 'a"\\b'}),
            Event(user_id=game.black_id, type=Event.Type.TURN, payload={"n": [2]}),
        ]
        CompiledInsert(Event).insert(events)
    finally:
        post_save.disconnect(on_save, sender=Event)
    assert all(event.pk is not None and not event._state.adding for event in events)
    assert saved == [(events[0].pk, True), (events[1].pk, True)]
    stored = {e.pk: e for e in Event.objects.filter(pk__in=[e.pk for e in events])}
    assert stored[events[0].pk].payload == {"n": 1, "s": 'a"\\b'}
    assert stored[events[1].pk].user_id == game.black_id
    assert stored[events[1].pk].created is not None  # auto_now_add, as save() sets it
    assert events[0].created == stored[events[0].pk].created


def test_update_writes_the_fields_and_refuses_a_missing_row() -> None:
    game = _game()
    before = game.updated
    update = CompiledUpdate(Game, ["position", "ply", "updated"])
    game.position, game.ply = "A1W00 w 0-0", 5
    update.update(game)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.position, stored.ply) == ("A1W00 w 0-0", 5)
    assert stored.updated >= before and stored.updated == game.updated  # auto_now
    gone = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update.update(gone)


def test_skip_conflicts_leaves_out_a_refused_row_and_the_transaction_usable() -> None:
    from notifications.models import Kind, Notification

    game = _game()
    once = CompiledInsert(Notification, skip_conflicts=True)

    def row() -> Notification:
        return Notification(user=game.white, kind=Kind.GAME_OVER, game=game, dedupe_key="k1")

    with transaction.atomic():
        first = once.insert([row()])
        assert len(first) == 1 and first[0].pk is not None
        assert once.insert([row()]) == []  # the unique (user, dedupe_key) refused it
        assert Notification.objects.filter(dedupe_key="k1").count() == 1  # still usable
    with pytest.raises(ValueError, match="one row"):
        once.insert([row(), row()])

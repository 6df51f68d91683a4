"""Built-in bots, external bot accounts and bot matches (services and API, no worker)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from accounts.models import Profile
from bots import services as bots
from bots.models import BotMatch, BotMatchGame
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db
User = get_user_model()


# --- Built-in bot accounts ------------------------------------------------------------


def test_create_bots_makes_one_flagged_account_per_engine_player_and_is_idempotent() -> None:
    call_command("create_bots")
    call_command("create_bots")
    accounts = list(bots.builtin_bot_users())
    assert [user.username for user in accounts] == [bot.username for bot in bots.builtin_bots()]
    assert "random-bot" in [user.username for user in accounts]
    for user in accounts:
        assert user.profile.is_bot and user.profile.bot_engine and user.profile.bot_level >= 1
        assert not user.has_usable_password()


def test_bots_are_listed_by_the_api(api: Any, random_bot: Any) -> None:
    answer = api.get("/api/v1/bots")
    assert answer.status_code == 200
    assert answer.json()[0] == {
        "username": "random-bot", "display_name": "Random bot", "engine": "random",
        "level": 1, "rating": 1500.0,
    }  # fmt: skip


# --- A built-in bot's turn (the task's body, run here in-process) -------------------------


def test_bot_plays_the_next_turn_once_and_ignores_stale_plies(alice: Any, random_bot: Any) -> None:
    game = services.start_game(white=alice.user, black=random_bot)
    assert bots.play_bot_turn(game_id=game.pk, ply=1) == "nothing to do"  # alice to move
    game, _ = services.play_turn(game=game, player=alice.user, text="D2L", ply=1)

    outcome = bots.play_bot_turn(game_id=game.pk, ply=2)

    game.refresh_from_db()
    assert outcome.startswith("played ") and game.ply == 2
    assert game.turns.get(ply=2).player == random_bot
    # A redelivered task for the same ply, or a task for an old ply, plays nothing.
    assert bots.play_bot_turn(game_id=game.pk, ply=2) == "nothing to do"
    game, _ = services.play_turn(game=game, player=alice.user, text="D2L", ply=3)
    assert bots.play_bot_turn(game_id=game.pk, ply=2) == "stale"
    assert bots.play_bot_turn(game_id=game.pk, ply=5) == "stale"
    assert game.turns.count() == 3
    assert bots.play_bot_turn(game_id=999_999, ply=1) == "missing"


def test_bot_does_both_pie_steps(alice: Any, random_bot: Any) -> None:
    # The bot places the adaptoids (it is "white" during the setup)…
    game = services.start_game(white=random_bot, black=alice.user, opening="pie")
    assert bots.play_bot_turn(game_id=game.pk, ply=0) == "placed"
    game.refresh_from_db()
    assert game.start_position == "D2W00,D6B00 w 0-0" and game.status == "setup"
    # …and, in another game, chooses a colour once the human placed them.
    other = services.start_game(white=alice.user, black=random_bot, opening="pie")
    services.setup_pie(game=other, player=alice.user, white="C3", black="E5")
    assert bots.play_bot_turn(game_id=other.pk, ply=0) == "chose white"
    other.refresh_from_db()
    assert other.status == "active" and other.white == random_bot
    assert bots.play_bot_turn(game_id=other.pk, ply=0) == "stale"  # now a turn is due


def test_bot_accepts_a_challenge_addressed_to_it_once(alice: Any, random_bot: Any) -> None:
    challenge = services.create_challenge(creator=alice.user, opponent="random-bot")
    game = bots.accept_bot_challenge(challenge_id=challenge.pk)
    assert game is not None and {game.white, game.black} == {alice.user, random_bot}
    assert bots.accept_bot_challenge(challenge_id=challenge.pk) is None  # redelivered: no-op
    assert Game.objects.count() == 1


def test_challenge_to_a_human_is_not_accepted_by_the_bot_service(
    alice: Any, bob: Any, random_bot: Any
) -> None:
    challenge = services.create_challenge(creator=alice.user, opponent="bob")
    assert bots.accept_bot_challenge(challenge_id=challenge.pk) is None
    challenge.refresh_from_db()
    assert challenge.status == "open"


# --- External bot accounts -----------------------------------------------------------------


def test_a_new_account_becomes_a_bot_for_good(alice: Any) -> None:
    first = alice.client.post("/api/v1/me/bot")
    again = alice.client.post("/api/v1/me/bot")
    assert first.status_code == again.status_code == 200
    assert first.json() == {"username": "alice", "is_bot": True}
    profile = Profile.objects.get(user=alice.user)
    assert profile.is_bot and profile.bot_engine == ""  # external: nobody's tasks play for it
    assert bots.engine_of(alice.user.pk) is None


def test_an_account_that_played_games_cannot_become_a_bot(alice: Any, bob: Any) -> None:
    services.start_game(white=alice.user, black=bob.user)
    answer = alice.client.post("/api/v1/me/bot")
    assert answer.status_code == 409
    assert answer.json()["code"] == "has_played_games"
    assert not Profile.objects.get(user=alice.user).is_bot


def test_becoming_a_bot_needs_a_login(api: Any) -> None:
    assert api.post("/api/v1/me/bot").status_code == 401


# --- Bot matches ----------------------------------------------------------------------------


def _match(player: Any, **overrides: Any) -> Any:
    body = {"white": "random-bot", "black": "random-bot-2", "games": 6, "seconds_per_turn": 0.1}
    return player.client.post("/api/v1/bot-matches", {**body, **overrides}, format="json")


def test_a_bot_match_starts_its_first_games_with_alternating_colours(
    alice: Any, random_bot: Any, second_bot: Any, settings: Any
) -> None:
    settings.BOT_MATCH_PARALLEL_GAMES = 4
    answer = _match(alice)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["status"] == "running" and body["total"] == 6 and body["played"] == 0
    assert body["score"] == "0-0" and body["white"] == "random-bot"
    assert [(g["number"], g["white"], g["black"]) for g in body["game_list"]] == [
        (1, "random-bot", "random-bot-2"),
        (2, "random-bot-2", "random-bot"),
        (3, "random-bot", "random-bot-2"),
        (4, "random-bot-2", "random-bot"),
    ]
    # Games are ordinary, unrated games of the archive.
    assert not Game.objects.filter(rated=True).exists()
    assert alice.client.get(f"/api/v1/bot-matches/{body['id']}").json()["total"] == 6


def test_a_match_stored_as_rated_before_they_became_unrated_starts_unrated_games(
    alice: Any, random_bot: Any, second_bot: Any, settings: Any
) -> None:
    # #14.8: a match made rated by an older version goes on without moving any rating.
    settings.BOT_MATCH_PARALLEL_GAMES = 1
    match = bots.create_bot_match(
        creator=alice.user, white="random-bot", black="random-bot-2", games=2, seconds_per_turn=0.1
    )
    BotMatch.objects.filter(pk=match.pk).update(rated=True)
    first = BotMatchGame.objects.get(match=match, number=1).game
    services.resign(game=first, player=second_bot)
    bots.advance_bot_match(match_id=match.pk)
    assert BotMatchGame.objects.get(match=match, number=2).game.rated is False


def test_finished_games_make_room_for_the_next_and_the_score_follows_white_bot(
    alice: Any, random_bot: Any, second_bot: Any, settings: Any
) -> None:
    settings.BOT_MATCH_PARALLEL_GAMES = 2
    match = bots.create_bot_match(
        creator=alice.user, white="random-bot", black="random-bot-2", games=3, seconds_per_turn=0.1
    )
    first, second = [entry.game for entry in BotMatchGame.objects.filter(match=match)]
    services.resign(game=first, player=second_bot)  # game 1: random-bot (White) wins
    services.resign(game=second, player=random_bot)  # game 2: random-bot-2 (White) wins
    bots.advance_bot_match(match_id=match.pk)
    third = BotMatchGame.objects.get(match=match, number=3).game
    assert (third.white, third.black) == (random_bot, second_bot)
    services.finish_game(game=third, result="1/2-1/2", termination="repetition")
    bots.advance_bot_match(match_id=match.pk)

    body = alice.client.get(f"/api/v1/bot-matches/{match.pk}").json()
    assert body["status"] == "finished" and body["played"] == body["total"] == 3
    assert body["score"] == "1.5-1.5"
    assert (body["white_points"], body["black_points"]) == (1.5, 1.5)
    assert BotMatch.objects.get(pk=match.pk).finished is not None


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"games": 0}, "games"),
        ({"games": 101}, "games"),
        ({"seconds_per_turn": 0}, "seconds_per_turn"),
        ({"seconds_per_turn": 11}, "seconds_per_turn"),
        ({"black": "random-bot"}, "black"),
        ({"games": "many"}, "games"),
        # Bot matches never move the built-in bots' ratings.
        ({"rated": True}, "rated"),
    ],
)
def test_bad_bot_match_requests_are_400_with_the_field(
    alice: Any, random_bot: Any, second_bot: Any, overrides: dict[str, Any], field: str
) -> None:
    answer = _match(alice, **overrides)
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid" and field in answer.json()["fields"]
    assert not BotMatch.objects.exists()


def test_only_built_in_bots_play_bot_matches(alice: Any, bob: Any, random_bot: Any) -> None:
    answer = _match(alice, black="bob")
    assert answer.status_code == 400
    assert answer.json()["code"] == "unknown_bot" and "black" in answer.json()["fields"]


def test_a_user_may_run_three_bot_matches_at_once_staff_more(
    alice: Any, random_bot: Any, second_bot: Any
) -> None:
    for _ in range(3):
        assert _match(alice, games=1).status_code == 201
    refused = _match(alice, games=1)
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_bot_matches"
    alice.user.is_staff = True
    alice.user.save()
    assert _match(alice, games=1).status_code == 201


def test_past_the_sites_running_matches_a_new_one_gets_503_busy_with_retry_after(
    make_player: Any, random_bot: Any, second_bot: Any, settings: Any, client: Any
) -> None:
    """#28: bot matches are bulk work on the `matches` queue: a cap on the whole site."""
    settings.BOT_MATCH_MAX_RUNNING_TOTAL = 2
    first, second, third = (make_player(name) for name in ("m1", "m2", "m3"))
    assert _match(first, games=1).status_code == 201
    assert _match(second, games=1).status_code == 201
    refused = _match(third, games=1)
    assert refused.status_code == 503, refused.json()
    assert (
        refused.json()["code"] == "busy" and "2 bot matches are running" in refused.json()["error"]
    )
    assert int(refused["Retry-After"]) >= 10
    # The web form says it too (no 500).
    client.force_login(third.user)
    page = client.post(
        "/bot-matches/new/",
        {"white": "random-bot", "black": "random-bot-2", "games": 1, "seconds_per_turn": 0.1},
    )
    assert page.status_code == 200 and "2 bot matches are running" in page.content.decode()
    # Staff (organisers) are not refused; finished matches make room.
    third.user.is_staff = True
    third.user.save()
    assert _match(third, games=1).status_code == 201
    BotMatch.objects.filter(created_by__in=[first.user, third.user]).update(
        status=BotMatch.Status.FINISHED
    )
    assert _match(second, games=1).status_code == 201


def test_starting_a_bot_match_needs_a_login_and_unknown_matches_are_404(api: Any) -> None:
    assert api.post("/api/v1/bot-matches", {}, format="json").status_code == 401
    assert api.get("/api/v1/bot-matches/12345").json()["code"] == "not_found"


def test_stopping_a_bot_match_plays_out_the_started_games_only(
    alice: Any, bob: Any, random_bot: Any, second_bot: Any, settings: Any
) -> None:
    settings.BOT_MATCH_PARALLEL_GAMES = 2
    match = bots.create_bot_match(
        creator=alice.user, white="random-bot", black="random-bot-2", games=10, seconds_per_turn=0.1
    )
    url = f"/api/v1/bot-matches/{match.pk}/stop"
    assert bob.client.post(url).json()["code"] == "not_your_bot_match"
    stopped = alice.client.post(url)
    assert stopped.status_code == 200
    assert stopped.json()["total"] == 2 and stopped.json()["status"] == "running"
    for entry in BotMatchGame.objects.filter(match=match):  # the games in play end…
        services.resign(game=entry.game, player=entry.game.black)
    bots.advance_bot_match(match_id=match.pk)  # …and no third game starts
    body = alice.client.get(f"/api/v1/bot-matches/{match.pk}").json()
    assert body["status"] == "finished" and body["played"] == body["total"] == 2
    assert alice.client.post(url).status_code == 200  # stopping again changes nothing
    assert BotMatchGame.objects.filter(match=match).count() == 2


# --- The watch: a bot match never waits on a lost message ------------------------------------


def test_the_watch_requeues_quiet_games_and_comes_back_until_the_match_ends(
    alice: Any, random_bot: Any, second_bot: Any, settings: Any, monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    import celery

    from bots import tasks as bot_tasks

    moves: list[tuple[int, int]] = []
    watches: list[tuple[Any, Any]] = []

    # What reaches the broker, when it does: the Celery send under AfterCommitTask (which
    # still holds a message back until its transaction commits).
    def sent(task: Any, args: Any = None, kwargs: Any = None, *rest: Any, **options: Any) -> None:
        options.pop("ignore_result", None)
        if task.name == bot_tasks.bot_match_move.name:  # a match game's moves
            moves.append(tuple(args))
        elif task.name == bot_tasks.watch_bot_match.name:
            watches.append(((tuple(args),), options))

    monkeypatch.setattr(celery.Task, "apply_async", sent)
    settings.BOT_MATCH_PARALLEL_GAMES = 2
    settings.BOT_MATCH_WATCH_SECONDS = 7
    with django_capture_on_commit_callbacks(execute=True):
        match = bots.create_bot_match(
            creator=alice.user, white="random-bot", black="random-bot-2", games=3,
            seconds_per_turn=0.1,
        )  # fmt: skip
    # Started with its watch, due in BOT_MATCH_WATCH_SECONDS (and the games' first moves).
    assert watches == [(((match.pk, 7.0),), {"countdown": 7.0})]
    first, second = [entry.game for entry in BotMatchGame.objects.filter(match=match)]
    assert sorted(moves) == [(first.pk, 1), (second.pk, 1)]

    # Both first moves were lost; only the first game has been quiet for longer than the watch.
    moves.clear()
    watches.clear()
    Game.objects.filter(pk=first.pk).update(updated=timezone.now() - timedelta(seconds=60))
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_tasks.watch_bot_match(match.pk, 7.0) == "running"
    assert moves == [(first.pk, 1)]  # queued again, at the ply the bot must play
    assert watches == [(((match.pk, 7.0),), {"countdown": 7.0})]  # and it comes back

    # A game finished whose advance_bot_match message was lost: the watch starts the third.
    services.resign(game=first, player=second_bot)
    moves.clear()
    watches.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_tasks.watch_bot_match(match.pk, 7.0) == "running"
    third = BotMatchGame.objects.get(match=match, number=3).game
    assert moves == [(third.pk, 1)] and len(watches) == 1  # the third's first move

    # Once every game is over the match finishes and the watch ends.
    services.resign(game=second, player=random_bot)
    services.resign(game=third, player=second_bot)
    watches.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_tasks.watch_bot_match(match.pk, 7.0) == "finished"
    assert watches == []
    assert BotMatch.objects.get(pk=match.pk).status == "finished"

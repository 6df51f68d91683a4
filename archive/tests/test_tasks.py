"""The verification tasks moved from games.tasks to archive.tasks under their old names."""

from __future__ import annotations

from archive.tasks import verify_all_games, verify_game, verify_recent_games


def test_the_tasks_keep_the_names_the_queue_and_beat_know(settings) -> None:
    from config.celery import app

    names = {
        "games.tasks.verify_game",
        "games.tasks.verify_recent_games",
        "games.tasks.verify_all_games",
    }
    assert {verify_game.name, verify_recent_games.name, verify_all_games.name} == names
    assert names <= set(app.tasks)
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.tasks.verify_recent_games", "games.tasks.verify_all_games"} <= scheduled

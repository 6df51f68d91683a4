# BotMatch, BotMatchGame, RatingChange and Event moved to the bots, ratings and stream
# apps.  Their tables stay where they are (each model keeps its db_table): this only
# removes them from the games app's migration state; bots/ratings/stream 0001_initial
# add them to theirs and move their content types.  No SQL.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_challenge_idempotency_key"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="BotMatchGame"),
                migrations.DeleteModel(name="BotMatch"),
                migrations.DeleteModel(name="RatingChange"),
                migrations.DeleteModel(name="Event"),
            ],
            database_operations=[],
        ),
    ]

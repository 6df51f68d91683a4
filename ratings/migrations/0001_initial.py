# RatingChange moved here from the games app, onto the same table (db_table):
# games 0009 removed it from the games state, this adds it to the ratings state
# (no SQL) and moves its content type, so admin permissions follow.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ['ratingchange']


def _move(apps, schema_editor, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if not ContentType.objects.using(db).filter(app_label=target, model=model).exists():
            ContentType.objects.using(db).filter(app_label=source, model=model).update(
                app_label=target
            )


def move_content_types(apps, schema_editor):
    _move(apps, schema_editor, "games", "ratings")


def move_content_types_back(apps, schema_editor):
    _move(apps, schema_editor, "ratings", "games")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0011_move_bots_ratings_stream'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RatingChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('rating_before', models.FloatField(verbose_name='rating before')),
                        ('rating', models.FloatField(verbose_name='rating')),
                        ('deviation', models.FloatField(verbose_name='rating deviation')),
                        ('volatility', models.FloatField(verbose_name='rating volatility')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.game', verbose_name='game')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                    ],
                    options={
                        'verbose_name': 'rating change',
                        'verbose_name_plural': 'rating changes',
                        'db_table': 'games_ratingchange',
                        'ordering': ['user', 'created', 'id'],
                        'indexes': [models.Index(fields=['user', 'created'], name='ratingchange_user_created')],
                        'constraints': [models.UniqueConstraint(fields=('game', 'user'), name='ratingchange_unique_game_user')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

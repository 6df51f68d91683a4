# BotMatch and BotMatchGame moved here from the games app, onto the same tables
# (db_table): games 0009 removed them from the games state, this adds them to the
# bots state (no SQL) and moves their content types, so admin permissions follow.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ['botmatch', 'botmatchgame']


def _move(apps, schema_editor, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if not ContentType.objects.using(db).filter(app_label=target, model=model).exists():
            ContentType.objects.using(db).filter(app_label=source, model=model).update(
                app_label=target
            )


def move_content_types(apps, schema_editor):
    _move(apps, schema_editor, "games", "bots")


def move_content_types_back(apps, schema_editor):
    _move(apps, schema_editor, "bots", "games")


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
                    name='BotMatch',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('games', models.PositiveSmallIntegerField(verbose_name='games')),
                        ('seconds_per_turn', models.FloatField(verbose_name='seconds per turn')),
                        ('rated', models.BooleanField(default=False, verbose_name='rated')),
                        ('status', models.CharField(choices=[('running', 'Running'), ('finished', 'Finished')], default='running', max_length=10, verbose_name='status')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('finished', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                        ('black', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='second bot')),
                        ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bot_matches_started', to=settings.AUTH_USER_MODEL, verbose_name='started by')),
                        ('white', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='first bot')),
                    ],
                    options={
                        'verbose_name': 'bot match',
                        'verbose_name_plural': 'bot matches',
                        'db_table': 'games_botmatch',
                        'ordering': ['-created', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='BotMatchGame',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField(verbose_name='number')),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='bot_match_entry', to='games.game', verbose_name='game')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='bots.botmatch', verbose_name='bot match')),
                    ],
                    options={
                        'verbose_name': 'bot match game',
                        'verbose_name_plural': 'bot match games',
                        'db_table': 'games_botmatchgame',
                        'ordering': ['match', 'number'],
                    },
                ),
                migrations.AddIndex(
                    model_name='botmatch',
                    index=models.Index(fields=['created_by', 'status'], name='botmatch_creator_status'),
                ),
                migrations.AddIndex(
                    model_name='botmatch',
                    index=models.Index(fields=['status'], name='botmatch_status'),
                ),
                migrations.AddConstraint(
                    model_name='botmatchgame',
                    constraint=models.UniqueConstraint(fields=('match', 'number'), name='botmatchgame_unique_number'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

# Event moved here from the games app, onto the same table (db_table): games 0009
# removed it from the games state, this adds it to the stream state (no SQL) and
# moves its content type, so admin permissions follow.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ['event']


def _move(apps, schema_editor, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if not ContentType.objects.using(db).filter(app_label=target, model=model).exists():
            ContentType.objects.using(db).filter(app_label=source, model=model).update(
                app_label=target
            )


def move_content_types(apps, schema_editor):
    _move(apps, schema_editor, "games", "stream")


def move_content_types_back(apps, schema_editor):
    _move(apps, schema_editor, "stream", "games")


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
                    name='Event',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('type', models.CharField(choices=[('challenge', 'Challenge'), ('game_start', 'Game start'), ('turn', 'Turn'), ('game_finish', 'Game finish')], max_length=16, verbose_name='type')),
                        ('payload', models.JSONField(default=dict, verbose_name='payload')),
                        ('created', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='time')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                    ],
                    options={
                        'verbose_name': 'event',
                        'verbose_name_plural': 'events',
                        'db_table': 'games_event',
                        'ordering': ['id'],
                        'indexes': [models.Index(fields=['user', 'id'], name='event_user_id')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

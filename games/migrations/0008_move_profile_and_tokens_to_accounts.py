"""Profile and ApiToken now belong to the accounts app (same tables, no SQL but the
content types, so that admin permissions and log entries follow the models)."""

from django.db import migrations

MOVED = ("profile", "apitoken")


def move_content_types(apps, schema_editor, source="games", target="accounts"):
    content_types = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        # Already there (created by a later migrate run): the old row is left as stale.
        if not content_types.objects.filter(app_label=target, model=model).exists():
            content_types.objects.filter(app_label=source, model=model).update(app_label=target)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source="accounts", target="games")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_termination_adjudication"),
        ("accounts", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(model_name="profile", name="user"),
                migrations.DeleteModel(name="ApiToken"),
                migrations.DeleteModel(name="Profile"),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

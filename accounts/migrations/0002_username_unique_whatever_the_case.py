"""Usernames unique whatever the case, in the database (auth_user is Django's table, so
the index is written here rather than declared on a model of ours)."""

from django.db import migrations

INDEX = "accounts_username_lower_unique"


def refuse_existing_twins(apps, schema_editor):
    users = apps.get_model("auth", "User")
    seen: dict[str, str] = {}
    twins = []
    for name in users.objects.order_by("pk").values_list("username", flat=True):
        key = name.lower()
        if key in seen:
            twins.append(f"{seen[key]!r} / {name!r}")
        seen.setdefault(key, name)
    if twins:
        raise RuntimeError(
            "Usernames that differ only by case must be renamed before this migration: "
            + ", ".join(twins)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(refuse_existing_twins, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]

"""Challenges store their time control as games do (clocks.models.TimeControlFields).

The increment was whole hours on a challenge (``increment_hours``) and seconds on a
game (``clock_increment``): challenges now keep seconds too, converted exactly
(hours × 3600; games keep their column and values untouched, imported ones included).
Days per turn get the 1–30 validators (no change in the database).
"""

import django.core.validators
from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Mod

HOUR = 3600


def hours_to_seconds(apps, schema_editor):
    Challenge = apps.get_model("games", "Challenge")
    Challenge.objects.update(clock_increment=F("increment_hours") * HOUR)


def seconds_to_hours(apps, schema_editor):
    Challenge = apps.get_model("games", "Challenge")
    inexact = Challenge.objects.annotate(rest=Mod("clock_increment", HOUR)).exclude(rest=0)
    if inexact.exists():
        raise RuntimeError(
            "cannot migrate back: some challenges have an increment that is not whole hours"
        )
    Challenge.objects.update(increment_hours=F("clock_increment") / HOUR)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_move_profile_and_tokens_to_accounts"),
    ]

    operations = [
        migrations.AddField(
            model_name="challenge",
            name="clock_increment",
            field=models.PositiveIntegerField(default=0, verbose_name="increment (seconds)"),
        ),
        migrations.RunPython(hours_to_seconds, seconds_to_hours, elidable=False),
        migrations.RemoveField(
            model_name="challenge",
            name="increment_hours",
        ),
        migrations.AlterField(
            model_name="challenge",
            name="days_per_turn",
            field=models.PositiveSmallIntegerField(
                default=3,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(30),
                ],
                verbose_name="days per turn",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="days_per_turn",
            field=models.PositiveSmallIntegerField(
                default=3,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(30),
                ],
                verbose_name="days per turn",
            ),
        ),
    ]

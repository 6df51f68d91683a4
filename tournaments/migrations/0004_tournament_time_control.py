"""Tournaments store a whole time control, as challenges and games do
(clocks.models.TimeControlFields): existing ones are per turn, no weekend pause."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_half_point_byes"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="clock_kind",
            field=models.CharField(
                choices=[("per_turn", "Days per turn"), ("bank", "Time bank")],
                default="per_turn",
                max_length=8,
                verbose_name="time control",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="clock_increment",
            field=models.PositiveIntegerField(default=0, verbose_name="increment (seconds)"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="weekend_pause",
            field=models.BooleanField(default=False, verbose_name="weekend pause"),
        ),
    ]

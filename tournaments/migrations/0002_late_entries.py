from django.db import migrations, models

HELP = (
    "Swiss only: players may join until half the rounds are paired; the rounds they "
    "missed count as zero-point byes."
)


class Migration(migrations.Migration):
    """Late entries for Swiss tournaments: on for new ones; tournaments announced before
    keep their conditions (no late entries)."""

    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="late_entries",
            field=models.BooleanField(default=False, help_text=HELP, verbose_name="late entries"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="late_entries",
            field=models.BooleanField(default=True, help_text=HELP, verbose_name="late entries"),
        ),
    ]

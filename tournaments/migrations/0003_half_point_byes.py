import django.db.models.deletion
from django.db import migrations, models

HELP = (
    "Swiss only: byes worth half a point that a player may ask for, each for a round not "
    "yet paired and not the last one."
)


class Migration(migrations.Migration):
    """Half-point byes on request (Swiss): one per player in new tournaments; those
    announced before keep their conditions (none)."""

    dependencies = [
        ('tournaments', '0002_late_entries'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='half_point_byes',
            field=models.PositiveSmallIntegerField(default=0, help_text=HELP, verbose_name='half-point byes per player'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='half_point_byes',
            field=models.PositiveSmallIntegerField(default=1, help_text=HELP, verbose_name='half-point byes per player'),
        ),
        migrations.CreateModel(
            name='ByeRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round_number', models.PositiveSmallIntegerField(verbose_name='round')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('participant', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bye_requests', to='tournaments.participant')),
            ],
            options={
                'verbose_name': 'half-point bye request',
                'verbose_name_plural': 'half-point bye requests',
                'ordering': ['participant', 'round_number'],
                'constraints': [models.UniqueConstraint(fields=('participant', 'round_number'), name='bye_request_unique_round')],
            },
        ),
    ]

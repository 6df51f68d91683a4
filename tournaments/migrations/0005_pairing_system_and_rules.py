"""Swiss pairing system and rules per tournament.  Tournaments created before keep the
rules they were paired by (before February 2026); new ones default to the 2026 rules."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_tournament_time_control'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='pairing_rules',
            field=models.CharField(choices=[('2026', 'February 2026'), ('2017', 'before February 2026')], default='2017', max_length=4, verbose_name='pairing rules'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='pairing_rules',
            field=models.CharField(choices=[('2026', 'February 2026'), ('2017', 'before February 2026')], default='2026', max_length=4, verbose_name='pairing rules'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='pairing_system',
            field=models.CharField(choices=[('dutch', 'Dutch'), ('burstein', 'Burstein'), ('dubov', 'Dubov')], default='dutch', max_length=10, verbose_name='pairing system'),
        ),
    ]

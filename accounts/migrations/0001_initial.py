"""Profile and ApiToken move here from the games app, keeping their tables."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        # The tables exist already (games created them): only Django's state moves.
        ("games", "0007_termination_adjudication"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='ApiToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('prefix', models.CharField(max_length=16, unique=True, verbose_name='prefix')),
                        ('digest', models.CharField(max_length=64, verbose_name='SHA-256')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('last_used', models.DateTimeField(blank=True, null=True, verbose_name='last used')),
                        ('revoked', models.DateTimeField(blank=True, null=True, verbose_name='revoked')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'API token',
                        'verbose_name_plural': 'API tokens',
                        'db_table': 'games_apitoken',
                    },
                ),
                migrations.CreateModel(
                    name='Profile',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('display_name', models.CharField(blank=True, max_length=64, verbose_name='display name')),
                        ('is_bot', models.BooleanField(default=False, verbose_name='bot')),
                        ('bot_engine', models.CharField(blank=True, max_length=32, verbose_name='bot engine player')),
                        ('bot_level', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='bot level')),
                        ('language', models.CharField(choices=[('en', 'English'), ('ru', 'Русский'), ('eo', 'Esperanto')], default='en', max_length=8, verbose_name='language')),
                        ('email_notifications', models.BooleanField(default=True, verbose_name='email notifications')),
                        ('rating', models.FloatField(default=1500.0, verbose_name='rating')),
                        ('rating_deviation', models.FloatField(default=350.0, verbose_name='rating deviation')),
                        ('rating_volatility', models.FloatField(default=0.06, verbose_name='rating volatility')),
                        ('vacation_days_left', models.PositiveSmallIntegerField(default=14, verbose_name='vacation days left')),
                        ('time_zone', models.CharField(default='UTC', max_length=64, verbose_name='time zone')),
                        ('auto_vacation', models.BooleanField(default=True, verbose_name='automatic vacation')),
                        ('vacation_started', models.DateTimeField(blank=True, null=True, verbose_name='on vacation since')),
                        ('vacation_until', models.DateTimeField(blank=True, null=True, verbose_name='vacation ends')),
                        ('vacation_year', models.PositiveSmallIntegerField(default=0, verbose_name='vacation year')),
                        ('turn_email', models.CharField(choices=[('each', 'An email per game (at most one every few hours)'), ('digest', 'One daily digest')], default='each', max_length=8, verbose_name='your-turn emails')),
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='profile', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'profile',
                        'verbose_name_plural': 'profiles',
                        'db_table': 'games_profile',
                    },
                ),
            ],
        ),
    ]

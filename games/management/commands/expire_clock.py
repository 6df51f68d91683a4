"""Fast-forward a game's clock for demos: ``python manage.py expire_clock GAME_ID``.

The running clock drops to zero and the timeout is processed at once, exactly
as the beat sweeper would do it (loss on time, "abandoned" before a first turn,
or a vacation day spent when the player has automatic vacation).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Profile
from core.errors import DomainError
from games import timekeeping
from games.models import Game


class Command(BaseCommand):
    help = "Run a game's clock out now and process the timeout (for demos and tests)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument(
            "--no-auto-vacation",
            action="store_true",
            help="Turn the player's automatic vacation off first, so the game is lost on time.",
        )
        parser.add_argument(
            "--leave-to-beat",
            action="store_true",
            help="Only run the clock out; let the beat sweeper end the game (within a minute).",
        )

    def handle(self, *args: Any, game_id: int, **options: Any) -> None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"There is no game {game_id}.")
        player_id = game.who_must_act()
        if player_id is None:
            raise CommandError(f"Game {game_id} is over: its clocks do not run.")
        if options["no_auto_vacation"]:
            Profile.objects.filter(user_id=player_id).update(auto_vacation=False)
        try:
            game = timekeeping.fast_forward(game=game)
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Game {game_id}: the clock of user {player_id} ran out.")
        if options["leave_to_beat"]:
            self.stdout.write("The beat sweeper (games.tasks.sweep_clocks) will end it.")
            return
        outcome = timekeeping.expire_game(game_id=game_id, now=game.deadline)
        game.refresh_from_db()
        if outcome == timekeeping.Expiry.AUTO_VACATION:
            self.stdout.write(
                "Automatic vacation: a vacation day was spent instead of losing "
                "(use --no-auto-vacation to lose on time)."
            )
        else:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Game {game_id} over: {game.result} ({game.termination}), rated={game.rated}."
                )
            )

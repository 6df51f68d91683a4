"""Demo data for the whole site: a few players, finished and running games, the bots, an admin login.

Games are played through games.services with turns chosen by the engine, so the
data is exactly what real play produces.  Running it again changes nothing
(it only prints the admin login again).
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from clocks.timecontrol import TimeControl
from engine import Position, Turn
from games import services
from games.models import Game

PLAYERS = {
    "alice": "Alice",
    "bob": "Bob",
    "carol": "Carol",
    "dmitri": "Дмитрий",
}
DEMO_PASSWORD = "adaptoid-demo"  # printed in the README; demo accounts only
ADMIN_PASSWORD_FILE = settings.VAR_DIR / "demo-admin-password.txt"


def choose_turn(position: Position, rng: random.Random) -> Turn:
    """The engine's players pick when available; else a legal turn that scores if it can."""
    try:
        from engine.players import get_player
    except ImportError:  # engine.players not there yet: a small stand-in (see the report)
        turns = sorted(position.legal_turns, key=str)
        captures = [t for t in turns if t.move is not None and t.move[2]]
        return rng.choice(captures or turns)
    return get_player("greedy", seed=rng.randrange(1 << 30)).choose(position, seconds=0.05)


def play(game: Game, turns: int | None, rng: random.Random) -> Game:
    """Play `turns` turns (None: to the end, at most 400) through services.play_turn."""
    limit = 400 if turns is None else turns
    for _ in range(limit):
        if game.status != Game.Status.ACTIVE:
            break
        position = services.replay(game)
        mover = game.white if game.to_move == "white" else game.black
        turn = choose_turn(position, rng)
        game, _created = services.play_turn(
            game=game, player=mover, text=str(turn), ply=game.ply + 1
        )
    if turns is None and game.status == Game.Status.ACTIVE:
        # A very long game: end it the way a tired player would.
        services.resign(game=game, player=game.white if game.to_move == "white" else game.black)
    return game


class Command(BaseCommand):
    help = "Load demo players and games (idempotent) and print the admin login."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        admin_password = self._admin(User)
        # Built-in bots first: every set-up (dev.py start) ends with them present.
        call_command("create_bots", stdout=self.stdout)
        if not User.objects.filter(username="alice").exists():
            self._players_and_games(User)
            self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        site = settings.SITE_URL.rstrip("/")  # dev.py start --port N sets SITE_URL
        self.stdout.write(f"Admin login: {site}/admin/  user: admin  password: {admin_password}")
        self.stdout.write(f"Demo players: {', '.join(PLAYERS)} (password: {DEMO_PASSWORD})")

    def _admin(self, User: Any) -> str:
        ADMIN_PASSWORD_FILE.parent.mkdir(parents=True, exist_ok=True)
        admin = User.objects.filter(username="admin").first()
        if admin is not None and ADMIN_PASSWORD_FILE.exists():
            known = ADMIN_PASSWORD_FILE.read_text().strip()
            # The file may belong to another database (DATABASE_URL changed): check it.
            if admin.check_password(known):
                return known
        password = secrets.token_urlsafe(12)
        if admin is None:
            admin = User.objects.create_superuser("admin", "admin@localhost", password)
        else:
            admin.set_password(password)
            admin.save()
        ADMIN_PASSWORD_FILE.write_text(password + "\n")
        return password

    def _players_and_games(self, User: Any) -> None:
        users = {}
        for username, display in PLAYERS.items():
            user = User.objects.create_user(username, f"{username}@localhost", DEMO_PASSWORD)
            user.profile.display_name = display
            user.profile.save()
            users[username] = user
        rng = random.Random(2026)
        # Two finished games, played to a result by the engine.
        for white, black in (("alice", "bob"), ("carol", "dmitri")):
            play(services.start_game(white=users[white], black=users[black]), None, rng)
        # Running games: a challenge accepted and a few turns in; a fresh pie opening.
        challenge = services.create_challenge(creator=users["bob"], opponent="carol", color="white")
        play(services.accept_challenge(challenge=challenge, player=users["carol"]), 6, rng)
        play(
            services.start_game(
                white=users["dmitri"],
                black=users["alice"],
                time_control=TimeControl.per_turn(7),
            ),
            3,
            rng,
        )
        pie = services.create_challenge(
            creator=users["alice"], opponent="dmitri", color="white", opening="pie"
        )
        services.accept_challenge(challenge=pie, player=users["dmitri"])
        services.create_challenge(
            creator=users["carol"], opponent=None, time_control=TimeControl.per_turn(5)
        )

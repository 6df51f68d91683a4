"""Run a whole tournament with random results, through the real services and tasks.

    python manage.py simulate_tournament --format swiss --players 40 --rounds 7 --seed 1 --trf out.trf
    python manage.py simulate_tournament --format roundrobin --players 9 --seed 2

Players are new bot-flagged accounts (no password, no engine: they never move
by themselves) with ratings drawn from the seed; the tournament admits bots.
Every game is ended by ``games.services`` so its record stays honest:

* a decisive result is a resignation of the loser (``services.resign``);
* a draw is an agreed draw (``services.adjudicate``, termination ``agreement``);
* with ``--forfeit-rate`` some games are lost as ``abandoned`` (scored as forfeits).

Celery runs eagerly inside this process (``task_always_eager``): when the last
game of a round ends, the game-finished receiver queues ``advance_tournament``
after the commit, exactly as on a worker, and it pairs the next round here.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from pathlib import Path
from typing import Any

from celery import current_app as celery_app
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services as game_services
from games.models import Game
from tournaments import pairing, selectors, services
from tournaments.models import Tournament

User = get_user_model()
FORMATS = {"swiss": "swiss", "roundrobin": "roundrobin", "double": "double"}


class Command(BaseCommand):
    help = "Create players and run a tournament to the end with random results; write its TRF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=sorted(FORMATS), default="swiss")
        parser.add_argument("--players", type=int, default=16)
        parser.add_argument("--rounds", type=int, default=None, help="Swiss only (default 5)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--trf", type=Path, default=None, help="write the final TRF-16 here")
        parser.add_argument("--draw-rate", type=float, default=0.25)
        parser.add_argument("--forfeit-rate", type=float, default=0.0)
        parser.add_argument("--bye-points", choices=["1", "0.5", "0"], default="1")
        parser.add_argument("--all-at-once", action="store_true", help="round robin only")
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["players"]
        if not 2 <= count <= 2000:
            raise CommandError("--players must be between 2 and 2000")
        for rate in ("draw_rate", "forfeit_rate"):
            if not 0 <= options[rate] <= 1:
                raise CommandError(f"--{rate.replace('_', '-')} must be between 0 and 1")
        fmt = FORMATS[options["format"]]
        rounds = options["rounds"]
        if fmt == "swiss" and rounds is None:
            rounds = 5
        if fmt != "swiss" and rounds is not None:
            raise CommandError(
                "--rounds is for Swiss; a round robin's rounds follow from --players"
            )
        rng = random.Random(options["seed"])
        # Eager tasks log every run at INFO: keep the command's output readable.
        logging.getLogger("celery").setLevel(logging.WARNING)
        started = time.perf_counter()
        tournament = simulate(
            fmt=fmt,
            players=count,
            rounds=rounds,
            rng=rng,
            draw_rate=options["draw_rate"],
            forfeit_rate=options["forfeit_rate"],
            bye_points={"1": 2, "0.5": 1, "0": 0}[options["bye_points"]],
            all_at_once=options["all_at_once"],
            name=options["name"] or f"Simulated {fmt} (seed {options['seed']})",
            log=lambda text: self.stdout.write(text),
        )
        table = selectors.standings(tournament)
        self.stdout.write(
            f"tournament {tournament.pk} {tournament.status} after {tournament.current_round} "
            f"rounds in {time.perf_counter() - started:.1f} s"
        )
        for row in table.rows[:10]:
            values = " ".join(f"{name}={value}" for name, value in row.tiebreaks)
            self.stdout.write(
                f"{row.rank:4d}. {row.participant.user.username:<24} "
                f"{row.points_display:>4}  {values}"
            )
        if options["trf"]:
            options["trf"].write_text(selectors.trf(tournament), encoding="utf-8")
            self.stdout.write(f"TRF written to {options['trf']} ({pairing.RULES_VERSION})")


def simulate(
    *,
    fmt: str,
    players: int,
    rounds: int | None,
    rng: random.Random,
    draw_rate: float = 0.25,
    forfeit_rate: float = 0.0,
    bye_points: int = 2,
    all_at_once: bool = False,
    name: str = "Simulated tournament",
    log: Any = None,
) -> Tournament:
    """Create the players and the tournament, start it and finish every game until it ends."""
    tag = secrets.token_hex(3)  # fresh accounts on every run, whatever the database holds
    organiser = User.objects.create_user(username=f"sim-{tag}-organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    organiser = User.objects.get(pk=organiser.pk)
    tournament = services.create_tournament(
        organiser=organiser,
        name=name,
        format=fmt,
        rounds=rounds,
        rated=False,
        bye_points=bye_points,
        all_at_once=all_at_once,
        allow_bots=True,
    )
    for index in range(1, players + 1):
        user = User.objects.create_user(username=f"sim-{tag}-{index:04d}")
        profile = user.profile
        profile.is_bot = True
        profile.rating = float(min(2700, max(800, round(rng.gauss(1500, 250)))))
        profile.save(update_fields=["is_bot", "rating"])
        services.join(tournament=tournament, user=user)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # tasks run here, after each commit
    try:
        services.start_tournament(tournament=tournament, by=organiser)
        while True:
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.RUNNING:
                break
            games = list(
                Game.objects.filter(tournament_pairing__round__tournament=tournament)
                .exclude(status=Game.Status.FINISHED)
                .select_related("white", "black")
                .order_by("tournament_pairing__round__number", "tournament_pairing__board")
            )
            if not games:
                # Nothing left to play but the tournament still runs: advance it ourselves.
                if services.advance(tournament_id=tournament.pk) in ("waiting", "idle"):
                    break
                continue
            if log is not None:
                log(f"round {tournament.current_round}: {len(games)} games")
            for game in games:
                finish_randomly(game, rng, draw_rate=draw_rate, forfeit_rate=forfeit_rate)
    finally:
        celery_app.conf.task_always_eager = eager
    tournament.refresh_from_db()
    return tournament


def finish_randomly(
    game: Game, rng: random.Random, *, draw_rate: float, forfeit_rate: float
) -> None:
    roll = rng.random()
    if roll < draw_rate:
        game_services.adjudicate(game=game, result="1/2-1/2", termination="agreement")
        return
    white_wins = rng.random() < 0.5
    loser = game.black if white_wins else game.white
    if rng.random() < forfeit_rate:
        game_services.adjudicate(
            game=game, result="1-0" if white_wins else "0-1", termination="abandoned"
        )
    else:
        game_services.resign(game=game, player=loser)

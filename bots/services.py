"""Bots on the platform: built-in engine bots, external bot accounts, bot matches.

* A *built-in* bot is an account whose profile has ``is_bot`` and a ``bot_engine``
  (an ``engine.players`` name).  Celery tasks (bots.tasks) play its turns
  through ``services.play_turn``, exactly like a human's request would.
* An *external* bot is any account turned into a bot with ``become_bot`` (one
  way, as on lichess); a program plays for it through the REST API and the event
  stream.  Its profile has ``is_bot`` and an empty ``bot_engine``.
* A *bot match* is N games between two built-in bots, started a few at a time
  (``BOT_MATCH_PARALLEL_GAMES``) so progress shows while it runs.

Every function here is a service: keyword-only arguments, ``transaction.atomic``,
``games.errors`` for refusals.  Nothing here thinks in HTTP or Celery.
"""

from __future__ import annotations

import datetime
import logging
import math
import statistics
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.models import Profile
from bots import errors as bot_errors
from bots.models import BotMatch, BotMatchGame
from clocks.errors import TimeExpired
from core import jobs
from core.errors import QueueFull
from engine.players import PLAYER_NAMES, Player, get_player
from games import errors, services
from games.models import Color, Game

logger = logging.getLogger(__name__)


def setting(name: str, default: Any) -> Any:
    """A bot setting from config/settings.py, with the default documented here."""
    return getattr(settings, name, default)


# --- Built-in bots --------------------------------------------------------------------


@dataclass(frozen=True)
class BuiltinBot:
    engine: str  # engine.players name
    username: str
    display_name: str
    level: int  # 1 = weakest; shown to players
    seconds: float  # thinking time per turn in games against people


# Known engine players, weakest first.  A player the engine adds later gets an
# account too (``<name>-bot``, a level above these) the next time create_bots runs.
# Display names are catalogue messages: stored in English, shown in the reader's
# language (Profile.shown_name).
_KNOWN_BOTS = {
    "random": BuiltinBot("random", "random-bot", gettext_noop("Random bot"), 1, 0.05),
    "greedy": BuiltinBot("greedy", "greedy-bot", gettext_noop("Greedy bot"), 2, 0.2),
    "search-1": BuiltinBot(
        "search-1", "search1-bot", gettext_noop("Search bot, 2 turns deep"), 3, 0.5
    ),
    "search-2": BuiltinBot(
        "search-2", "search2-bot", gettext_noop("Search bot, 3 turns deep"), 4, 1.0
    ),
    "search": BuiltinBot("search", "search-bot", gettext_noop("Search bot, deepest"), 5, 3.0),
}


# Engine players that play no games on the site: frozen baselines for measuring.
_NOT_BOTS = frozenset({"search-v1"})


def engine_player_names() -> tuple[str, ...]:
    return tuple(name for name in PLAYER_NAMES if name not in _NOT_BOTS)


def builtin_bots() -> list[BuiltinBot]:
    bots = []
    for index, name in enumerate(engine_player_names()):
        level = len(_KNOWN_BOTS) + 1 + index  # a player the engine added after these
        bots.append(
            _KNOWN_BOTS.get(name)
            or BuiltinBot(name, f"{name}-bot", f"{name.title()} bot", level, 2.0)
        )
    return sorted(bots, key=lambda bot: (bot.level, bot.engine))


def get_engine_player(name: str, *, seed: int | None = None) -> Player:
    try:
        return get_player(name, seed=seed)
    except ValueError:  # the engine no longer has this player
        raise bot_errors.UnknownBot() from None


def ensure_builtin_bots() -> list[User]:
    """Create (or bring up to date) one account per engine player. Idempotent."""
    users = []
    with transaction.atomic():
        for bot in builtin_bots():
            user = User.objects.filter(username=bot.username).first()
            if user is None:
                user = User(username=bot.username)
                user.set_unusable_password()  # nobody logs in as a built-in bot
                user.save()
            profile, _created = Profile.objects.get_or_create(user=user)
            profile.is_bot = True
            profile.bot_engine = bot.engine
            profile.bot_level = bot.level
            profile.display_name = profile.display_name or bot.display_name
            profile.save(update_fields=["is_bot", "bot_engine", "bot_level", "display_name"])
            user.profile = profile  # the fresh one (saving the user cached an older copy)
            users.append(user)
    return users


def builtin_bot_users() -> Any:
    """Queryset of the built-in bot accounts, weakest first."""
    return (
        User.objects.filter(profile__is_bot=True)
        .exclude(profile__bot_engine="")
        .select_related("profile")
        .order_by("profile__bot_level", "username")
    )


def engine_of(user_id: int) -> str | None:
    """The engine player of a built-in bot account, None for everybody else."""
    engine = (
        Profile.objects.filter(user_id=user_id, is_bot=True)
        .exclude(bot_engine="")
        .values_list("bot_engine", flat=True)
        .first()
    )
    return engine or None


def get_builtin_bot(username: str, *, field: str) -> User:
    user = builtin_bot_users().filter(username=username).first()
    if user is None:
        message = _("%(name)s is not a built-in bot.") % {"name": username}
        raise bot_errors.UnknownBot(message, fields={field: [message]})
    return user


def thinking_seconds(game: Game, engine: str) -> float:
    """A bot match's time per turn, else the bot's own (its level) against people."""
    entry = BotMatchGame.objects.filter(game=game).select_related("match").first()
    if entry is not None:
        return entry.match.seconds_per_turn
    bot = _KNOWN_BOTS.get(engine)
    return bot.seconds if bot else 2.0


# --- What a built-in bot must do ------------------------------------------------------


def bot_to_act(game: Game) -> tuple[int, int] | None:
    """(bot user id, ply) when a built-in bot must act in `game` now, else None.

    `ply` is the number of the turn to play, or 0 for a pie-opening step (placing
    the adaptoids, then choosing a colour).
    """
    user_id = game.who_must_act()
    if user_id is None:
        return None
    ply = game.ply + 1 if game.status == Game.Status.ACTIVE else 0
    return (user_id, ply) if engine_of(user_id) else None


# Where a built-in bot puts the adaptoids in a pie opening: the standard start,
# which is as fair as the board allows, so choosing either colour is no gift.
PIE_CELLS = ("D2", "D6")


def play_bot_turn(*, game_id: int, ply: int) -> str:
    """Let the built-in bot to move in game `game_id` play turn `ply` (0: a pie step).

    Safe to call any number of times for the same (game, ply): a stale or finished
    game, a human to move or a turn already stored all return without playing.
    The thinking happens outside any transaction (it may take seconds); the turn
    is then stored by ``services.play_turn``, whose row lock and stale-ply check
    make sure a bot never plays twice at the same ply.  Returns what happened.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "missing"
    acting = bot_to_act(game)
    if acting is None:
        return "nothing to do"
    user_id, expected_ply = acting
    if ply != expected_ply:
        return "stale"
    bot = User.objects.get(pk=user_id)
    engine = engine_of(user_id) or "random"
    try:
        if ply == 0:
            step = game.pie_step()
            if step is not None and step.action == "place":
                services.setup_pie(game=game, player=bot, white=PIE_CELLS[0], black=PIE_CELLS[1])
                return "placed"
            services.choose_color(game=game, player=bot, color=Color.WHITE)
            return "chose white"
        position = services.replay(game)
        # Seeded by game and ply: a redelivered task thinks the same thought.
        player = get_engine_player(engine, seed=game.pk * 10_000 + ply)
        turn = player.choose(position, seconds=thinking_seconds(game, engine))
        services.play_turn(game=game, player=bot, text=str(turn), ply=ply)
    except (
        errors.StalePly,
        errors.GameOver,
        TimeExpired,
        errors.NotYourTurn,
        errors.WrongPhase,
    ) as exc:
        # Somebody (a redelivered task, a resignation, a timeout) got there first.
        return f"skipped: {exc.code}"
    return f"played {turn}"


def accept_bot_challenge(*, challenge_id: int) -> Game | None:
    """A built-in bot accepts a challenge addressed to it (None if not open any more)."""
    from games.models import Challenge

    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or challenge.opponent is None or not engine_of(challenge.opponent.pk):
        return None
    if challenge.status != Challenge.Status.OPEN:
        return None
    try:
        return services.accept_challenge(challenge=challenge, player=challenge.opponent)
    except errors.ChallengeClosed:
        return None  # cancelled meanwhile, or accepted by a redelivered task


# --- External bot accounts ----------------------------------------------------------------


def become_bot(*, user: User) -> Profile:
    """Turn `user` into a bot account, for good (there is no way back, as on lichess).

    Refused when the account has played any game: its games and rating were a
    human's, and a bot account must not inherit them.  Calling it again on a bot
    account changes nothing.
    """
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        if profile.is_bot:
            return profile
        if Game.objects.filter(Q(white=user) | Q(black=user)).exists():
            raise bot_errors.HasPlayedGames()
        profile.is_bot = True
        profile.bot_engine = ""
        profile.bot_level = None
        profile.save(update_fields=["is_bot", "bot_engine", "bot_level"])
    return profile


# --- Bot matches ---------------------------------------------------------------------------


def create_bot_match(
    *,
    creator: User,
    white: str,
    black: str,
    games: int,
    seconds_per_turn: float,
    rated: bool = False,
) -> BotMatch:
    """Start a match of `games` games between two built-in bots (by username).

    Limits: at most ``BOT_MATCH_MAX_GAMES`` games and ``BOT_MAX_SECONDS_PER_TURN``
    seconds per turn; a user may have ``BOT_MATCH_MAX_RUNNING`` running matches
    (``TooManyBotMatches``, 429), the site ``BOT_MATCH_MAX_RUNNING_TOTAL`` (core.errors'
    ``QueueFull``: 503 ``busy`` with Retry-After); staff, i.e. organisers, are not
    limited.  The first games start at once.
    """
    max_games = setting("BOT_MATCH_MAX_GAMES", 100)
    max_seconds = setting("BOT_MAX_SECONDS_PER_TURN", 10.0)
    fields: dict[str, list[str]] = {}
    if not 1 <= games <= max_games:
        fields["games"] = [_("Between 1 and %(max)d games.") % {"max": max_games}]
    if not 0 < seconds_per_turn <= max_seconds:
        fields["seconds_per_turn"] = [
            _("More than 0 and at most %(max)s seconds.") % {"max": max_seconds}
        ]
    if white == black:
        fields["black"] = [_("Choose two different bots.")]
    if rated:
        # The built-in bots' ratings measure them against people, not against each other.
        fields["rated"] = [_("Bot matches are unrated: they never move the bots' ratings.")]
    if fields:
        raise errors.InvalidInput(next(iter(fields.values()))[0], fields=fields)
    white_bot = get_builtin_bot(white, field="white")
    black_bot = get_builtin_bot(black, field="black")
    with transaction.atomic():
        # Serialise this user's match starts, so two requests cannot both pass the limit.
        User.objects.select_for_update().filter(pk=creator.pk).first()
        limit = setting("BOT_MATCH_MAX_RUNNING", 3)
        running = BotMatch.objects.filter(created_by=creator, status=BotMatch.Status.RUNNING)
        if not creator.is_staff and running.count() >= limit:
            raise bot_errors.TooManyBotMatches(
                _("You already have %(count)d bot matches running (the limit is %(limit)d).")
                % {"count": running.count(), "limit": limit}
            )
        if not creator.is_staff:
            # Serialise every user's match starts, so two requests cannot both pass it.
            jobs.lock("bot-matches")
            site_limit = setting("BOT_MATCH_MAX_RUNNING_TOTAL", 20)
            if BotMatch.objects.filter(status=BotMatch.Status.RUNNING).count() >= site_limit:
                seconds = _match_retry_after()
                raise QueueFull(
                    _(
                        "%(limit)d bot matches are running on the site, the most it runs at "
                        "once; try again in %(seconds)d seconds."
                    )
                    % {"limit": site_limit, "seconds": seconds},
                    retry_after=seconds,
                )
        match = BotMatch.objects.create(
            created_by=creator,
            white=white_bot,
            black=black_bot,
            games=games,
            seconds_per_turn=seconds_per_turn,
            rated=rated,
        )
        advance_bot_match(match_id=match.pk)
        watch_bot_match_later(match_id=match.pk)
    return match


def _match_retry_after() -> int:
    """About when a running match ends: a match's usual length (the median of the last 20
    finished) minus the age of the oldest running one; 10 s at least, an hour at most."""
    recent = BotMatch.objects.filter(
        status=BotMatch.Status.FINISHED, finished__isnull=False
    ).order_by("-finished")[:20]
    lengths = [
        (match.finished - match.created).total_seconds()
        for match in recent
        if match.finished is not None  # the filter says so; the type cannot
    ]
    usual = statistics.median(lengths) if lengths else 600.0
    oldest = (
        BotMatch.objects.filter(status=BotMatch.Status.RUNNING)
        .order_by("created")
        .values_list("created", flat=True)
        .first()
    )
    age = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
    return int(min(3600, max(10, math.ceil(usual - age))))


def watch_bot_match_later(*, match_id: int) -> None:
    """After commit, queue the match's watch (bots.tasks.watch_bot_match).

    The match's progress is a chain of messages (a turn queues the next turn, a
    finished game queues ``advance_bot_match``): one message lost by the broker, or
    dropped by a worker that died between its commit and its publish, would stop a
    game for good.  The watch repeats every ``BOT_MATCH_WATCH_SECONDS`` while the
    match runs and queues again whatever waits, so a match never depends on beat.
    """
    from bots import tasks

    seconds = float(setting("BOT_MATCH_WATCH_SECONDS", 30))
    tasks.watch_bot_match.apply_async((match_id, seconds), countdown=seconds)


def waiting_bot_moves(*, match_id: int, quiet_seconds: float) -> list[tuple[int, int]]:
    """(game id, ply) of the match's games where a bot must act and nothing happened
    for `quiet_seconds`: a move in flight would have saved its game since."""
    quiet = timezone.now() - datetime.timedelta(seconds=quiet_seconds)
    games = Game.objects.filter(
        bot_match_entry__match_id=match_id,
        status__in=(Game.Status.ACTIVE, Game.Status.SETUP),
        updated__lt=quiet,
    ).order_by("pk")
    waiting = []
    for game in games:
        acting = bot_to_act(game)
        if acting is not None:
            waiting.append((game.pk, acting[1]))
    return waiting


def advance_bot_match(*, match_id: int) -> BotMatch | None:
    """Start the match's next games (keeping ``BOT_MATCH_PARALLEL_GAMES`` running), or
    mark it finished when every game is over.  Idempotent; called when one of its
    games finishes and by the periodic sweep.
    """
    parallel = setting("BOT_MATCH_PARALLEL_GAMES", 4)
    with transaction.atomic():
        match = (
            BotMatch.objects.select_for_update()
            .select_related("white", "black")
            .filter(pk=match_id)
            .first()
        )
        if match is None or match.status == BotMatch.Status.FINISHED:
            return match
        entries = BotMatchGame.objects.filter(match=match)
        started = entries.count()
        finished = entries.filter(game__status=Game.Status.FINISHED).count()
        if finished >= match.games:
            match.status = BotMatch.Status.FINISHED
            match.finished = timezone.now()
            match.save(update_fields=["status", "finished"])
            return match
        free_slots = parallel - (started - finished)
        for number in range(started + 1, min(match.games, started + free_slots) + 1):
            # Colours alternate: the match's `white` bot has White in odd games.
            white, black = (match.white, match.black) if number % 2 else (match.black, match.white)
            game = services.start_game(white=white, black=black, rated=False)  # never rated
            BotMatchGame.objects.create(match=match, game=game, number=number)
    return match


def stop_bot_match(*, match: BotMatch, user: User) -> BotMatch:
    """Start no more games: the match ends with the games already started.

    Its creator or staff only; stopping a finished match changes nothing.  The
    games in play are played out (a few seconds each), so the record stays honest.
    """
    with transaction.atomic():
        match = BotMatch.objects.select_for_update().get(pk=match.pk)
        if match.created_by_id != user.pk and not user.is_staff:
            raise bot_errors.NotYourBotMatch()
        if match.status == BotMatch.Status.RUNNING:
            match.games = BotMatchGame.objects.filter(match=match).count()
            match.save(update_fields=["games"])
            advance_bot_match(match_id=match.pk)  # finished now if none is still in play
    return BotMatch.objects.select_related("white", "black", "created_by").get(pk=match.pk)


def match_score(match: BotMatch) -> tuple[float, float, int]:
    """(points of `white`'s bot, points of `black`'s bot, games finished)."""
    points = {match.white_id: 0.0, match.black_id: 0.0}
    played = 0
    finished = Game.objects.filter(
        bot_match_entry__match=match, status=Game.Status.FINISHED
    ).values_list("white_id", "black_id", "result")
    for white_id, black_id, result in finished:
        played += 1
        if result == Game.Result.WHITE_WINS:
            points[white_id] += 1.0
        elif result == Game.Result.BLACK_WINS:
            points[black_id] += 1.0
        elif result == Game.Result.DRAW:
            points[white_id] += 0.5
            points[black_id] += 0.5
    return points[match.white_id], points[match.black_id], played


def format_points(value: float) -> str:
    return f"{value:g}"

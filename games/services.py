"""Domain operations: every change to challenges, games and turns goes through here.

Each function takes keyword-only arguments, runs inside ``transaction.atomic``,
locks the row it changes (``select_for_update``) and raises a
``games.errors.DomainError`` (or an engine error: ``InvalidTurnError``,
``IllegalTurnError``) when the request cannot be carried out.  Views only parse
and format.  The hooks in ``games.signals`` let other apps react.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile
from accounts.services import refuse_if_blocked
from clocks import state as clock
from clocks.timecontrol import DEFAULT as DEFAULT_TIME_CONTROL
from clocks.timecontrol import TimeControl
from engine import InvalidPositionError, Position, Turn
from games import conditional, errors, hot_reads, hot_writes, signals
from games.models import Challenge, Color, Game
from games.models import Turn as TurnRow

logger = logging.getLogger(__name__)


# --- Challenges ------------------------------------------------------------------------


def create_challenge(
    *,
    creator: User,
    opponent: str | None = None,
    color: str = Challenge.ColorChoice.RANDOM,
    opening: str = Challenge.Opening.STANDARD,
    rated: bool = True,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    idempotency_key: str = "",
) -> Challenge:
    """Challenge `opponent` (a username), or anybody when it is None.

    The time control (clocks.timecontrol): per turn, or a time bank with an
    increment, optionally with the clocks stopped at weekends.  Any whole number of
    days per turn up to clocks.timecontrol.MAX_DAYS is accepted here (the API's older `days_per_turn`); the
    `clock` object of the API and the lobby's form keep to the usual choices.
    """
    fields: dict[str, list[str]] = {}
    if color not in Challenge.ColorChoice.values:
        fields["color"] = [_("Choose white, black or random.")]
    if opening not in Challenge.Opening.values:
        fields["opening"] = [_("Choose standard or pie.")]
    fields.update(time_control.errors(strict_days=False))
    if fields:
        raise errors.InvalidInput(fields=fields)
    opponent_user = None
    if opponent:
        opponent_user = User.objects.filter(**{User.USERNAME_FIELD: opponent}).first()
        if opponent_user is None:
            raise errors.UnknownPlayer(
                _("There is no player called %(name)s.") % {"name": opponent}
            )
        if opponent_user.pk == creator.pk:
            raise errors.InvalidInput(
                _("You cannot challenge yourself."),
                fields={"opponent": [_("You cannot challenge yourself.")]},
            )
        refuse_if_blocked(creator.pk, opponent_user.pk)  # 403 `blocked`, either direction
    with transaction.atomic():
        challenge = Challenge.objects.create(
            created_by=creator,
            opponent=opponent_user,
            color=color,
            opening=opening,
            rated=rated,
            time_control=time_control,  # type: ignore[misc]  # a property Model() takes (clocks.models)
            idempotency_key=idempotency_key,
        )
        signals.challenge_created.send(sender=Challenge, challenge=challenge)
    return challenge


def create_challenge_once(
    *, creator: User, idempotency_key: str, **options: Any
) -> tuple[Challenge, bool]:
    """create_challenge, at most once per (creator, key): (challenge, created).

    A client that retries a POST whose answer it never got (a timeout, a 5xx from a
    proxy) sends the same Idempotency-Key and gets the challenge the first one made.
    """
    existing = Challenge.objects.filter(created_by=creator, idempotency_key=idempotency_key)
    found = existing.first()
    if found is not None:
        return found, False
    try:
        with transaction.atomic():
            challenge = create_challenge(
                creator=creator, idempotency_key=idempotency_key, **options
            )
        return challenge, True
    except IntegrityError:  # the same key, concurrently: the other request made it
        return existing.get(), False


def _locked_challenge(challenge: Challenge) -> Challenge:
    return Challenge.objects.select_for_update().get(pk=challenge.pk)


def accept_challenge(*, challenge: Challenge, player: User) -> Game:
    """Accept an open challenge and create its game (active, or in pie setup)."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge)
        if challenge.created_by_id == player.pk:
            raise errors.OwnChallenge()
        # Closed first: the second accept of an open challenge finds it taken (409), not
        # addressed to the first acceptor (403).
        if challenge.status != Challenge.Status.OPEN:
            raise errors.ChallengeClosed()
        if challenge.opponent_id is not None and challenge.opponent_id != player.pk:
            raise errors.NotYourChallenge()
        # An open challenge too: a blocked player is never paired against the blocker.
        refuse_if_blocked(challenge.created_by_id, player.pk)
        creator_color = challenge.color
        if creator_color == Challenge.ColorChoice.RANDOM:
            creator_color = secrets.choice([Color.WHITE, Color.BLACK])
        if creator_color == Color.WHITE:
            white, black = challenge.created_by, player
        else:
            white, black = player, challenge.created_by
        game = start_game(
            white=white,
            black=black,
            opening=challenge.opening,
            rated=challenge.rated,
            time_control=challenge.time_control,
            # A rematch of a custom-position game starts from the same position.
            start_position=challenge.start_position or None,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = challenge.opponent or player
        challenge.game = game
        challenge.save(update_fields=["status", "opponent", "game", "updated"])
        signals.challenge_accepted.send(sender=Challenge, challenge=challenge)
    return game


def decline_challenge(*, challenge: Challenge, player: User) -> Challenge:
    """The challenged player says no. An open challenge cannot be declined, only ignored."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge)
        if challenge.opponent_id != player.pk:
            raise errors.NotYourChallenge()
        if challenge.status != Challenge.Status.OPEN:
            raise errors.ChallengeClosed()
        challenge.status = Challenge.Status.DECLINED
        challenge.save(update_fields=["status", "updated"])
    return challenge


def cancel_challenge(*, challenge: Challenge, player: User) -> Challenge:
    """The creator withdraws a challenge nobody has accepted yet."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge)
        if challenge.created_by_id != player.pk:
            raise errors.NotYourChallenge(
                _("Only the player who made this challenge can cancel it.")
            )
        if challenge.status != Challenge.Status.OPEN:
            raise errors.ChallengeClosed()
        challenge.status = Challenge.Status.CANCELLED
        challenge.save(update_fields=["status", "updated"])
    return challenge


# Short names the issue text uses.
decline = decline_challenge
cancel = cancel_challenge


# --- Games -------------------------------------------------------------------------------


def start_game(
    *,
    white: User,
    black: User,
    opening: str = Game.Opening.STANDARD,
    rated: bool = True,
    start_position: str | None = None,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    vacation_allowed: bool = True,
) -> Game:
    """Create a game. Tournaments call this directly (no challenge needed).

    `start_position` (a position string) starts a custom game; a pie opening
    starts in the setup phase with no position yet.  The time control is checked
    as in create_challenge; a tournament may set `vacation_allowed=False` (clocks
    then never stop for vacation in this game).
    """
    time_control.validate(strict_days=False)
    clock_fields = {"time_control": time_control, "vacation_allowed": bool(vacation_allowed)}
    with transaction.atomic():
        if opening == Game.Opening.PIE and start_position is None:
            game = Game(
                white=white,
                black=black,
                opening=opening,
                status=Game.Status.SETUP,
                rated=rated,
                **clock_fields,
            )
            clock.start_clock(game=game, now=timezone.now())
            game.save()
            signals.pie_step.send(sender=Game, game=game)
            return game
        if start_position is None:
            position = Position.standard()
        else:
            try:
                position = Position.from_string(start_position)
            except InvalidPositionError as exc:
                raise errors.InvalidInput(str(exc), fields={"start_position": [str(exc)]}) from None
            if position.outcome() is not None:  # e.g. one side has no adaptoid left
                over = _("This position is already decided: a game cannot start from it.")
                raise errors.InvalidInput(over, fields={"start_position": [over]})
            opening = (
                Game.Opening.CUSTOM
                if opening == Game.Opening.STANDARD and start_position
                else opening
            )
        text = str(position)
        game = Game(
            white=white,
            black=black,
            opening=opening,
            start_position=text,
            position=text,
            board="" if position.board.is_standard else str(position.board),
            status=Game.Status.ACTIVE,
            rated=rated,
            **clock_fields,
        )
        clock.start_clock(game=game, now=timezone.now())
        game.save()
        signals.game_started.send(sender=Game, game=game)
    return game


def locked_game(game: Game) -> Game:
    """The game row, locked, with both players and their profiles (the clock and the
    receivers of turn_played need them: see player_profiles).  Only the game row is
    locked: other games of the same players must not wait.  On PostgreSQL the stored
    turns' texts come in the same round trip (play_turn replays them), through the
    named statement of games.hot_reads (every API turn runs this read)."""
    if connection.vendor == "postgresql":
        return hot_reads.locked_game(game.pk)
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("white__profile", "black__profile")
        .get(pk=game.pk)
    )


def player_profiles(game: Game) -> dict[int, Profile]:
    """Both players' profiles by user id, as loaded with the game (a user without a
    profile row is left out); passed to the receivers so that none re-reads them."""
    profiles = {}
    for user in (game.white, game.black):
        try:
            profiles[user.pk] = user.profile
        except Profile.DoesNotExist:  # a user created without signals (fixtures)
            pass
    return profiles


def require_player(game: Game, player: User) -> str:
    color = game.color_of(player.pk)
    if color is None:
        raise errors.NotAPlayer()
    return color


def setup_pie(*, game: Game, player: User, white: str, black: str) -> Game:
    """Pie opening, step 1: the first player puts one adaptoid of each colour down."""
    with transaction.atomic():
        game = locked_game(game)
        color = require_player(game, player)
        if game.status == Game.Status.FINISHED:
            raise errors.GameOver()
        step = game.pie_step()
        if step is None or step.action != "place":
            raise errors.WrongPhase(_("The pieces have already been placed."))
        if color != step.color:
            raise errors.NotYourTurn(
                _("Your opponent places the pieces; you choose the colour afterwards.")
            )
        now = timezone.now()
        clock.check_deadline(game=game, now=now)
        try:
            position = Position.pie_setup(str(white), str(black))
        except InvalidPositionError as exc:
            raise errors.InvalidSetup(str(exc)) from None
        game.start_position = game.position = str(position)
        clock.start_clock(game=game, now=now)  # the chooser's clock (full time)
        game.save(update_fields=["start_position", "position", *clock.CLOCK_FIELDS, "updated"])
        signals.pie_step.send(sender=Game, game=game)
    return game


def choose_color(*, game: Game, player: User, color: str) -> Game:
    """Pie opening, step 2: the second player picks a colour; the game starts."""
    if color not in Color.values:
        raise errors.InvalidInput(
            _("Choose white or black."), fields={"color": [_("Choose white or black.")]}
        )
    with transaction.atomic():
        game = locked_game(game)
        seat = require_player(game, player)
        if game.status == Game.Status.FINISHED:
            raise errors.GameOver()
        step = game.pie_step()
        if step is None:
            raise errors.WrongPhase(_("The colours have already been chosen."))
        if step.action != "choose":
            raise errors.WrongPhase(_("The pieces have not been placed yet."))
        if seat != step.color:
            raise errors.NotYourTurn(_("Your opponent chooses the colour."))
        now = timezone.now()
        clock.check_deadline(game=game, now=now)
        if color == Color.WHITE:
            game.white_id, game.black_id = game.black_id, game.white_id
        game.status = Game.Status.ACTIVE
        # Setup steps are not charged: both clocks start full when the game starts.
        game.white_clock = game.black_clock = None
        clock.start_clock(game=game, now=now)
        game.save(update_fields=["white", "black", "status", *clock.CLOCK_FIELDS, "updated"])
        signals.game_started.send(sender=Game, game=game)
    return game


def replay(game: Game, turn_texts: Iterable[str] | None = None) -> Position:
    """The engine position after the game's stored turns (legality already checked)."""
    position = Position.from_string(game.start_position)
    if turn_texts is None:
        turn_texts = game.turns.order_by("ply").values_list("text", flat=True)
    for text in turn_texts:
        # Stored texts were checked when they were played: the fast path is safe.
        position.push(Turn.parse(text))
    return position


def play_turn(
    *, game: Game, player: User, text: str, ply: int, automatic: bool = False
) -> tuple[Game, bool]:
    """Play `text` as turn number `ply` (1-based). Returns (game, created).

    If the opponent prepared a conditional reply to this turn (games.conditional), it is
    played right after, in the same transaction (`automatic` marks it): the game
    returned then includes it.

    `created` is False when this player already stored this very turn at this
    ply (a retried request): nothing is stored twice.  The game row lock
    serialises concurrent submissions; the unique (game, ply) constraint backs it.
    Raises InvalidTurnError (syntax), IllegalTurnError (engine's refusal) or a
    DomainError (not_a_player, game_over, wrong_phase, stale_ply, not_your_turn).
    """
    turn = Turn.parse(text)  # syntax first: garbage is a 400 whatever the game state
    canonical = str(turn)
    try:
        with transaction.atomic():
            game = locked_game(game)
            color = require_player(game, player)
            previous = (
                TurnRow.objects.filter(game=game, ply=ply).first() if 1 <= ply <= game.ply else None
            )
            if (
                previous is not None
                and previous.player_id == player.pk
                and previous.text == canonical
            ):
                return game, False
            if game.status == Game.Status.FINISHED:
                raise errors.GameOver()
            if game.status == Game.Status.SETUP:
                raise errors.WrongPhase(_("The pie setup is not finished yet."))
            if ply != game.ply + 1:
                raise errors.StalePly(
                    _("Turn %(ply)d cannot be played now: the next turn is %(expected)d.")
                    % {"ply": ply, "expected": game.ply + 1},
                    expected_ply=game.ply + 1,
                )
            if game.to_move != color:
                raise errors.NotYourTurn()
            # Under the row lock: the timeout sweeper claims this same row, so a turn
            # is either in before the deadline or refused after it, never both.
            now = timezone.now()
            clock.check_deadline(game=game, now=now)
            turn_texts = getattr(game, "stored_turn_texts", None)
            if turn_texts is None:  # not PostgreSQL: a query of its own
                turn_texts = list(
                    TurnRow.objects.filter(game=game).order_by("ply").values_list("text", flat=True)
                )
            position = replay(game, turn_texts)
            checked = position.parse_turn(canonical)  # IllegalTurnError with the engine's reason
            position.push(checked)
            row = TurnRow(game=game, ply=ply, text=str(checked), player=player, automatic=automatic)
            game.position = str(position)
            game.ply = ply
            profiles = player_profiles(game)
            # ...and start the opponent's (their profile: vacation, time zone).
            clock.charge_turn(game=game, color=color, now=now, profiles=profiles)
            game.lapse_draw_offer(color)  # the mover's own offer lapses (games.agreements)
            changed = ("position", "ply", "draw_offer", *clock.CLOCK_FIELDS, "updated")
            outcome = position.outcome()
            if outcome is not None:  # the turn ends the game: one write for both
                close_game(
                    game=game, result=outcome.result(), termination=outcome.termination.value
                )
                changed = tuple(dict.fromkeys((*changed, *FINISH_FIELDS)))
            if connection.vendor == "postgresql":
                hot_writes.record_turn(row, game, changed)  # one round trip for both
            else:
                row.save(force_insert=True)
                game.save(update_fields=changed)
            # The answer is built from these texts: no query for the turns again.
            game.turn_texts = [*turn_texts, row.text]
            if outcome is not None:
                # (games.tasks.verify_recent_games replays it within ten minutes.)
                signals.game_finished.send(sender=Game, game=game, profiles=profiles)
            reply = conditional.take_reply(game=game, turn=row, position=position)
            signals.turn_played.send(
                sender=Game,
                game=game,
                turn=row,
                profiles=profiles,
                reply_follows=reply is not None,
            )
            if reply is not None:
                game = _play_conditional_reply(game=game, reply=reply, ply=ply + 1)
    except IntegrityError:
        # Only reachable if the row lock was bypassed (SQLite without a lock): the
        # unique (game, ply) constraint refused the second turn.
        raise errors.StalePly(_("Another turn was stored at this ply first.")) from None
    return game, True


def _play_conditional_reply(*, game: Game, reply: conditional.Reply, ply: int) -> Game:
    """Play the opponent's prepared reply (see play_turn); if it fails after all, the
    turn before it stands, the lines go and the failure is logged."""
    try:
        replied, _created = play_turn(
            game=game, player=reply.player, text=reply.text, ply=ply, automatic=True
        )
    except (errors.DomainError, ValueError) as exc:  # engine errors are ValueErrors
        # Its own savepoint (play_turn's atomic block) is rolled back: nothing half-done.
        logger.error("conditional reply in game %s not played: %s", game.pk, exc)
        conditional.drop_lines(game=game, author_id=reply.player.pk)
        return game
    return replied


def resign(*, game: Game, player: User) -> Game:
    with transaction.atomic():
        game = locked_game(game)
        color = require_player(game, player)
        if game.status == Game.Status.FINISHED:
            raise errors.GameOver()
        result = Game.Result.BLACK_WINS if color == Color.WHITE else Game.Result.WHITE_WINS
        finish_game(
            game=game,
            result=result,
            termination=Game.Termination.RESIGNATION,
            profiles=player_profiles(game),
        )
    return game


# Ways a game can end that the players (or an arbiter) decide, not the engine, with the
# results each allows: the record must stay honest (no "resigned" draw, no agreed win).
_ADJUDICATED_RESULTS: dict[str, tuple[str, ...]] = {
    Game.Termination.RESIGNATION: (Game.Result.WHITE_WINS, Game.Result.BLACK_WINS),
    Game.Termination.TIMEOUT: (Game.Result.WHITE_WINS, Game.Result.BLACK_WINS),
    Game.Termination.ABANDONED: (Game.Result.WHITE_WINS, Game.Result.BLACK_WINS),
    Game.Termination.AGREEMENT: (Game.Result.DRAW,),
    Game.Termination.ADJUDICATION: (
        Game.Result.WHITE_WINS,
        Game.Result.DRAW,
        Game.Result.BLACK_WINS,
    ),
}


def adjudicate(*, game: Game, result: str, termination: str) -> Game:
    """End a game by decision rather than by the engine (arbiter, simulation, agreed draw).

    Only terminations the engine cannot produce are allowed, each with the results
    that make sense for it: resignation, timeout and abandoned are decisive, an
    agreement is a draw.  Tournaments score timeout and abandoned as forfeits.
    """
    allowed = _ADJUDICATED_RESULTS.get(termination)
    if allowed is None:
        raise errors.InvalidInput(
            _("A game can be adjudicated only as %(choices)s.")
            % {"choices": ", ".join(_ADJUDICATED_RESULTS)},
            fields={"termination": [_("Not an adjudicated termination.")]},
        )
    if result not in allowed:
        raise errors.InvalidInput(
            _("Termination %(termination)s needs a result among %(results)s.")
            % {"termination": termination, "results": ", ".join(allowed)},
            fields={"result": [_("Does not match the termination.")]},
        )
    with transaction.atomic():
        game = locked_game(game)
        return finish_game(
            game=game, result=result, termination=termination, profiles=player_profiles(game)
        )


#: the columns a finish changes (finish_game saves them; play_turn adds them to its write)
FINISH_FIELDS = ("status", "result", "termination", "finished", "deadline", "draw_offer", "updated")


def close_game(*, game: Game, result: str, termination: str) -> None:
    """Set the finished state on ``game`` (not saved): the checks and fields of a finish.

    Callers save ``FINISH_FIELDS`` and send ``signals.game_finished`` in the same
    transaction: finish_game does both, play_turn writes them with the turn.
    """
    # An aborted game has no result ("*", games.agreements.abort); every other end has one.
    if termination == Game.Termination.ABORTED:
        if result != Game.Result.ONGOING:
            raise errors.InvalidInput(_("An aborted game has no result: *."))
    elif result not in (Game.Result.WHITE_WINS, Game.Result.BLACK_WINS, Game.Result.DRAW):
        raise errors.InvalidInput(_("A finished game needs a result: 1-0, 0-1 or 1/2-1/2."))
    if termination not in Game.Termination.values:
        raise errors.InvalidInput(_("Unknown termination %(value)s.") % {"value": termination})
    if game.status == Game.Status.FINISHED:
        raise errors.GameOver()
    game.status = Game.Status.FINISHED
    game.result = result
    game.termination = termination
    game.finished = timezone.now()
    game.deadline = None
    game.draw_offer = ""  # nothing left to agree on


def finish_game(
    *, game: Game, result: str, termination: str, profiles: dict[int, Profile] | None = None
) -> Game:
    """End a game (resignation, timeout, agreement…) and tell the listeners.

    Callers hold the game row lock (or pass a fresh object within their atomic block).
    `profiles` (see player_profiles) spares the receivers a query for each player.
    """
    close_game(game=game, result=result, termination=termination)
    # Within the caller's transaction when there is one (no savepoint: a failing
    # receiver must undo the whole change, the turn that ended the game included).
    with transaction.atomic(savepoint=False):
        game.save(update_fields=FINISH_FIELDS)
        # (games.tasks.verify_recent_games replays it within ten minutes.)
        signals.game_finished.send(sender=Game, game=game, profiles=profiles)
    return game

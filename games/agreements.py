"""What the players of a game agree on besides turns: draw offers, aborts, rematches,
and each player's private notes.

The same functions serve the API (games.api.agreements) and the website
(games.agreement_views).  Like games.services, every change runs in
``transaction.atomic`` under the game row lock (``services.locked_game``), so two
concurrent calls are served one after the other: a draw offer is accepted once, a
game is aborted or drawn but not both, two rematch requests make one challenge.

* Draw offer: either player of an active game offers (again: nothing new); the
  opponent making the same call while the offer stands accepts it (a draw, termination
  ``agreement``).  The author withdraws it, the opponent declines it (both: ``DELETE``);
  it lapses when its author plays a turn (``Game.lapse_draw_offer`` in play_turn).
* Abort: while the pie setup runs, or before both players have made their first turn
  (``ply < 2``), either player may call the game off: termination ``aborted``, result
  ``*``, never rated (ratings rate decisive and drawn results only), a double forfeit
  in a tournament (tournaments.services.record_game_result).
* Rematch: a challenge to the same opponent, colours swapped, the same settings.
* Notes: one text per (game, player), up to 5,000 characters, seen only by its author.
"""

from __future__ import annotations

import enum

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks import state as clock
from games import errors, services, signals
from games.models import Challenge, Color, Game, GameNote

# --- Draw offers -------------------------------------------------------------------------


class DrawAnswer(enum.Enum):
    OFFERED = "offered"  # a new offer now stands
    REPEATED = "repeated"  # this player's offer already stood: nothing changed
    AGREED = "agreed"  # the opponent's offer stood: the game is drawn


def offer_draw(*, game: Game, player: User) -> tuple[Game, DrawAnswer]:
    """Offer a draw, or accept the opponent's standing offer (the same call)."""
    with transaction.atomic():
        game = services.locked_game(game)
        color = services.require_player(game, player)
        _require_active(game)
        if game.draw_offer == color:
            return game, DrawAnswer.REPEATED
        if game.draw_offer:  # the opponent's: accepted
            # A clock already run out decides the game (the sweeper will end it): no
            # agreement may take a win on time away from the opponent.
            clock.check_deadline(game=game, now=timezone.now())
            services.finish_game(
                game=game,
                result=Game.Result.DRAW,
                termination=Game.Termination.AGREEMENT,
                profiles=services.player_profiles(game),
            )
            return game, DrawAnswer.AGREED
        game.draw_offer = color
        game.save(update_fields=["draw_offer", "updated"])
        signals.draw_offer_changed.send(sender=Game, game=game)
    return game, DrawAnswer.OFFERED


def cancel_draw_offer(*, game: Game, player: User) -> Game:
    """Withdraw one's own draw offer or decline the opponent's."""
    with transaction.atomic():
        game = services.locked_game(game)
        services.require_player(game, player)
        if game.status == Game.Status.FINISHED:
            raise errors.GameOver()
        if not game.draw_offer:
            raise errors.NoDrawOffer()
        game.draw_offer = ""
        game.save(update_fields=["draw_offer", "updated"])
        signals.draw_offer_changed.send(sender=Game, game=game)
    return game


def _require_active(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise errors.GameOver()
    if game.status != Game.Status.ACTIVE:
        raise errors.WrongPhase(_("A draw can be offered once the pie setup is over."))


# --- Abort -------------------------------------------------------------------------------


def can_abort(game: Game) -> bool:
    """Whether the game may still be aborted: pie setup, or fewer than two turns played."""
    if game.status == Game.Status.SETUP:
        return True
    return game.status == Game.Status.ACTIVE and game.ply < 2


def abort(*, game: Game, player: User) -> Game:
    """Call the game off before both players have made their first turn."""
    with transaction.atomic():
        game = services.locked_game(game)
        services.require_player(game, player)
        if game.status == Game.Status.FINISHED:
            raise errors.GameOver()
        if not can_abort(game):
            raise errors.AbortTooLate()
        clock.check_deadline(game=game, now=timezone.now())  # as for accepting a draw
        services.finish_game(
            game=game,
            result=Game.Result.ONGOING,
            termination=Game.Termination.ABORTED,
            profiles=services.player_profiles(game),
        )
    return game


# --- Rematch -----------------------------------------------------------------------------


def pending_rematch(game: Game) -> Challenge | None:
    """The open rematch challenge of this game, if any (there is at most one)."""
    return (
        Challenge.objects.select_related("created_by", "opponent")
        .filter(rematch_of=game, status=Challenge.Status.OPEN)
        .order_by("pk")
        .first()
    )


def rematch(*, game: Game, player: User) -> tuple[Challenge, bool]:
    """Challenge the opponent of a finished game again, colours swapped, same settings.

    Returns (challenge, created).  Not created: this player's rematch challenge was
    already open, or already accepted (its game is the rematch); or the opponent's was
    open, and this call accepted it (the challenge comes back accepted, with its game).
    """
    with transaction.atomic():
        # The game row lock serialises both players' requests: one challenge between them.
        game = services.locked_game(game)
        color = services.require_player(game, player)
        if game.status != Game.Status.FINISHED:
            raise errors.GameNotOver()
        if game.imported:
            raise errors.NoRematch()
        earlier = (
            Challenge.objects.filter(
                rematch_of=game, status__in=[Challenge.Status.OPEN, Challenge.Status.ACCEPTED]
            )
            .order_by("-pk")
            .first()
        )
        if earlier is not None:
            if earlier.status == Challenge.Status.OPEN and earlier.created_by_id != player.pk:
                services.accept_challenge(challenge=earlier, player=player)
                earlier.refresh_from_db()
            return earlier, False
        opponent = game.black if color == Color.WHITE else game.white
        custom = game.opening == Game.Opening.CUSTOM
        challenge = services.create_challenge(
            creator=player,
            opponent=opponent.get_username(),
            color=Color.BLACK if color == Color.WHITE else Color.WHITE,
            opening=Challenge.Opening.STANDARD if custom else game.opening,
            rated=game.rated,
            time_control=game.time_control,
        )
        challenge.rematch_of = game
        challenge.start_position = game.start_position if custom else ""
        challenge.save(update_fields=["rematch_of", "start_position", "updated"])
    return challenge, True


# --- Notes -------------------------------------------------------------------------------


def note_text(*, game: Game, user: User) -> str:
    """The user's own notes on the game ("" when they wrote none)."""
    text = GameNote.objects.filter(game=game, user=user).values_list("text", flat=True).first()
    return text or ""


def save_note(*, game: Game, user: User, text: str) -> str:
    """Replace the player's notes on the game; returns the stored text.

    One row per (game, player), written with one upsert: concurrent saves of the same
    notes leave one row holding the last text, never an error.
    """
    if game.color_of(user.pk) is None:
        raise errors.NotAPlayer(_("Only the players of a game keep notes on it."))
    text = str(text)
    if len(text) > GameNote.MAX_LENGTH:
        message = _("Notes hold at most %(max)d characters.") % {"max": GameNote.MAX_LENGTH}
        raise errors.InvalidInput(message, fields={"text": [message]})
    if "\x00" in text:
        message = _("Notes cannot hold the NUL character.")
        raise errors.InvalidInput(message, fields={"text": [message]})
    GameNote.objects.bulk_create(
        [GameNote(game=game, user=user, text=text, updated=timezone.now())],
        update_conflicts=True,
        unique_fields=["game", "user"],
        update_fields=["text", "updated"],
    )
    return text

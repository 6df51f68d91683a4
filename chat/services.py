"""Game messages: write, read, report and hide them.  Views only parse and format.

A message goes from one player of a game to the other.  Writing it also publishes
a `message` line on both players' event streams (stream.events) and tells the
recipient (notifications.notify: on the site and by e-mail per their preferences),
all in one transaction: the message, its event and its notification commit
together, the e-mail is queued after the commit.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile
from accounts.services import is_blocked, refuse_if_blocked
from chat import errors
from chat.models import MAX_LENGTH, Message, MessageReport
from chat.serializers import MessageSerializer
from core.errors import InvalidInput
from core.text import hidden_characters
from games.errors import NotAPlayer
from games.models import Game
from games.services import player_profiles
from notifications.models import Kind, Notification
from notifications.services import game_url, notify
from stream import events as stream_events
from stream.models import Event


def clean_text(text: str, *, field: str = "text", required: bool = True) -> str:
    """`text` without its surrounding spaces, or InvalidInput naming `field`: empty
    (when required), over 500 characters, or holding control or invisible characters
    (core.text: line breaks included, a message is one line)."""
    text = (text or "").strip()
    problem = None
    hidden = hidden_characters(text)
    if required and not text:
        problem = _("Write something.")
    elif len(text) > MAX_LENGTH:
        problem = _("At most %(max)d characters (this one has %(count)d).") % {
            "max": MAX_LENGTH,
            "count": len(text),
        }
    elif hidden:
        problem = _("Control and invisible characters are not allowed: %(codes)s.") % {
            "codes": ", ".join(sorted(set(hidden)))
        }
    if problem is not None:
        raise InvalidInput(problem, fields={field: [problem]})
    return text


def _game_of_player(game: Game, user: User) -> Game:
    """The game with both players and their profiles; NotAPlayer for anybody else."""
    game = Game.objects.select_related("white__profile", "black__profile").get(pk=game.pk)
    if game.color_of(user.pk) is None:
        raise NotAPlayer()
    return game


def post_message(*, game: Game, author: User, text: str) -> Message:
    """`author` (a player of `game`) writes `text` to the other player.

    Raises NotAPlayer (403 `not_a_player`), Blocked (403 `blocked`: either player
    blocked the other) or InvalidInput (400 `invalid`, field `text`)."""
    game = _game_of_player(game, author)
    recipient = game.black if author.pk == game.white_id else game.white
    refuse_if_blocked(author.pk, recipient.pk)
    text = clean_text(text)
    with transaction.atomic():
        message = Message.objects.create(game=game, author=author, text=text)
        profiles = player_profiles(game)
        stream_events.record_game(
            game, Event.Type.MESSAGE, {"message": dict(MessageSerializer(message).data)}, profiles
        )
        _tell(recipient=recipient, message=message, profile=profiles.get(recipient.pk))
    return message


def _tell(*, recipient: User, message: Message, profile: Profile | None) -> None:
    """One "new message in game N" notification until the recipient reads it: a chatty
    opponent does not send an e-mail per line."""
    unread = Notification.objects.filter(
        user=recipient, kind=Kind.MESSAGE, game_id=message.game_id, read__isnull=True
    )
    if unread.exists():
        return
    notify(
        user=recipient,
        kind=Kind.MESSAGE,
        game=message.game,
        params={"author": message.author.get_username()},
        url=game_url(message.game_id) + "#messages",
        profile=profile,
    )


def can_see_hidden(user: User) -> bool:
    return bool(user.is_staff)


def messages_for(*, game: Game, viewer: User, after: int = 0) -> QuerySet[Message]:
    """The messages of `game` `viewer` may read, oldest first (those after id `after`):
    its players see the ones not hidden, staff all of them.  NotAPlayer for others."""
    if not can_see_hidden(viewer):
        _game_of_player(game, viewer)
    found = Message.objects.filter(game_id=game.pk, id__gt=after).select_related("author")
    if not can_see_hidden(viewer):
        found = found.filter(hidden__isnull=True)
    return found.order_by("id")


def visible_message(*, game: Game, message_id: int, viewer: User) -> Message | None:
    """The message `viewer` may read, or None (no such message in this game, or hidden)."""
    return messages_for(game=game, viewer=viewer).filter(pk=message_id).first()


def report_message(
    *, message: Message, reporter: User, reason: str = ""
) -> tuple[MessageReport, bool]:
    """A player reports the other player's message to staff: (report, created); a
    second report of the same message by the same player changes nothing."""
    if message.game.color_of(reporter.pk) is None:
        raise NotAPlayer()
    if message.author_id == reporter.pk:
        raise errors.OwnMessage()
    reason = clean_text(reason, field="reason", required=False)
    with transaction.atomic():
        return MessageReport.objects.get_or_create(
            message=message, reporter=reporter, defaults={"reason": reason}
        )


def hide_messages(*, messages: QuerySet[Message], by: User) -> int:
    """Staff hide messages from the players (the admin's action); returns how many."""
    return messages.filter(hidden__isnull=True).update(hidden=timezone.now(), hidden_by=by)


def show_messages(*, messages: QuerySet[Message]) -> int:
    """Undo hide_messages."""
    return messages.exclude(hidden__isnull=True).update(hidden=None, hidden_by=None)


def page_state(*, game: Game, viewer: Any) -> dict[str, Any]:
    """What the game page's message panel needs (chat/_messages.html): nothing for
    visitors who are neither a player nor staff."""
    if not viewer.is_authenticated:
        return {"visible": False}
    is_player = game.color_of(viewer.pk) is not None
    if not is_player and not can_see_hidden(viewer):
        return {"visible": False}
    # A block between the two players: the form gives way to a note (the API refuses too).
    blocked = is_player and is_blocked(game.white_id, game.black_id)
    return {
        "visible": True,
        "can_write": is_player and not blocked,
        "blocked": blocked,
        "messages": list(messages_for(game=game, viewer=viewer)),
    }

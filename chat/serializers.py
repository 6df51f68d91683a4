"""The one shape of a message, for the API, the game page's fetch and the event stream."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from chat.models import MAX_LENGTH, Message


class MessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField(source="game_id")
    author = serializers.CharField(source="author.username")
    text = serializers.CharField()
    created = serializers.DateTimeField()
    hidden = serializers.SerializerMethodField(
        help_text=_("True when staff hid it (only staff see hidden messages).")
    )

    def get_hidden(self, message: Message) -> bool:
        return message.hidden is not None


class MessageRequestSerializer(serializers.Serializer):
    # Not trimmed or length-checked here: chat.services does both, so the web form and
    # the API refuse the same texts with the same words.
    text = serializers.CharField(
        trim_whitespace=False,
        allow_blank=True,
        max_length=MAX_LENGTH * 4,  # a bound on the body; the service counts characters
        help_text=_("1 to 500 characters of plain text, no control characters."),
    )


class ReportRequestSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_LENGTH * 4,
        help_text=_("Optional: what is wrong with the message (up to 500 characters)."),
    )


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    message = serializers.IntegerField(source="message_id")
    reason = serializers.CharField()
    created = serializers.DateTimeField()

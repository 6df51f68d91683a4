"""Staff moderate messages: reports show the message with its game and both players;
the "hide" action takes a message away from the players (and "show" gives it back)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from chat import services
from chat.models import Message, MessageReport
from core.requests import signed_in_user


def _game_link(game_id: int) -> str:
    return format_html(
        '<a href="{}">#{}</a>', reverse("admin:games_game_change", args=[game_id]), game_id
    )


@admin.action(description=_("Hide the selected messages from the players"))
def hide(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Message]) -> None:
    count = services.hide_messages(messages=queryset, by=signed_in_user(request))
    modeladmin.message_user(request, _("%(count)d messages hidden.") % {"count": count})


@admin.action(description=_("Show the selected messages to the players again"))
def show(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Message]) -> None:
    count = services.show_messages(messages=queryset)
    modeladmin.message_user(request, _("%(count)d messages shown again.") % {"count": count})


class ReportInline(admin.TabularInline):
    model = MessageReport
    extra = 0
    can_delete = False
    readonly_fields = ["reporter", "reason", "created"]


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["id", "game_link", "author", "text", "created", "is_hidden"]
    list_filter = [("hidden", admin.EmptyFieldListFilter)]
    search_fields = ["text", "author__username"]
    list_select_related = ["author"]
    fields = readonly_fields = ("game", "author", "text", "created", "hidden", "hidden_by")
    actions = [hide, show]
    inlines = [ReportInline]

    @admin.display(description=_("game"))
    def game_link(self, message: Message) -> str:
        return _game_link(message.game_id)

    @admin.display(description=_("hidden"), boolean=True)
    def is_hidden(self, message: Message) -> bool:
        return message.hidden is not None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players write messages; staff only moderate them


@admin.action(description=_("Hide the reported messages from the players"))
def hide_reported(modeladmin: Any, request: HttpRequest, queryset: QuerySet[MessageReport]) -> None:
    reported = Message.objects.filter(reports__in=queryset)
    count = services.hide_messages(messages=reported, by=signed_in_user(request))
    modeladmin.message_user(request, _("%(count)d messages hidden.") % {"count": count})


@admin.register(MessageReport)
class MessageReportAdmin(admin.ModelAdmin):
    list_display = [
        "created",
        "reporter",
        "message_author",
        "message_text",
        "game_link",
        "players",
        "message_hidden",
    ]
    list_select_related = [
        "reporter",
        "message__author",
        "message__game__white",
        "message__game__black",
    ]
    list_filter = [("message__hidden", admin.EmptyFieldListFilter)]
    fields = readonly_fields = (
        "reporter",
        "reason",
        "created",
        "message_link",
        "message_author",
        "message_text",
        "game_link",
        "players",
        "context",
        "message_hidden",
    )
    actions = [hide_reported]

    @admin.display(description=_("author"))
    def message_author(self, report: MessageReport) -> str:
        return report.message.author.get_username()

    @admin.display(description=_("message"))
    def message_text(self, report: MessageReport) -> str:
        return report.message.text

    @admin.display(description=_("message"))
    def message_link(self, report: MessageReport) -> str:
        url = reverse("admin:chat_message_change", args=[report.message_id])
        return format_html('<a href="{}">#{}</a>', url, report.message_id)

    @admin.display(description=_("game"))
    def game_link(self, report: MessageReport) -> str:
        return _game_link(report.message.game_id)

    @admin.display(description=_("players"))
    def players(self, report: MessageReport) -> str:
        game = report.message.game
        return f"{game.white.get_username()} – {game.black.get_username()}"

    @admin.display(description=_("conversation around it"))
    def context(self, report: MessageReport) -> str:
        """The five messages before and after the reported one, hidden ones marked."""
        message = report.message
        around = Message.objects.filter(game_id=message.game_id).select_related("author")
        before = list(around.filter(id__lt=message.pk).order_by("-id")[:5])[::-1]
        after = list(around.filter(id__gt=message.pk).order_by("id")[:5])
        lines = [*before, message, *after]
        return format_html(
            "<ol>{}</ol>",
            format_html(
                "".join(["<li>{}{}: {}{}</li>"] * len(lines)),
                *[
                    part
                    for line in lines
                    for part in (
                        "▶ " if line.pk == message.pk else "",
                        line.author.get_username(),
                        line.text,
                        f" ({_('hidden')})" if line.hidden else "",
                    )
                ],
            ),
        )

    @admin.display(description=_("hidden"), boolean=True)
    def message_hidden(self, report: MessageReport) -> bool:
        return report.message.hidden is not None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

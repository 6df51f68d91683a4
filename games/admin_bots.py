"""Admin for bot matches, rating history and stream events (read-mostly).

Imported at the end of games/admin.py.  Matches are started through the API or
the site (games.bots.create_bot_match), not created here.
"""

from django.contrib import admin

from games.models import BotMatch, BotMatchGame, Event, RatingChange


class BotMatchGameInline(admin.TabularInline):
    model = BotMatchGame
    fields = ["number", "game"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(BotMatch)
class BotMatchAdmin(admin.ModelAdmin):
    list_display = ["id", "white", "black", "games", "seconds_per_turn", "status", "created_by"]
    list_filter = ["status", "rated"]
    list_select_related = ["white", "black", "created_by"]
    readonly_fields = ["created_by", "white", "black", "games", "created", "finished"]
    inlines = [BotMatchGameInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "rating_before", "rating", "deviation", "created"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = ["game", "user", "rating_before", "rating", "deviation", "volatility"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "type", "created"]
    list_filter = ["type"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = ["user", "type", "payload", "created"]

    def has_add_permission(self, request) -> bool:
        return False

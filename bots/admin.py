"""Admin for bot matches (read-mostly).

Matches are started through the API or the site (bots.services.create_bot_match),
not created here.
"""

from django.contrib import admin

from bots.models import BotMatch, BotMatchGame


class BotMatchGameInline(admin.TabularInline):
    model = BotMatchGame
    fields = readonly_fields = ("number", "game")
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

"""Admin for organisers: challenges, games with their turns (players and tokens: accounts).

Game state is changed through services, never by editing positions here: the
cached position and ply are read-only, and "resign/adjudicate" happens via the
API or a shell.
"""

from django.contrib import admin

from games.models import Challenge, Game, Turn


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "created_by",
        "opponent",
        "color",
        "opening",
        "days_per_turn",
        "rated",
        "status",
        "game",
        "created",
    ]
    list_filter = ["status", "opening", "rated"]
    search_fields = ["created_by__username", "opponent__username"]
    raw_id_fields = ["created_by", "opponent", "game"]
    list_select_related = ["created_by", "opponent"]


class TurnInline(admin.TabularInline):
    model = Turn
    extra = 0
    can_delete = False
    readonly_fields = ["ply", "text", "player", "created"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # turns only come from play_turn, which asks the engine


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "white",
        "black",
        "status",
        "result",
        "termination",
        "ply",
        "rated",
        "deadline",
        "created",
    ]
    list_filter = ["status", "result", "termination", "opening", "rated", "imported"]
    search_fields = ["white__username", "black__username"]
    date_hierarchy = "created"
    raw_id_fields = ["white", "black"]
    readonly_fields = ["position", "ply", "start_position", "created", "updated", "finished"]
    list_select_related = ["white", "black"]
    inlines = [TurnInline]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["game", "ply", "text", "player", "created"]
    search_fields = ["game__id", "player__username"]
    raw_id_fields = ["game", "player"]
    readonly_fields = ["game", "ply", "text", "player", "created"]
    list_select_related = ["player"]

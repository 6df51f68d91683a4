"""Admin for organisers: players, challenges, games with their turns, API tokens.

Game state is changed through services, never by editing positions here: the
cached position and ply are read-only, and "resign/adjudicate" happens via the
API or a shell.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from games.models import ApiToken, Challenge, Game, Profile, Turn

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fk_name = "user"


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    inlines = [ProfileInline]
    list_display = ["username", "email", "is_staff", "is_active", "date_joined"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = [
        "user",
        "display_name",
        "is_bot",
        "rating",
        "rating_deviation",
        "language",
        "email_notifications",
    ]
    list_filter = ["is_bot", "language", "email_notifications"]
    search_fields = ["user__username", "display_name"]
    list_select_related = ["user"]


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


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "user", "created", "last_used", "revoked"]
    list_filter = ["revoked"]
    search_fields = ["prefix", "user__username"]
    readonly_fields = ["prefix", "digest", "user", "created", "last_used"]
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset) -> None:
        from django.utils import timezone

        queryset.filter(revoked__isnull=True).update(revoked=timezone.now())

    def has_add_permission(self, request) -> bool:
        return False  # a token's secret is shown once, by POST /api/v1/auth/token

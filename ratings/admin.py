"""Admin for the rating history (read-only: the rate_game task writes it)."""

from django.contrib import admin

from ratings.models import RatingChange


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "rating_before", "rating", "deviation", "created"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = ["game", "user", "rating_before", "rating", "deviation", "volatility"]

    def has_add_permission(self, request) -> bool:
        return False

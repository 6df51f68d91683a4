"""Admin for stream events (read-only: receivers write them, a beat task prunes them)."""

from django.contrib import admin

from stream.models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "type", "created"]
    list_filter = ["type"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = ["user", "type", "payload", "created"]

    def has_add_permission(self, request) -> bool:
        return False

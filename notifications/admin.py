from django.contrib import admin

from notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "game", "created", "read", "email_state", "email_attempts"]
    list_filter = ["kind", "email_state"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "game"]
    readonly_fields = ["created", "emailed", "email_claimed"]

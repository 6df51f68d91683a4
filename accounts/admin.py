"""Admin: users with their profile, and API tokens (revoke only)."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import ApiToken, Profile

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

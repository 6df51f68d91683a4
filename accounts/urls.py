"""Account pages (in the "web" namespace: web/urls.py): sign-up, settings, tokens, and
Django's log-in and password views with our templates (templates/registration/)."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", views.account_settings, name="settings"),
    path("settings/token/", views.create_token, name="token-create"),
    path("settings/token/<int:token_id>/revoke/", views.revoke_token, name="token-revoke"),
    path("settings/blocks/", views.blocks, name="blocks"),
    path("settings/blocks/<int:block_id>/unblock/", views.unblock, name="unblock"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="/"), name="logout"),
    path(
        "accounts/password/",
        views.PasswordChangeView.as_view(success_url=reverse_lazy("web:password-change-done")),
        name="password-change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
    path(
        "accounts/reset/",
        views.PasswordResetView.as_view(
            success_url=reverse_lazy("web:password-reset-done"),
            email_template_name="registration/reset_email.txt",
            subject_template_name="registration/reset_subject.txt",
        ),
        name="password-reset",
    ),
    path(
        "accounts/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password-reset-done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("web:password-reset-complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password-reset-complete",
    ),
]

"""Pages of the website (mounted at the root by config/urls.py); the archive's pages
(archive/views.py) keep their names in this namespace."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from archive import views as archive_views
from web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("language/", views.set_language, name="set-language"),
    path("signup/", views.signup, name="signup"),
    path("settings/", views.account_settings, name="settings"),
    path("settings/token/", views.create_token, name="token-create"),
    path("settings/token/<int:token_id>/revoke/", views.revoke_token, name="token-revoke"),
    path("lobby/", views.lobby, name="lobby"),
    path(
        "challenges/<int:challenge_id>/<str:action>/",
        views.challenge_action,
        name="challenge-action",
    ),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/play/", views.play, name="play"),
    path("games/<int:game_id>/setup/", views.pie_setup, name="pie-setup"),
    path("games/<int:game_id>/choose/", views.pie_choose, name="pie-choose"),
    path("games/<int:game_id>/resign/", views.resign, name="resign"),
    path("games/<int:game_id>/record.agn", archive_views.game_record, name="record"),
    path("board.svg", views.position_svg, name="board-svg"),
    path("analysis/", views.analysis, name="analysis"),
    path("players/<str:username>/", views.player_page, name="player"),
    path("archive/", archive_views.archive_page, name="archive"),
    path("import/", archive_views.import_page, name="import"),
    # Accounts: Django's views with our templates (templates/registration/).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="/"), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(success_url=reverse_lazy("web:password-change-done")),
        name="password-change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
    path(
        "accounts/reset/",
        auth_views.PasswordResetView.as_view(
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
        auth_views.PasswordResetConfirmView.as_view(
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

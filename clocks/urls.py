"""Clock pages, mounted at /vacation/ by config/urls.py."""

from django.urls import path

from clocks import views

app_name = "clocks"

urlpatterns = [path("", views.vacation_page, name="vacation")]

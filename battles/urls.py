from django.urls import path

from battles import views

urlpatterns = [
    path("campaigns/<int:pk>/battles/new/", views.battle_record, name="battle_record"),
    path("battles/<int:pk>/", views.battle_detail, name="battle_detail"),
    path("battles/<int:pk>/correct/", views.battle_correct, name="battle_correct"),
]

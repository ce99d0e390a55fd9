from django.apps import AppConfig


class WarbandsConfig(AppConfig):
    name = "warbands"
    verbose_name = "Warbands"

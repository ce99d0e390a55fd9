from django.apps import AppConfig
from django.conf import settings


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Infrastructure"

    def ready(self) -> None:
        # whitenoise warns about a missing STATIC_ROOT; `collectstatic` fills it for `make serve`.
        settings.STATIC_ROOT.mkdir(parents=True, exist_ok=True)

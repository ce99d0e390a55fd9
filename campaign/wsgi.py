"""WSGI entry point: `gunicorn campaign.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

application = get_wsgi_application()

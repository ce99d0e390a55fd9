"""WSGI entry point: `gunicorn core.wsgi`. Without ``DATABASE_URL`` it starts (or joins) the
embedded PostgreSQL first.

Once the application and its URLconf are loaded, everything they made is moved out of the
garbage collector's sight (``gc.freeze()``): the long-lived objects (models, forms, views,
Django's own) that every full collection would otherwise walk again, a pause felt by the
request it falls on. The frozen objects are still freed when nothing refers to them;
only reference cycles among them are never collected, and they live as long as the worker
anyway.
"""

import gc
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from core.embedded import start_embedded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "core.settings")
start_embedded(settings)  # without DATABASE_URL: start or join the embedded PostgreSQL
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018 - imports every view, form and template tag now
gc.collect()
gc.freeze()

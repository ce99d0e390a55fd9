"""Importing this sets Django up in one of the benchmark's own processes: an entry point, like
``manage.py``, so it starts (or joins) the embedded PostgreSQL first."""

import django
from django.conf import settings

from core.embedded import start_embedded

start_embedded(settings)
django.setup()

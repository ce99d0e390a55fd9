#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

from django.conf import settings
from django.core.management import execute_from_command_line

from core.embedded import start_embedded


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "core.settings")
    start_embedded(settings)  # without DATABASE_URL: start or join the embedded PostgreSQL
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

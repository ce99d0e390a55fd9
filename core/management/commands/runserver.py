"""``runserver`` whose SIGTERM stops the embedded PostgreSQL (``make run``).

Django's reloader (``autoreload.run_with_reloader``) sets SIGTERM to ``sys.exit(0)`` in both of
its processes. In the parent that exits inside ``subprocess.run``, which then SIGKILLs the child
serving the pages: killed before its own exit, the child stays on pgserver's list of processes
(or is cut off while writing it) and the server runs on after ``make run`` is stopped. This
command does what ``run_with_reloader`` does, with ``core.database``'s handler instead:
children exit first, and a second SIGTERM cannot cut pgserver's stop short. Everything else,
including whitenoise's ``--nostatic`` default, is the command this one extends.
"""

from __future__ import annotations

import logging
import os
import sys

from django.utils import autoreload
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as RunserverCommand,
)

from core.embedded import exit_cleanly_on_sigterm

logger = logging.getLogger("django.utils.autoreload")


class Command(RunserverCommand):
    def run(self, **options):
        if not options["use_reloader"]:
            return super().run(**options)
        exit_cleanly_on_sigterm()  # where run_with_reloader would set sys.exit(0)
        try:
            if os.environ.get(autoreload.DJANGO_AUTORELOAD_ENV) == "true":
                reloader = autoreload.get_reloader()
                logger.info("Watching for file changes with %s", type(reloader).__name__)
                autoreload.start_django(reloader, self.inner_run, **options)
            else:
                sys.exit(autoreload.restart_with_reloader())
        except KeyboardInterrupt:
            pass

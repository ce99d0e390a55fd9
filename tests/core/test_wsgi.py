"""The WSGI entry point that gunicorn's workers import."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wsgi_entry_point_loads_the_views_and_freezes_them_out_of_the_collectors_way():
    """core/wsgi.py: the application, its URLconf and every view are loaded at import, and
    what they made is frozen (``gc.freeze``), so that full collections no longer walk it."""
    code = (
        "import gc, sys; before = gc.get_freeze_count(); import core.wsgi;"
        "print(before, gc.get_freeze_count(), 'warbands.treasury.views' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "core.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    before, frozen, views_loaded = done.stdout.split()
    assert int(before) == 0
    assert int(frozen) > 50_000  # Django, the app's models, forms and views
    assert views_loaded == "True"

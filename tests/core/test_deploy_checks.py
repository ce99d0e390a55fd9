"""`manage.py check --deploy` with production-like settings (DEBUG off, nothing else set)."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The three HTTPS warnings the README documents as the deployer's choice.
EXPECTED = {"security.W005", "security.W008", "security.W021"}


def test_check_deploy_reports_only_the_documented_https_warnings():
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DEBUG", "SECURE_", "TRUST_X_FORWARDED"))
        # set by the browser tests' fixture for Playwright, never in deployment
        and key != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    env["SECRET_KEY"] = "a-production-like-key-" + "x7Qp2vLm9Rt4Wk8Zb3Nc6Hd1Jf5Gs0Ya" * 2

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    reported = set(re.findall(r"\(([\w.]+\.[EW]\d+)\)", result.stdout + result.stderr))
    assert reported == EXPECTED, result.stdout + result.stderr

"""The CI audit script reads pip-audit's report instead of trusting its exit code."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "audit.py"
spec = importlib.util.spec_from_file_location("ci_audit", SCRIPT)
audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(audit)


def test_a_known_vulnerability_fails_and_names_the_fix():
    report = {
        "dependencies": [
            {
                "name": "django",
                "version": "5.2.0",
                "vulns": [{"id": "PYSEC-1", "fix_versions": ["5.2.1"]}],
            },
            {"name": "whitenoise", "version": "6.12.0", "vulns": []},
        ]
    }
    lines, failed = audit.summarise(report)
    assert failed
    assert "audit: django 5.2.0: PYSEC-1 (fixed in 5.2.1)" in lines
    assert lines[-1] == "audit: 2 of 2 locked packages audited, 1 with known vulnerabilities."


def test_a_clean_report_passes_and_counts_what_was_skipped():
    report = {
        "dependencies": [
            {"name": "django", "version": "5.2.19", "vulns": []},
            {"name": "pgserver", "skip_reason": "not found"},
        ]
    }
    lines, failed = audit.summarise(report)
    assert not failed
    assert lines == [
        "audit: skipped pgserver: not found",
        "audit: 1 of 2 locked packages audited, 0 with known vulnerabilities.",
    ]


def test_the_lock_pins_every_dependency_the_project_declares():
    pins = {
        line.split("==")[0].lower().replace("_", "-")
        for line in audit.LOCK.read_text().splitlines()
        if "==" in line
    }
    for name in (
        "django",
        "django-axes",
        "django-csp",
        "psycopg",
        "pgserver",
        "gunicorn",
        "whitenoise",
        "pip-audit",
    ):
        assert name in pins

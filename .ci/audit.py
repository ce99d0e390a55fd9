"""Audit the locked dependencies (requirements.lock) for known vulnerabilities.

Runs pip-audit over the lock file and reads its JSON report, because pip-audit
itself exits 0 and prints "No known vulnerabilities found" when it could not
reach the vulnerability service at all (every package is then only "skipped").
Exit codes:

* 0: every locked package was audited and none has a known vulnerability, or
  the service could not be reached and ``AUDIT_REQUIRED`` is not set (a loud
  notice says the audit did not happen; the machines this project is built on
  reach package mirrors but not pypi.org or api.osv.dev);
* 1: a known vulnerability (each printed with its id and fixed versions), or
  the service could not be reached while ``AUDIT_REQUIRED=1``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"


UNREACHABLE = ("ConnectionError", "NameResolutionError", "Max retries exceeded")


class AuditError(Exception):
    """pip-audit failed for a reason other than an unreachable service."""


def run_pip_audit(service: str) -> dict | None:
    """The JSON report of pip-audit against ``service``; None when it is unreachable."""
    command = [
        sys.executable, "-m", "pip_audit",
        "--requirement", str(LOCK),
        "--no-deps", "--disable-pip",
        "--vulnerability-service", service,
        "--format", "json", "--progress-spinner", "off",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        if any(sign in done.stderr for sign in UNREACHABLE):
            print(f"audit: {service} unreachable: {last[:160]}")
            return None
        raise AuditError(f"pip-audit ({service}) failed: {last[:300]}") from None


def main() -> int:
    if not LOCK.exists():
        print(f"audit: {LOCK.name} is missing; `make lock` writes it.")
        return 1
    report = None
    for service in ("osv", "pypi"):
        try:
            report = run_pip_audit(service)
        except AuditError as error:
            print(f"audit: {error}")
            return 1
        if report is not None:
            audited = [d for d in report["dependencies"] if "skip_reason" not in d]
            if audited:
                break
            report = None
    if report is None:
        print(
            "audit: NOT RUN. No vulnerability service (api.osv.dev, pypi.org) "
            f"could be reached from this machine; {LOCK.name} was not audited."
        )
        return 1 if os.environ.get("AUDIT_REQUIRED") == "1" else 0

    lines, failed = summarise(report)
    print("\n".join(lines))
    return 1 if failed else 0


def summarise(report: dict) -> tuple[list[str], bool]:
    """The lines to print for pip-audit's JSON ``report``, and whether it fails the audit."""
    skipped = [d for d in report["dependencies"] if "skip_reason" in d]
    vulnerable = [d for d in report["dependencies"] if d.get("vulns")]
    lines = []
    for dep in vulnerable:
        for vuln in dep["vulns"]:
            fixed = ", ".join(vuln.get("fix_versions") or ["none yet"])
            lines.append(f"audit: {dep['name']} {dep['version']}: {vuln['id']} (fixed in {fixed})")
    lines += [f"audit: skipped {d['name']}: {d['skip_reason']}" for d in skipped]
    total = len(report["dependencies"])
    lines.append(
        f"audit: {total - len(skipped)} of {total} locked packages audited, "
        f"{len(vulnerable)} with known vulnerabilities."
    )
    return lines, bool(vulnerable)


if __name__ == "__main__":
    sys.exit(main())
